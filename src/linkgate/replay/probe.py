"""Does a file control's mutation change only the build script's printed directives?

Compile the original and the mutated build script with rustc, run each alone
in a scratch ``OUT_DIR`` with the variables cargo would set, and compare:
when every file the scripts write is byte-identical, every other stdout line
is the same, and the mutated script only *omits* link directives, the defect
is exactly "these directives are missing" and a replay without them judges
it. Anything else (a build script that does not compile alone, one that
reads build-dependencies, a changed archive, an added directive) means a
full run.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from linkgate import repofs
from linkgate import proc
from linkgate.cargo import manifests
from linkgate.cargo.buildscript import LINK_KEYS, build_script_source, parse_directives
from linkgate.config import Config, Gate
from linkgate.replay import directives
from linkgate.replay.directives import SourceDirective

OUT = "${OUT_DIR}"


def _package_of(script: Path, root: Path) -> Path | None:
    for d in script.parents:
        if (d / "Cargo.toml").is_file() and build_script_source(d) == script:
            return d
        if d == root:
            break
    return None


def _run(
    source: bytes, scratch: Path, tag: str, manifest_dir: Path, env: Mapping[str, str]
) -> tuple[str, dict[str, bytes]] | None:
    src = scratch / f"{tag}.rs"
    src.write_bytes(source)
    exe = scratch / f"{tag}-build-script"
    try:
        manifest = tomllib.loads(repofs.read_text(manifest_dir / "Cargo.toml", inside=None))
    except (OSError, ValueError):
        return None
    package = manifest.get("package", {})
    edition = str(package.get("edition", "2015"))
    built = proc.run(["rustc", "--edition", edition, "--crate-name", "build_script_build", "--crate-type", "bin",
                      "-o", str(exe), str(src)], env=env, check=False)
    if built.returncode != 0:
        return None
    # One OUT_DIR path for both scripts, emptied in between: a path embedded
    # in what they write (an rpath, and the build-id hashed over it) must not
    # count as a difference.
    out_dir = scratch / "out"
    if out_dir.exists():
        import shutil

        shutil.rmtree(out_dir)
    out_dir.mkdir()
    run_env = dict(env)
    run_env.update({"OUT_DIR": str(out_dir), "CARGO_MANIFEST_DIR": str(manifest_dir),
                    "CARGO_PKG_NAME": str(package.get("name", "")), "CARGO_PKG_VERSION": str(package.get("version", "0.0.0")),
                    "NUM_JOBS": "1", "RUSTC": "rustc"})
    done = proc.run([str(exe)], cwd=manifest_dir, env=run_env, check=False)
    if done.returncode != 0:
        return None
    return done.stdout.replace(str(out_dir), OUT), _tree(out_dir)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def removed_directives(
    config: Config, gate: Gate, rel_path: str, original: bytes, mutated: bytes
) -> tuple[list[tuple[str, str]] | None, str]:
    """((key, value) the mutation removes, with OUT_DIR as ``${OUT_DIR}``), or (None, why a full run is needed)."""
    script = (config.root / rel_path).resolve()
    manifest_dir = _package_of(script, config.root.resolve())
    if manifest_dir is None:
        return None, f"{rel_path} is not a package's build script"
    from linkgate.gate import wrapper

    env = dict(os.environ)
    env.update(gate.env)
    host = wrapper.host_triple()
    triple = wrapper.target_triple(gate.cargo or (), env)
    release = "--release" in (gate.cargo or ()) or "-r" in (gate.cargo or ())
    env.update({"TARGET": triple, "HOST": host, "PROFILE": "release" if release else "debug",
                "OPT_LEVEL": "3" if release else "0", "DEBUG": "false" if release else "true",
                "CARGO_CFG_TARGET_OS": triple.split("-")[2] if triple.count("-") >= 2 else "",
                "CARGO_CFG_TARGET_ARCH": triple.split("-")[0]})
    with tempfile.TemporaryDirectory(prefix="linkgate-probe-") as tmp:
        scratch = Path(tmp)
        before = _run(original, scratch, "original", manifest_dir, env)
        after = _run(mutated, scratch, "mutated", manifest_dir, env)
        if before is None or after is None:
            return None, "the build script does not compile and run on its own"
        if before[1] != after[1]:
            return None, "the mutation changes what the build script writes to OUT_DIR"
    lines_before, lines_after = before[0].splitlines(), after[0].splitlines()
    dirs_before, dirs_after = parse_directives(lines_before), parse_directives(lines_after)
    other_before = [(d.key, d.value) for d in dirs_before if d.key not in LINK_KEYS]
    other_after = [(d.key, d.value) for d in dirs_after if d.key not in LINK_KEYS]
    if other_before != other_after:
        return None, "the mutation changes directives other than link directives"
    removed = [(d.key, d.value) for d in dirs_before if d.key in LINK_KEYS]
    for d in dirs_after:
        if d.key not in LINK_KEYS:
            continue
        if (d.key, d.value) not in removed:
            return None, f"the mutation adds cargo:{d.key}={d.value}"
        removed.remove((d.key, d.value))
    if not removed:
        if dirs_before != dirs_after:
            return None, "the mutation reorders link directives"
        return None, "the mutation changes nothing the build script prints"
    kept = [v for k, v in removed if k == "rustc-link-lib"
            and any(d.key == k and directives.lib_argument(d.value) == directives.lib_argument(v) for d in dirs_after)]
    if kept:
        # rustc gives a crate one copy of each library however often its script prints it:
        # dropping one of two lines leaves the copy (it may only move among the crate's libraries).
        return None, (f"the mutation removes one cargo:rustc-link-lib={kept[0]} of several the build script prints, "
                      "and the crate keeps its copy of the library")
    unswept = sorted({k for k, _ in removed if k not in directives.SWEPT_KEYS})
    if unswept:
        return None, f"the mutation removes {', '.join(unswept)}, which replay does not drop"
    bundled = [v for k, v in removed if k == "rustc-link-lib" and directives.bundles(v)]
    if bundled:
        try:
            archive = manifests.archived_library(manifest_dir)
        except manifests.ManifestError:
            archive = (manifest_dir.name, "rlib")  # cannot tell: assume the library, the answer that claims less
        if archive is not None:
            return None, (f"the mutation removes cargo:rustc-link-lib={bundled[0]}, which rustc bundles into "
                          f"{archive[0]}'s {archive[1]}; dropping it changes the archive, which replay does not rebuild")
    return removed, ""


def matches_removed(removed: list[tuple[str, str]], script: Path | None = None) -> Callable[[SourceDirective], bool]:
    """A directive matcher for what :func:`removed_directives` found (OUT_DIR made comparable),
    printed by the mutated build *script*: another package printing the same line keeps it."""
    mutated = script.resolve() if script is not None else None

    def match(d: SourceDirective) -> bool:
        if mutated is not None and (d.build_script is None or Path(d.build_script).resolve() != mutated):
            return False
        out_dir = str(Path(d.output_file).parent / "out")
        return (d.key, d.value.replace(out_dir, OUT)) in removed

    return match

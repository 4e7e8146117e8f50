"""One link-relevant build script's share of the surface, the same in both modes.

It is the script (and the module files it declares), what cargo reruns it
for, and what the script compiles, includes or probes as read from its
source (``linkgate.surface.compiles``). The last part matters most for
cc-style ``-sys`` crates: they print only ``rerun-if-env-changed``, so cargo
itself watches none of their C sources (FACTS.md, "Build scripts in the wild").
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from linkgate import repofs
from linkgate.cargo.buildscript import build_script_source
from linkgate.surface.compiles import ScriptScan, scan_script
from linkgate.surface.evidence import RecordedRun, Verdicts, probed
from linkgate.surface.model import Surface, relative, relative_to
from linkgate.rustlex import Token, matching, tokenize



@dataclass
class ScriptSource:
    """A build script read and scanned, or why it could not be."""

    path: Path | None
    text: str = ""
    scan: ScriptScan = field(default_factory=ScriptScan)
    modules: list[tuple[str, Path]] = field(default_factory=list)
    error: str | None = None


def read_script(manifest_dir: Path) -> ScriptSource:
    """The package's build script, scanned; ``path`` is None when the package has none."""
    script = build_script_source(manifest_dir) or _declared_script(manifest_dir)
    if script is None:
        return ScriptSource(None, error=f"no build script found in {manifest_dir} (package.build or build.rs)")
    try:
        text = repofs.read_text(script, inside=None, errors="replace")
    except OSError as exc:
        return ScriptSource(script, error=f"cannot read {script}: {exc.strerror or exc}")
    source = ScriptSource(script, text, scan_script(text, manifest_dir))
    for name, module in _modules(text, script.parent):
        try:
            more = scan_script(repofs.read_text(module, inside=None, errors="replace"), manifest_dir)
        except OSError as exc:
            source.scan.notes.append((str(module), 0, f"cannot read module {name}: {exc.strerror or exc}"))
            continue
        source.modules.append((name, module))
        source.scan.inputs += [replace(x, file=str(module)) for x in more.inputs]
        source.scan.libraries += [replace(x, file=str(module)) for x in more.libraries]
        source.scan.env += more.env
        source.scan.emitters += more.emitters
        source.scan.notes += [(str(module), line, text) for _, line, text in more.notes]
    return source


def _declared_script(manifest_dir: Path) -> Path | None:
    """A build script named but not a readable file (``build = "x.rs"``, a dangling build.rs link)."""
    import tomllib

    try:
        build = tomllib.loads(repofs.read_text(manifest_dir / "Cargo.toml", inside=None)).get("package", {}).get("build")
    except (OSError, ValueError, AttributeError):
        build = None
    if isinstance(build, str):
        return manifest_dir / build
    default = manifest_dir / "build.rs"
    return default if build is None and os.path.lexists(default) else None


def _modules(text: str, directory: Path, depth: int = 0) -> list[tuple[str, Path]]:
    """Files of the script's ``mod name;`` declarations (``#[path]`` and ``cfg_attr(.., path)`` too)."""
    t = tokenize(text)
    found: list[tuple[str, Path]] = []
    inline: list[tuple[str, int]] = []  # (name, index of the closing brace)
    for i, tok in enumerate(t):
        while inline and i > inline[-1][1]:
            inline.pop()
        if tok.text != "mod" or tok.kind != "ident" or i + 2 >= len(t) or t[i + 1].kind != "ident":
            continue
        name = t[i + 1].text
        if t[i + 2].text == "{":
            inline.append((name, matching(t, i + 2)))
            continue
        if t[i + 2].text != ";":
            continue
        here = directory.joinpath(*(n for n, _ in inline))
        attrs = _path_attributes(t, i)
        candidates = [here / a for a in attrs] or [here / f"{name}.rs", here / name / "mod.rs"]
        for path in candidates:
            if path.is_file():
                found.append((name, path))
                if depth < 4:
                    sub = path.parent if attrs or path.name == "mod.rs" else path.parent / name
                    try:
                        found += _modules(repofs.read_text(path, inside=None, errors="replace"), sub, depth + 1)
                    except OSError:
                        pass
    return found


def _path_attributes(t: list[Token], i: int) -> list[str]:
    """``#[path = "x.rs"]`` / ``#[cfg_attr(cond, path = "x.rs")]`` right before token *i*."""
    out: list[str] = []
    j = i - 1
    while j >= 0 and t[j].text == "]":
        start = j
        depth = 0
        while start >= 0:
            if t[start].text == "]":
                depth += 1
            elif t[start].text == "[":
                depth -= 1
                if depth == 0:
                    break
            start -= 1
        if start < 1 or t[start - 1].text != "#":
            break
        for k in range(start, j - 1):
            if t[k].text == "path" and t[k + 1].text == "=" and t[k + 2].kind == "str":
                out.append(t[k + 2].text)
        j = start - 2
    return out


def add_link_script(
    surface: Surface, root: Path, pkg: str, manifest_dir: Path, link_desc: str, origin: str,
    rerun_paths: Iterable[str], env_vars: Iterable[str], any_change: bool, source: ScriptSource | None = None,
    run: RecordedRun | None = None,
) -> None:
    """Add one build script that emits (or appears to emit) *link_desc*, and everything it reads.

    *run* is cargo's record of the script's run (built mode): what its source
    names but the run did not use is left out, and what the run cannot vouch
    for is marked possible.
    """
    source = source or read_script(manifest_dir)
    trigger = f"reruns the build script of package {pkg}, which {origin} {link_desc}"
    if source.path is not None:
        rel, outside = relative(root, source.path)
        surface.add_path(rel, f"build script of package {pkg} {origin} {link_desc}", outside, pkg)
    # String operations, not pathlib, and the surface's index synced once: a script
    # may print 100,000 of these lines.
    base, why, rel_of = os.fspath(manifest_dir), f"rerun-if-changed: {trigger}", relative_to(os.fspath(root))
    isdir = os.path.isdir
    fulls = (raw if raw.startswith("/") else f"{base}/{raw}" for raw in rerun_paths)  # os.path.join's result
    surface.add_paths((rel, why, outside, pkg) for rel, outside in (rel_of(full, isdir(full)) for full in fulls))
    for var in env_vars:
        surface.add_env(var, f"rerun-if-env-changed: {trigger}")
    if any_change:
        rel, outside = relative(root, manifest_dir, directory=True)
        surface.add_path(rel, f"any change {trigger} (it prints no rerun-if-* line, so cargo watches the whole package)", outside, pkg)
    if source.error is not None:
        surface.add_note(f"package {pkg} {origin} {link_desc}, but {source.error}: "
                         "what its build script compiles is not in the surface")
        return
    if relative(root, manifest_dir)[1]:
        surface.add_note(f"package {pkg} is outside the repository ({manifest_dir}): what its build script "
                         "compiles is pinned by Cargo.lock, which is in the surface")
        return
    _add_scanned(surface, root, pkg, manifest_dir, source, f"the build script of package {pkg} {origin} {link_desc}",
                 run)


def _add_scanned(surface: Surface, root: Path, pkg: str, manifest_dir: Path, source: ScriptSource, whose: str,
                 run: RecordedRun | None) -> None:
    assert source.path is not None
    script = source.path
    verdicts = Verdicts.judge(source.scan.inputs, run)

    def where(file: str, line: int) -> str:
        rel = relative(root, Path(file) if file else script)[0]
        return f"{rel}:{line}" if line else rel

    for name, module in source.modules:
        rel, outside = relative(root, module)
        surface.add_path(rel, f"mod {name}: part of {whose}", outside, pkg)
    unused: list[str] = []
    real_root = os.path.realpath(root)
    for k, entry in enumerate(source.scan.inputs):
        full = manifest_dir / entry.path
        rel, outside = relative(root, full, directory=entry.directory)
        at = where(entry.file, entry.line)
        if k in verdicts.unused:
            unused.append(rel)
            continue
        if k in verdicts.possible:
            surface.add_path(rel, f"possible: {entry.rule} at {at}, in a part of the script the recorded build "
                                  f"cannot vouch for; {whose}", outside, pkg, possible=True)
        else:
            surface.add_path(rel, f"{entry.rule} at {at}; {whose}", outside, pkg)
        if not (full.is_dir() if entry.directory else full.exists()):
            surface.add_note(f"{at}: {entry.rule} names {entry.path}, which does not exist ({rel})")
        elif not outside and not repofs.is_inside(os.path.realpath(full), real_root):
            # A link in the repository to a file outside it: the build reads that file, whose
            # changes no path filter sees (the link's own changes it does). Never read here.
            surface.add_note(f"{at}: {entry.rule} names {rel}, a link that resolves outside the repository: "
                             "a change to the file it points at triggers no path filter")
    if unused:
        more = f" and {len(unused) - 1} more" if len(unused) > 1 else ""
        surface.add_note(f"package {pkg}: its build script also names {unused[0]}{more}, which the recorded build "
                         "did not compile or build (another feature, target or branch of the script would): "
                         "left out; `linkgate surface --static` lists them")
    skipped_env: set[str] = set()
    for lib in source.scan.libraries:
        at = where(lib.file, lib.line)
        steer = ", ".join(f"${v}" for v in lib.env[:3]) + " and $PKG_CONFIG_PATH steer which copy is linked"
        if run is None:
            surface.add_note(
                f"{at}: package {pkg} may link the system library {lib.name} found by pkg-config ({lib.rule}), "
                f"when its build script takes that branch (read from source, not from a build): it is outside "
                f"the repository, so no path filter sees it change; {steer}")
        elif probed(lib, run):
            recorded = [d for d in run.links if d.startswith("rustc-link-lib=")]
            emits = ", ".join(recorded) if recorded else "no rustc-link-lib line"
            surface.add_note(
                f"{at}: package {pkg} probed the system library {lib.name} with pkg-config ({lib.rule}) in the "
                f"recorded build, which emits {emits}: it is outside the repository, so no path filter sees it "
                f"change; {steer}")
        else:
            # The claim must come from the record: a probe the run never made is a branch not taken.
            skipped_env.add(f'{lib.rule}("{lib.name}")')
            libs = [d for d in run.links if d.startswith("rustc-link-lib=")]
            surface.add_note(
                f"{at}: package {pkg} may link the system library {lib.name} found by pkg-config ({lib.rule}) "
                f"when its build script takes that branch; the recorded build did not probe it "
                f"(it emits {', '.join(libs) or 'no rustc-link-lib line'})")
    for var, rule in source.scan.env:
        if rule not in skipped_env:
            surface.add_env(var, f"{rule}; {whose}")
    for file, line, text in source.scan.notes:
        if file in verdicts.not_run:
            continue  # a module the recorded build did not run: its unknowns cannot matter here
        surface.add_note(f"{where(file, line)}: {text}; linkgate cannot tell which files that names: "
                         "add them to the gate's filter by hand")

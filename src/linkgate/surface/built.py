"""The causal surface of a gate's link line: files and variables that can change it.

Built mode reads cargo's own records in the gate's target directory: for each
package the gate builds whose build script emitted a link directive, the
script's source, its ``rerun-if-changed`` paths and ``rerun-if-env-changed``
variables, the whole package when it printed no ``rerun-if-*`` line (cargo's
default), and what the script compiles as read from its source
(``linkgate.surface.compiles``), which cargo may not watch at all. Both modes
add the files every build depends on (Cargo.lock, toolchain files, cargo
configuration, workspace manifests) and the gate's provisioning scripts. Paths are relative to the configuration's root;
a ``rerun-if-changed`` directory is scanned recursively by cargo, so it
becomes ``dir/**``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from linkgate.gate import layout
from linkgate.cargo import graph as cargo_graph
from linkgate.cargo.buildscript import read_build_script_output
from linkgate.cargo.fingerprint import RerunRecord, run_records
from linkgate.config import Config, Gate
from linkgate.surface.evidence import read_run
from linkgate.surface.model import SCHEMA, Surface, SurfaceEnv, SurfacePath, relative
from linkgate.surface.scripts import add_link_script

__all__ = ["SCHEMA", "Surface", "SurfaceEnv", "SurfacePath", "add_common", "built", "relative"]
_COMMON = ("Cargo.lock", "rust-toolchain", "rust-toolchain.toml", ".cargo/config", ".cargo/config.toml")


def add_common(surface: Surface, config: Config, gate: Gate, workspace_root: Path,
               manifests: Iterable[Path]) -> None:
    root = config.root
    for base in dict.fromkeys((workspace_root, layout.work_dir(config, gate), root)):
        for name in _COMMON:
            if (base / name).is_file():
                rel, outside = relative(root, base / name)
                surface.add_path(rel, "every build reads it", outside)
    for manifest in manifests:
        if manifest.is_file():
            rel, outside = relative(root, manifest)
            surface.add_path(rel, "workspace manifest", outside)
    for command in (*gate.provision, *gate.provision_env):
        # An entry is a command line ("bash scripts/setup.sh --env"): every
        # word naming a file of the repository is a script it runs.
        for word in command.split():
            if (root / word).is_file():
                rel, outside = relative(root, root / word)
                surface.add_path(rel, f"provisioning script of gate {gate.name}", outside)


def _describe(directives: list[Any]) -> str:
    # A library name says more than a search path into the target directory.
    directives = sorted(directives, key=lambda d: d.key != "rustc-link-lib")
    first = f"{directives[0].key}={directives[0].value}"
    return first if len(directives) == 1 else f"{first} (and {len(directives) - 1} more link directives)"


def built(config: Config, gate: Gate, graph: cargo_graph.Graph | None = None) -> Surface:
    """The surface from the target directories of the gate's last run."""
    surface = Surface(gate.name, "built", approximate=False)
    graph = graph or cargo_graph.load(layout.work_dir(config, gate), gate.cargo or ())
    by_name: dict[str, list[cargo_graph.Package]] = {}
    for pkg in graph.reachable_packages():
        by_name.setdefault(pkg.name, []).append(pkg)
    latest: dict[str, RerunRecord] = {}
    dirs = [layout.target_dir(config, gate, linker) for linker in gate.linkers]
    for tdir in dirs:
        for record in run_records(tdir):
            if record.package in by_name and (
                record.package not in latest or record.mtime > latest[record.package].mtime
            ):
                latest[record.package] = record
    if not latest:
        surface.notes.append(
            "no build-script records in " + ", ".join(str(d) for d in dirs) + ": run the gate first or pass --build"
        )
    for name, record in sorted(latest.items()):
        output = None if record.output_file is None else read_build_script_output(record.output_file.parent / "out")
        if output is None:
            surface.add_note(f"package {name}: cargo kept no output of its build script next to "
                             f"{record.fingerprint_dir}: run the gate again to see what it links")
            continue
        links = list(output.link_directives())
        if not links:
            continue
        for pkg in by_name[name]:
            # Whatever rerun-if-* lines it printed, the script and what it compiles stay in
            # the surface: a cc-style script names no source to cargo (FACTS.md).
            run = read_run(output.out_dir, record.env_vars, tuple(f"{d.key}={d.value}" for d in links))
            add_link_script(surface, config.root, name, pkg.manifest_dir, _describe(links), "emits",
                            record.changed_paths, record.env_vars, record.any_change, run=run)
    for tdir in dirs:
        _add_recorded_archives(surface, config.root, gate, tdir, latest)
    manifests = [graph.workspace_root / "Cargo.toml"]
    manifests += [graph.packages[m].manifest_dir / "Cargo.toml" for m in graph.members if m in graph.packages]
    add_common(surface, config, gate, graph.workspace_root, manifests)
    return surface


def _add_recorded_archives(surface: Surface, root: Path, gate: Gate, tdir: Path,
                           latest: dict[str, RerunRecord]) -> None:
    """The static archives the last run recorded from outside the target dir (gate/external.py):
    from outside the repository with the variable that chose their directory, and the
    repository's own prebuilt ones."""
    import os

    from linkgate.cargo.messages import package_name
    from linkgate.gate import external

    for package_id, files in sorted(external.load(tdir).items()):
        name = package_name(package_id)
        record = latest.get(name)
        for path in sorted(files):
            rel, outside = relative(root, Path(path))
            if not outside:
                surface.add_path(rel, f"static archive the build script of {name} links; rustc bundles it "
                                 "into the rlib, and linkgate compares it by content every run", False, name)
                continue
            var = next((v for v in (record.env_vars if record else ())
                        if (value := gate.env.get(v, os.environ.get(v))) and path.startswith(value.rstrip("/") + "/")),
                       None)
            chosen = f", from the directory ${var} names" if var else ""
            surface.add_path(path, f"outside input: static archive the build script of {name} links{chosen}; "
                             "rustc bundles it into the rlib and cargo does not watch it", True, name)

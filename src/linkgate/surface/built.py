"""The causal surface of a gate's link line: files and variables that can change it.

Built mode reads cargo's own records in the gate's target directory: for each
package the gate builds whose build script emitted a link directive, the
script's source, its ``rerun-if-changed`` paths and ``rerun-if-env-changed``
variables. Both modes add the files every build depends on (Cargo.lock,
toolchain files, cargo configuration, workspace manifests) and the gate's
provisioning scripts. Paths are relative to the configuration's root;
a ``rerun-if-changed`` directory is scanned recursively by cargo, so it
becomes ``dir/**``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.gate import layout
from linkgate.cargo import graph as cargo_graph
from linkgate.cargo.buildscript import build_script_source, read_build_script_output
from linkgate.cargo.fingerprint import RerunRecord, run_records
from linkgate.config import Config, Gate

SCHEMA = "linkgate.surface/1"
_COMMON = ("Cargo.lock", "rust-toolchain", "rust-toolchain.toml", ".cargo/config", ".cargo/config.toml")


@dataclass(frozen=True)
class SurfacePath:
    path: str  # relative to the configuration root, or absolute when outside it
    why: str
    outside: bool = False
    package: str | None = None


@dataclass(frozen=True)
class SurfaceEnv:
    var: str
    why: str


@dataclass
class Surface:
    gate: str
    mode: str  # "built" | "static"
    approximate: bool
    paths: list[SurfacePath] = field(default_factory=list)
    env: list[SurfaceEnv] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add_path(self, path: str, why: str, outside: bool = False, package: str | None = None) -> None:
        if all(p.path != path for p in self.paths):
            self.paths.append(SurfacePath(path, why, outside, package))

    def add_env(self, var: str, why: str) -> None:
        if all(e.var != var for e in self.env):
            self.env.append(SurfaceEnv(var, why))

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "gate": self.gate,
            "mode": self.mode,
            "approximate": self.approximate,
            "paths": [{"path": p.path, "why": p.why} for p in self.paths],
            "env": [{"var": e.var, "why": e.why} for e in self.env],
        }


def relative(root: Path, path: Path, directory: bool = False) -> tuple[str, bool]:
    """(*path* relative to *root*, outside?), with ``/**`` for directories."""
    full = Path(os.path.normpath(root / path))
    try:
        rel = full.relative_to(root).as_posix()
    except ValueError:
        return full.as_posix(), True
    if directory:
        rel = "**" if rel == "." else rel + "/**"
    return rel, False


def link_script(surface: Surface, root: Path, pkg: str, manifest_dir: Path, link_desc: str,
                rerun_paths: Iterable[str], env_vars: Iterable[str], any_change: bool, origin: str) -> None:
    """Add one link-relevant build script and what makes it rerun."""
    script = build_script_source(manifest_dir)
    if script is not None:
        rel, outside = relative(root, script)
        surface.add_path(rel, f"build script of package {pkg} {origin} {link_desc}", outside, pkg)
    trigger = f"reruns the build script of package {pkg}, which {origin} {link_desc}"
    for raw in rerun_paths:
        full = manifest_dir / raw
        rel, outside = relative(root, full, directory=full.is_dir())
        surface.add_path(rel, f"rerun-if-changed: {trigger}", outside, pkg)
    for var in env_vars:
        surface.add_env(var, f"rerun-if-env-changed: {trigger}")
    if any_change:
        rel, outside = relative(root, manifest_dir, directory=True)
        surface.add_path(rel, f"any change {trigger} (it declares no rerun-if-changed)", outside, pkg)


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
        if record.output_file is None:
            continue
        output = read_build_script_output(record.output_file.parent / "out")
        links = list(output.link_directives()) if output is not None else []
        if not links:
            continue
        for pkg in by_name[name]:
            link_script(surface, config.root, name, pkg.manifest_dir, _describe(links),
                        record.changed_paths, record.env_vars, record.any_change, "emits")
    manifests = [graph.workspace_root / "Cargo.toml"]
    manifests += [graph.packages[m].manifest_dir / "Cargo.toml" for m in graph.members if m in graph.packages]
    add_common(surface, config, gate, graph.workspace_root, manifests)
    return surface

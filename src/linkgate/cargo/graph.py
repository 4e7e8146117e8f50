"""Which packages a gate builds: ``cargo metadata``'s resolve graph, from its roots.

The roots follow the gate's cargo arguments as cargo would: ``-p``/``--package``
names, else ``--workspace``/``--all`` (every member), else the workspace's
default members. Feature flags are passed through so optional dependencies
resolve as in the build. ``--offline``: path dependencies need no network.

A registry dependency that is not cached makes the full resolve fail (a fresh
container, a pre-commit hook offline). The link's surface lives in the
workspace's own build scripts, which need no registry, so the graph then falls
back to ``cargo metadata --no-deps`` (the workspace members) and follows path
dependencies through the manifests (``cargo.manifests``), said in ``notes``.
Registry packages' build scripts are then not covered.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate import proc

_VALUE_FLAGS = {"--features", "-F", "--package", "-p", "--manifest-path"}


@dataclass(frozen=True)
class Package:
    id: str
    name: str
    manifest_dir: Path
    local: bool  # a path dependency or workspace member (no registry source)


@dataclass(frozen=True)
class Graph:
    packages: dict[str, Package]
    workspace_root: Path
    members: tuple[str, ...]
    reachable: frozenset[str]  # package ids the gate builds
    notes: tuple[str, ...] = ()
    unresolved: str = ""  # why the full resolve failed, when this graph is the --no-deps fallback
    no_deps: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # that metadata, for reuse

    def reachable_packages(self) -> list[Package]:
        return [self.packages[i] for i in sorted(self.reachable)]


def _flag_values(args: Sequence[str], names: set[str]) -> list[str]:
    values, it = [], iter(range(len(args)))
    for i in it:
        arg = args[i]
        for name in names:
            if arg == name and i + 1 < len(args):
                values.append(args[i + 1])
            elif arg.startswith(name + "=") and name.startswith("--"):
                values.append(arg.split("=", 1)[1])
            elif not name.startswith("--") and arg.startswith(name) and len(arg) > len(name):
                values.append(arg[len(name):])
    return values


def metadata_argv(cargo_args: Sequence[str]) -> list[str]:
    argv = ["cargo", "metadata", "--format-version", "1", "--offline"]
    for feature in _flag_values(cargo_args, {"--features", "-F"}):
        argv += ["--features", feature]
    for flag in ("--all-features", "--no-default-features"):
        if flag in cargo_args:
            argv.append(flag)
    manifest = _flag_values(cargo_args, {"--manifest-path"})
    if manifest:
        argv += ["--manifest-path", manifest[0]]
    return argv


def load(cwd: Path, cargo_args: Sequence[str] = ()) -> Graph:
    from linkgate.errors import CommandFailed

    try:
        meta: dict[str, Any] = json.loads(proc.run(metadata_argv(cargo_args), cwd=cwd).stdout)
    except CommandFailed as exc:
        # Only a resolution failure falls back; a broken manifest fails --no-deps too and is shown.
        no_deps = no_deps_metadata(cwd, cargo_args)
        graph = from_no_deps(no_deps, cargo_args, cwd)
        why = first_error(exc.stderr)
        note = (f"cargo metadata in {cwd} could not resolve dependencies offline ({why}); "
                "read the workspace members and their path dependencies only (--no-deps): "
                "registry packages' build scripts are not covered")
        return Graph(graph.packages, graph.workspace_root, graph.members, graph.reachable, (note,), why, no_deps)
    packages = {
        p["id"]: Package(p["id"], p["name"], Path(p["manifest_path"]).parent, p.get("source") is None)
        for p in meta["packages"]
    }
    members = tuple(meta.get("workspace_members") or ())
    names = _flag_values(cargo_args, {"--package", "-p"})
    if names:
        roots = [i for i, p in packages.items() if p.name in names or i in names]
    elif "--workspace" in cargo_args or "--all" in cargo_args:
        roots = list(members)
    else:
        own = _own_manifest_dir(cwd, cargo_args, Path(meta["workspace_root"]))
        mine = [i for i, p in packages.items() if own is not None and _same(p.manifest_dir, own)]
        roots = mine or list(meta.get("workspace_default_members") or members)
    deps: dict[str, list[str]] = {
        n["id"]: [d["pkg"] for d in n.get("deps") or []] for n in (meta.get("resolve") or {}).get("nodes") or []
    }
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        stack.extend(deps.get(pid, ()))
    return Graph(packages, Path(meta["workspace_root"]), members, frozenset(seen))


def no_deps_metadata(cwd: Path, cargo_args: Sequence[str]) -> dict[str, Any]:
    """``cargo metadata --no-deps``: the members, without a registry. Features are left
    out: naming one that only a dependency defines would fail here too."""
    argv = ["cargo", "metadata", "--format-version", "1", "--offline", "--no-deps"]
    manifest = _flag_values(cargo_args, {"--manifest-path"})
    argv += ["--manifest-path", manifest[0]] if manifest else []
    loaded: dict[str, Any] = json.loads(proc.run(argv, cwd=cwd).stdout)
    return loaded


def from_no_deps(meta: dict[str, Any], cargo_args: Sequence[str], cwd: Path | None = None) -> Graph:
    """Members from ``--no-deps``; the packages built reached through path dependencies."""
    from linkgate.cargo import manifests

    members = tuple(meta.get("workspace_members") or ())
    by_id = {p["id"]: Path(p["manifest_path"]) for p in meta.get("packages") or ()}
    names = {manifests.spec_name(n) for n in _flag_values(cargo_args, {"--package", "-p"})}
    if names:
        roots = [m for m in by_id.values() if manifest_name(m) in names]
    elif "--workspace" in cargo_args or "--all" in cargo_args:
        roots = [by_id[i] for i in members if i in by_id]
    else:
        own = _own_manifest_dir(cwd, cargo_args, Path(meta["workspace_root"]))
        mine = [m for m in by_id.values() if own is not None and _same(m.parent, own)]
        roots = mine or [by_id[i] for i in meta.get("workspace_default_members") or members if i in by_id]
    return walk(Path(meta["workspace_root"]), [by_id[i] for i in members if i in by_id], roots,
                Requested.of(cargo_args))


def _own_manifest_dir(cwd: Path | None, cargo_args: Sequence[str], workspace_root: Path) -> Path | None:
    """The directory of the manifest the command line names (`--manifest-path`) when it is not the
    workspace root's: cargo then selects that package alone, not the workspace's default members
    (cargo build's "Package Selection"). None when the root's manifest, or none, is named."""
    named = _flag_values(cargo_args, {"--manifest-path"})
    if not named:
        return None
    path = Path(named[0])
    if not path.is_absolute():
        if cwd is None:
            return None
        path = cwd / path
    own = Path(os.path.normpath(path)).parent
    return None if _same(own, workspace_root) else own


def _same(a: Path, b: Path) -> bool:
    return os.path.normpath(a) == os.path.normpath(b)


@dataclass(frozen=True)
class Requested:
    """The features a command line asks of its root packages."""

    features: frozenset[str]
    default: bool
    all: bool

    @classmethod
    def of(cls, cargo_args: Sequence[str]) -> Requested:
        words = [w for v in _flag_values(cargo_args, {"--features", "-F"}) for w in v.replace(",", " ").split()]
        return cls(frozenset(words), "--no-default-features" not in cargo_args, "--all-features" in cargo_args)


def walk(root: Path, members: Sequence[Path], roots: Sequence[Path], requested: Requested | None = None) -> Graph:
    """The graph of *roots* and the local packages their manifests reach by ``path``;
    *members* (manifest paths) are listed whether reached or not.

    An ``optional`` path dependency is followed only when a feature turns it on,
    as cargo's feature resolution does: ``dep:x``, ``x/feat`` (not ``x?/feat``), or
    x's implicit feature when no ``dep:x`` names it; features unify across the graph."""
    from linkgate.cargo import manifests

    req = requested or Requested(frozenset(), True, False)
    packages: dict[str, Package] = {}
    state: dict[Path, tuple[frozenset[str], bool, bool]] = {}
    stack: list[tuple[Path, frozenset[str], bool, bool]] = [(m, req.features, req.default, req.all) for m in roots]
    while stack:
        manifest, feats, default, every = stack.pop()
        if not manifest.is_file():
            continue
        old = state.get(manifest)
        if old is not None:
            merged = (old[0] | feats, old[1] or default, old[2] or every)
            if merged == old:
                continue
            feats, default, every = merged
        state[manifest] = (feats, default, every)
        try:
            info = manifests.read(manifest)
        except manifests.ManifestError:
            continue
        pid = str(manifest.parent)
        packages[pid] = Package(pid, info.name or manifest.parent.name, manifest.parent, True)
        active, dep_features = _activate(info, feats, default, every)
        for dep in info.deps:
            if dep.optional and dep.name not in active:
                continue
            stack.append((dep.dir / "Cargo.toml", frozenset(dep.features) | dep_features.get(dep.name, frozenset()),
                          dep.default_features, False))
    reachable = frozenset(packages)
    for m in members:
        packages.setdefault(str(m.parent), Package(str(m.parent), manifest_name(m) or m.parent.name, m.parent, True))
    return Graph(packages, root, tuple(str(m.parent) for m in members), reachable)


def _activate(info: Any, feats: frozenset[str], default: bool, every: bool) -> tuple[set[str], dict[str, frozenset[str]]]:
    """The optional dependencies *feats* turn on, and the features asked of each dependency."""
    table = dict(info.feature_table)
    optional = {d.name for d in info.deps if d.optional}
    named = {e[4:] for entries in table.values() for e in entries if e.startswith("dep:")}
    implicit = optional - named
    start = set(feats) | ({"default"} if default and "default" in table else set())
    if every:
        start |= set(table) | implicit
    active: set[str] = set()
    asked: dict[str, set[str]] = {}
    weak: dict[str, set[str]] = {}
    seen: set[str] = set()
    todo = list(start)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        if "/" in f:
            dep, sub = f.split("/", 1)
            if dep.endswith("?"):
                weak.setdefault(dep[:-1], set()).add(sub)
                continue
            asked.setdefault(dep, set()).add(sub)
            if dep in optional:
                active.add(dep)
            if dep in table and dep not in named:
                todo.append(dep)
        elif f.startswith("dep:"):
            active.add(f[4:])
        elif f in table:
            todo.extend(table[f])
        elif f in implicit:
            active.add(f)
    for dep, subs in weak.items():
        if dep in active or dep not in optional:
            asked.setdefault(dep, set()).update(subs)
    return active, {k: frozenset(v) for k, v in asked.items()}


def manifest_name(manifest: Path) -> str | None:
    from linkgate.cargo import manifests

    try:
        return manifests.read(manifest).name
    except manifests.ManifestError:
        return None


def first_error(stderr: str) -> str:
    """cargo's first ``error`` line, else its first line."""
    lines = [ln.strip() for ln in stderr.strip().splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error")]
    return (errors or lines or ["failed"])[0]

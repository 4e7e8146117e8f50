"""The packages a link job builds, with or without a registry.

``cargo metadata`` resolves the whole dependency graph, which needs every
registry dependency cached (``--offline``). Where it is not (a pre-commit
hook offline, a fresh container), the audit still has what it needs: the
causal surface of a link lives in the workspace's own build scripts, and
``cargo metadata --no-deps`` names the members without touching a
registry. Path dependencies are then followed through the manifests. With
no cargo at all, the manifests are read with tomllib (``audit.manifests``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate import proc
from linkgate.audit import manifests
from linkgate.cargo import graph as cargo_graph
from linkgate.errors import CommandFailed, LinkgateError, ToolNotFound


@dataclass
class Loader:
    """Loads graphs for one audit, remembering which workspaces need the fallback
    so each says so once and cargo is not asked twice for what it cannot do."""

    repo: Path
    notes: list[str] = field(default_factory=list)
    _degraded: dict[Path, str] = field(default_factory=dict)
    _no_deps: dict[Path, dict[str, Any] | None] = field(default_factory=dict)

    def load(self, cwd: str, cargo_args: Sequence[str]) -> cargo_graph.Graph | str:
        """The graph, or a one-line reason naming the directory why there is none."""
        directory = self.repo / cwd
        shown = cwd or ". (the repository root)"
        key = _workspace_key(self.repo, directory, cargo_args)
        mode = self._degraded.get(key)
        failure = ""
        if mode is None:
            try:
                return cargo_graph.load(directory, cargo_args)
            except ToolNotFound:
                mode = "manifests"
                self._say(f"cargo is not installed: read the workspace manifests in {shown} with tomllib")
            except CommandFailed as exc:
                failure = _first_error(exc)
                mode = "no-deps" if self._metadata_no_deps(directory, key, cargo_args) is not None else "manifests"
                if mode == "no-deps":
                    self._say(
                        f"cargo metadata in {shown} cannot resolve dependencies offline ({failure}): "
                        "audited workspace members and their path dependencies only (cargo metadata --no-deps)"
                    )
            self._degraded[key] = mode
        try:
            meta = self._metadata_no_deps(directory, key, cargo_args) if mode == "no-deps" else None
            if meta is not None:
                return _from_metadata(meta, cargo_args)
            return _from_manifests(self.repo, directory, cargo_args)
        except manifests.ManifestError as exc:
            why = str(exc).replace(f"{self.repo}/", "")
            return f"cannot read the workspace in {shown}: {why}" + (f" (cargo metadata: {failure})" if failure else "")

    def _say(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def _metadata_no_deps(self, directory: Path, key: Path, cargo_args: Sequence[str]) -> dict[str, Any] | None:
        if key not in self._no_deps:
            argv = [a for a in cargo_graph.metadata_argv(cargo_args) if a not in ("--all-features", "--no-default-features")]
            argv = _drop_features(argv) + ["--no-deps"]
            try:
                self._no_deps[key] = json.loads(proc.run(argv, cwd=directory).stdout)
            except (LinkgateError, ValueError):
                self._no_deps[key] = None
        return self._no_deps[key]


def _workspace_key(repo: Path, directory: Path, cargo_args: Sequence[str]) -> Path:
    manifest = _manifest_arg(cargo_args)
    start = Path(os.path.normpath(directory / manifest)) if manifest else manifests.nearest(repo, directory)
    if start is None:
        return directory
    try:
        return manifests.find_workspace_root(start, repo)
    except manifests.ManifestError:
        return start


def _from_metadata(meta: dict[str, Any], cargo_args: Sequence[str]) -> cargo_graph.Graph:
    """Members from ``--no-deps``; path dependencies followed through their manifests."""
    members = tuple(meta.get("workspace_members") or ())
    by_id = {p["id"]: Path(p["manifest_path"]) for p in meta.get("packages") or ()}
    names = _values(cargo_args, ("-p", "--package"))
    workspace = "--workspace" in cargo_args or "--all" in cargo_args
    if names:
        roots = [m for i, m in by_id.items() if _name_of(m) in {manifests.spec_name(n) for n in names}]
    elif workspace:
        roots = [by_id[i] for i in members if i in by_id]
    else:
        roots = [by_id[i] for i in meta.get("workspace_default_members") or members if i in by_id]
    return _walk(Path(meta["workspace_root"]), [by_id[i] for i in members if i in by_id], roots)


def _from_manifests(repo: Path, directory: Path, cargo_args: Sequence[str]) -> cargo_graph.Graph:
    manifest = _manifest_arg(cargo_args)
    start = Path(os.path.normpath(directory / manifest)) if manifest else manifests.nearest(repo, directory)
    if start is None or not start.is_file():
        raise manifests.ManifestError(f"no Cargo.toml in {directory} or above it")
    root = manifests.read(manifests.find_workspace_root(start, repo))
    members = [d / "Cargo.toml" for d in manifests.member_dirs(root)]
    names = _values(cargo_args, ("-p", "--package"))
    if names:
        roots = [m for m in members if _name_of(m) in {manifests.spec_name(n) for n in names}]
    elif "--workspace" in cargo_args or "--all" in cargo_args:
        roots = members
    elif manifests.read(start).name is not None:
        # In a member's directory (or at a root package) cargo builds that package.
        roots = [start]
    elif root.default_members is not None:
        roots = [d / "Cargo.toml" for d in manifests.member_dirs(root, root.default_members) if d != root.dir]
    else:
        roots = members
    return _walk(root.dir, members, roots)


def _walk(root: Path, members: list[Path], roots: list[Path]) -> cargo_graph.Graph:
    packages: dict[str, cargo_graph.Package] = {}
    seen: set[Path] = set()
    stack = list(roots)
    while stack:
        manifest = stack.pop()
        if manifest in seen or not manifest.is_file():
            continue
        seen.add(manifest)
        try:
            info = manifests.read(manifest)
        except manifests.ManifestError:
            continue
        pid = str(manifest.parent)
        packages[pid] = cargo_graph.Package(pid, info.name or manifest.parent.name, manifest.parent, True)
        stack.extend(d / "Cargo.toml" for d in info.path_deps)
    reachable = frozenset(packages)
    for m in members:
        packages.setdefault(str(m.parent), cargo_graph.Package(str(m.parent), _name_of(m) or m.parent.name, m.parent, True))
    return cargo_graph.Graph(packages, root, tuple(str(m.parent) for m in members), reachable)


def _name_of(manifest: Path) -> str | None:
    try:
        return manifests.read(manifest).name
    except manifests.ManifestError:
        return None


def _manifest_arg(cargo_args: Sequence[str]) -> str | None:
    found = _values(cargo_args, ("--manifest-path",))
    return found[0] if found else None


def _values(args: Sequence[str], names: tuple[str, ...]) -> list[str]:
    out = []
    for i, arg in enumerate(args):
        if arg in names and i + 1 < len(args):
            out.append(args[i + 1])
        elif "=" in arg and arg.split("=", 1)[0] in names:
            out.append(arg.split("=", 1)[1])
    return out


def _drop_features(argv: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--features":
            skip = True
        else:
            out.append(arg)
    return out


def _first_error(exc: LinkgateError) -> str:
    text = exc.stderr if isinstance(exc, CommandFailed) and exc.stderr.strip() else exc.message
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error")]
    return (errors or lines or ["failed"])[0]

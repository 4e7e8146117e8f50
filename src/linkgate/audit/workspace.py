"""The packages a link job builds, with or without a registry.

``cargo metadata`` resolves the whole dependency graph, which needs every
registry dependency cached (``--offline``). Where it is not (a pre-commit
hook offline, a fresh container), the audit still has what it needs: the
causal surface of a link lives in the workspace's own build scripts, and
``cargo metadata --no-deps`` names the members without touching a
registry. Path dependencies are then followed through the manifests. With
no cargo at all, the manifests are read with tomllib (``cargo.manifests``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.cargo import manifests
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
                graph = cargo_graph.load(directory, cargo_args)
            except ToolNotFound:
                mode = "manifests"
                self._say(f"cargo is not installed: read the workspace manifests in {shown} with tomllib")
            except CommandFailed as exc:  # not even --no-deps: a manifest cargo cannot read
                failure = cargo_graph.first_error(exc.stderr) if exc.stderr.strip() else exc.message
                mode = "manifests"
            else:
                if not graph.unresolved:
                    return graph
                # cargo.graph fell back to --no-deps; say it once per workspace, directory relative.
                self._say(
                    f"cargo metadata in {shown} cannot resolve dependencies offline ({graph.unresolved}): "
                    "audited workspace members and their path dependencies only (cargo metadata --no-deps)"
                )
                self._degraded[key] = "no-deps"
                self._no_deps.setdefault(key, graph.no_deps)
                return graph
            self._degraded[key] = mode
        try:
            meta = self._metadata_no_deps(directory, key, cargo_args) if mode == "no-deps" else None
            if meta is not None:
                return cargo_graph.from_no_deps(meta, cargo_args, directory)
            return _from_manifests(self.repo, directory, cargo_args)
        except manifests.ManifestError as exc:
            why = str(exc).replace(f"{self.repo}/", "")
            return f"cannot read the workspace in {shown}: {why}" + (f" (cargo metadata: {failure})" if failure else "")

    def _say(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def _metadata_no_deps(self, directory: Path, key: Path, cargo_args: Sequence[str]) -> dict[str, Any] | None:
        if key not in self._no_deps:
            try:
                self._no_deps[key] = cargo_graph.no_deps_metadata(directory, cargo_args)
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



def _from_manifests(repo: Path, directory: Path, cargo_args: Sequence[str]) -> cargo_graph.Graph:
    manifest = _manifest_arg(cargo_args)
    start = Path(os.path.normpath(directory / manifest)) if manifest else manifests.nearest(repo, directory)
    if start is None or not start.is_file():
        raise manifests.ManifestError(f"no Cargo.toml in {directory} or above it")
    root = manifests.read(manifests.find_workspace_root(start, repo))
    members = [d / "Cargo.toml" for d in manifests.member_dirs(root)]
    names = _values(cargo_args, ("-p", "--package"))
    if names:
        roots = [m for m in members if cargo_graph.manifest_name(m) in {manifests.spec_name(n) for n in names}]
    elif "--workspace" in cargo_args or "--all" in cargo_args:
        roots = members
    elif manifests.read(start).name is not None:
        # In a member's directory (or at a root package) cargo builds that package.
        roots = [start]
    elif root.default_members is not None:
        roots = [d / "Cargo.toml" for d in manifests.member_dirs(root, root.default_members) if d != root.dir]
    else:
        roots = members
    return cargo_graph.walk(root.dir, members, roots, cargo_graph.Requested.of(cargo_args))




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



"""Which packages a gate builds: ``cargo metadata``'s resolve graph, from its roots.

The roots follow the gate's cargo arguments as cargo would: ``-p``/``--package``
names, else ``--workspace``/``--all`` (every member), else the workspace's
default members. Feature flags are passed through so optional dependencies
resolve as in the build. ``--offline``: path dependencies need no network.

A registry dependency that is not cached makes the full resolve fail (a fresh
container, a pre-commit hook offline). The link's surface lives in the
workspace's own build scripts, which need no registry, so the graph then falls
back to ``--no-deps``: every workspace member, said once in ``notes``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
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

    notes: tuple[str, ...] = ()
    argv = metadata_argv(cargo_args)
    try:
        meta: dict[str, Any] = json.loads(proc.run(argv, cwd=cwd).stdout)
    except CommandFailed as exc:
        # Only a resolution failure falls back; a broken manifest fails --no-deps too and is shown.
        manifest = _flag_values(cargo_args, {"--manifest-path"})
        fallback = ["cargo", "metadata", "--format-version", "1", "--offline", "--no-deps"]
        fallback += ["--manifest-path", manifest[0]] if manifest else []
        meta = json.loads(proc.run(fallback, cwd=cwd).stdout)
        why = (exc.stderr.strip().splitlines() or ["unknown error"])[0]
        notes = (f"cargo metadata in {cwd} could not resolve dependencies offline ({why}); "
                 "read the workspace members only (--no-deps): registry packages' build scripts are not covered",)
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
        roots = list(meta.get("workspace_default_members") or members)
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
    if notes:  # no resolve graph: every member may be built
        seen |= set(members)
    return Graph(packages, Path(meta["workspace_root"]), members, frozenset(seen), notes)

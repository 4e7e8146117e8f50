"""The surface value: paths and variables that can change a gate's link line, each with why.

Paths are relative to the configuration's root; one outside it is kept
absolute and marked, because no path filter can see it change. A directory
whose whole tree counts is written ``dir/**``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = "linkgate.surface/1"


@dataclass(frozen=True)
class SurfacePath:
    path: str  # relative to the configuration root, or absolute when outside it
    why: str
    outside: bool = False
    package: str | None = None
    # The script's source names it, but the recorded build cannot tell whether the part
    # of the script that names it runs: a filter that misses it is a warning, not an error.
    possible: bool = False
    # The configuration file that defines the gate: should-run answers true for a change to
    # the gate's definition whatever the filter says, so no filter needs to name it.
    config: bool = False


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
    # Paths cargo watches that linkgate cannot name (`rerun-if-changed={}`), each as
    # "file:line: directive": no filter can be shown to cover them.
    unknown: list[str] = field(default_factory=list)

    # What the lists hold, so adding is O(1): a script with 100,000 rerun-if-changed
    # lines made a linear search per add quadratic. ``_synced`` counts the items of
    # (paths, env, notes) already indexed; items appended directly are indexed on the next add.
    _where: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _vars: set[str] = field(default_factory=set, repr=False, compare=False)
    _said: set[str] = field(default_factory=set, repr=False, compare=False)
    _synced: list[int] = field(default_factory=lambda: [0, 0, 0], repr=False, compare=False)

    def _sync(self) -> None:
        for k in range(self._synced[0], len(self.paths)):
            self._where.setdefault(self.paths[k].path, k)
        self._vars.update(e.var for e in self.env[self._synced[1]:])
        self._said.update(self.notes[self._synced[2]:])
        self._synced[:] = [len(self.paths), len(self.env), len(self.notes)]

    def add_path(self, path: str, why: str, outside: bool = False, package: str | None = None,
                 possible: bool = False, config: bool = False) -> None:
        self._sync()
        k = self._where.get(path)
        if k is not None:
            if self.paths[k].possible and not possible:  # another rule vouches for it
                self.paths[k] = SurfacePath(path, why, outside, package)
            return
        self._where[path] = len(self.paths)
        self.paths.append(SurfacePath(path, why, outside, package, possible, config))
        self._synced[0] += 1

    def add_paths(self, entries: Iterable[tuple[str, str, bool, str | None]]) -> None:
        """``add_path(path, why, outside, package)`` for each entry, the index synced once."""
        self._sync()
        where, paths = self._where, self.paths
        for path, why, outside, package in entries:
            k = where.get(path)
            if k is not None:
                if paths[k].possible:  # another rule vouches for it
                    paths[k] = SurfacePath(path, why, outside, package)
                continue
            where[path] = len(paths)
            paths.append(SurfacePath(path, why, outside, package))
        self._synced[0] = len(paths)

    def add_env(self, var: str, why: str) -> None:
        self._sync()
        if var not in self._vars:
            self._vars.add(var)
            self.env.append(SurfaceEnv(var, why))
            self._synced[1] += 1

    def add_note(self, note: str) -> None:
        self._sync()
        if note not in self._said:
            self._said.add(note)
            self.notes.append(note)
            self._synced[2] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "gate": self.gate,
            "mode": self.mode,
            "approximate": self.approximate,
            "paths": [{"path": p.path, "why": p.why, **({"possible": True} if p.possible else {})}
                      for p in self.paths],
            "env": [{"var": e.var, "why": e.why} for e in self.env],
        }


def relative(root: Path | str, path: Path | str, directory: bool = False) -> tuple[str, bool]:
    """(*path* relative to *root*, outside?), with ``/**`` for directories."""
    return relative_to(os.fspath(root))(os.fspath(path), directory)


@functools.lru_cache(maxsize=8)
def relative_to(root: str) -> Callable[[str, bool], tuple[str, bool]]:
    """``relative`` with *root* fixed: string operations only, and the root
    normalised once (a script naming 100,000 paths calls it for each)."""
    top = os.path.normpath(root)
    prefix = top.rstrip("/") + "/"
    cut = len(prefix)
    normpath = os.path.normpath

    def rel_of(path: str, directory: bool = False) -> tuple[str, bool]:
        # os.path.join(top, path), without its generality's cost
        full = normpath(path if path.startswith("/") else f"{top}/{path}")
        if full == top:
            rel = "."
        elif full.startswith(prefix):
            rel = full[cut:]
        else:
            return full, True
        if directory:
            rel = "**" if rel == "." else rel + "/**"
        return rel, False

    return rel_of

"""The surface value: paths and variables that can change a gate's link line, each with why.

Paths are relative to the configuration's root; one outside it is kept
absolute and marked, because no path filter can see it change. A directory
whose whole tree counts is written ``dir/**``.
"""

from __future__ import annotations

import os
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

    def add_path(self, path: str, why: str, outside: bool = False, package: str | None = None,
                 possible: bool = False, config: bool = False) -> None:
        for k, p in enumerate(self.paths):
            if p.path == path:
                if p.possible and not possible:  # another rule vouches for it
                    self.paths[k] = SurfacePath(path, why, outside, package)
                return
        self.paths.append(SurfacePath(path, why, outside, package, possible, config))

    def add_env(self, var: str, why: str) -> None:
        if all(e.var != var for e in self.env):
            self.env.append(SurfaceEnv(var, why))

    def add_note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

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

"""The proof of a link: each linked file exists, is new, and its ELF marks are
exactly those of the linker the leg selected (objects/marks.py: both ways, so GNU
ld's proof is the absence of every other linker's mark, never an assumption).

Every mode reaches a ``proven`` verdict through here: a cargo build under one
linker (gate/run.py) and a relink of recorded links (replay/matrix.py), so the
two modes prove the same way. A proof entry names the file and the marks read
from it (``proof`` in the JSON document).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from linkgate.objects import marks as elfmarks


@dataclass(frozen=True)
class FileProof:
    """What one linked file shows; *problem* says why it does not prove the link (None: it does)."""

    path: str
    new: bool
    names_linker: bool
    marks: elfmarks.LinkerMarks | None
    problem: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "new": self.new, "names_linker": self.names_linker,
            "mark": None if self.marks is None else self.marks.describe(),
            "marks": [] if self.marks is None else [m.to_dict() for m in self.marks.marks],
            "needed": [] if self.marks is None else list(self.marks.needed),
        }


def check(path: str, linker: str, since: float | None) -> FileProof:
    """Whether *path* exists, is new (when *since*), and carries *linker*'s marks and no other's."""
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return FileProof(path, False, False, None, "does not exist after its link")
    found = elfmarks.read(path)
    new = since is None or mtime >= since - 1.0  # file systems keep coarse mtimes
    named = found is not None and elfmarks.names_linker(found, linker, os.environ.get("PATH"))
    problem = None
    if not new:
        problem = "is older than this run"
    elif found is None:
        problem = "is not an ELF file readelf can read, so no linker mark proves who linked it"
    elif not named:
        problem = f"carries the ELF marks of {found.describe()}, not {linker}'s alone"
    return FileProof(path, new, named, found, problem)

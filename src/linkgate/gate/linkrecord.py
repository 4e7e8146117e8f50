"""What the recording linker wrapper writes for every link it runs.

The wrapper (``linkgate-link``, set as ``-Clinker`` in linkgate's own target
dirs) writes one JSON file per linker invocation into
``<target-dir>/linkgate-links/``. This module is the one reader; ``cost``,
``history`` and ``replay`` go through it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LINKS_DIR = "linkgate-links"


@dataclass(frozen=True)
class LinkRecord:
    argv: tuple[str, ...]          # the real linker's argv, argv[0] the driver (cc, ...)
    cwd: str
    env: dict[str, str]            # the variables that can change a link (PATH, LIBRARY_PATH, ...)
    started: float                 # time.time() at exec
    ended: float
    exit_status: int
    output: str | None             # the -o path, absolute, when present
    path: Path                     # the record file itself

    @property
    def seconds(self) -> float:
        return max(0.0, self.ended - self.started)


def from_json(doc: dict[str, Any], path: Path) -> LinkRecord:
    return LinkRecord(
        argv=tuple(doc["argv"]), cwd=doc["cwd"], env=dict(doc.get("env", {})),
        started=float(doc["started"]), ended=float(doc["ended"]),
        exit_status=int(doc["exit_status"]), output=doc.get("output"), path=path,
    )


def read_records(target_dir: Path, since: float | None = None) -> list[LinkRecord]:
    """Every readable record under ``target_dir``, oldest first; ``since`` keeps
    only links started at or after that time (one run's links)."""
    folder = target_dir / LINKS_DIR
    if not folder.is_dir():
        return []
    records = []
    for path in folder.glob("*.json"):
        try:
            rec = from_json(json.loads(path.read_text()), path)
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a record being written, or from an older wrapper: not evidence
        if since is None or rec.started >= since:
            records.append(rec)
    return sorted(records, key=lambda r: r.started)

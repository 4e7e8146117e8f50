"""What the recording linker wrapper writes for every link it runs.

The wrapper (``linkgate-link``, set as ``-Clinker`` in linkgate's own target
dirs) writes one JSON file per linker invocation into
``<target-dir>/linkgate-links/``. This module is the one reader; ``cost``,
``history`` and ``replay`` go through it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LINKS_DIR = "linkgate-links"


@dataclass(frozen=True)
class LinkRecord:
    """One link as the recording wrapper saw it: the linker's command line, its inputs and its result."""

    argv: tuple[str, ...]          # the real linker's argv, argv[0] the driver (cc, ...)
    cwd: str
    env: dict[str, str]            # the variables that can change a link (PATH, LIBRARY_PATH, ...)
    started: float                 # time.time() at exec
    ended: float
    exit_status: int
    output: str | None             # the -o path, absolute, when present
    path: Path                     # the record file itself
    # Added by the wrapper and by linkgate after the run (all optional, so
    # older records still read):
    id: str = ""                   # "<started µs>-<pid>", the record file's stem
    linker_program: str = ""       # what the wrapper exec'd ($LINKGATE_REAL_LINKER or cc)
    args_expanded: tuple[str, ...] | None = None  # argv[1:] with @response-files read, when any
    preserved: dict[str, str] = field(default_factory=dict)  # transient input -> kept copy
    inputs: tuple[dict[str, Any], ...] = ()  # {path, size, mtime_ns} of persistent inputs, at record time
    gate: str | None = None        # the gate and linkgate linker name of the run that made it
    linker: str | None = None
    added_args: tuple[str, ...] = ()  # what the wrapper appended to rustc's argv (lld's --warn-backrefs)
    stderr: str | None = None      # the linker's stderr (rustc drops it when the link succeeds)

    @property
    def args(self) -> tuple[str, ...]:
        """The linker's arguments as it read them (response files expanded)."""
        return self.args_expanded if self.args_expanded is not None else self.argv[1:]

    @property
    def seconds(self) -> float:
        return max(0.0, self.ended - self.started)


def _strings(value: Any, key: str) -> tuple[str, ...]:
    if not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
        raise TypeError(f"{key}: not a list of strings")
    return tuple(value)


def _text(value: Any, key: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{key}: not a string")
    return value


def _check(doc: Any) -> None:
    """TypeError when a field is of another type than the wrapper writes (a record
    from another version, or edited): such a record is not evidence."""
    if not isinstance(doc, dict):
        raise TypeError("not an object")
    if not _strings(doc["argv"], "argv") or not isinstance(doc["cwd"], str):
        raise TypeError("argv or cwd")
    _text(doc.get("output"), "output")
    for key in ("gate", "linker", "stderr"):
        _text(doc.get(key), key)
    for key in ("args_expanded", "added_args"):
        if doc.get(key) is not None:
            _strings(doc[key], key)
    for key in ("env", "preserved"):
        value = doc.get(key, {})
        if not (isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())):
            raise TypeError(f"{key}: not a map of strings")
    inputs = doc.get("inputs", [])
    if not (isinstance(inputs, list) and all(isinstance(i, dict) and isinstance(i.get("path"), str) for i in inputs)):
        raise TypeError("inputs: not a list of {path, ...} objects")


def from_json(doc: dict[str, Any], path: Path) -> LinkRecord:
    _check(doc)
    return LinkRecord(
        argv=tuple(doc["argv"]), cwd=doc["cwd"], env=dict(doc.get("env", {})),
        started=float(doc["started"]), ended=float(doc["ended"]),
        exit_status=int(doc["exit_status"]), output=doc.get("output"), path=path,
        id=str(doc.get("id", path.stem)), linker_program=str(doc.get("linker_program", "")),
        args_expanded=tuple(doc["args_expanded"]) if doc.get("args_expanded") is not None else None,
        preserved=dict(doc.get("preserved", {})), inputs=tuple(doc.get("inputs", ())),
        gate=doc.get("gate"), linker=doc.get("linker"),
        added_args=tuple(doc.get("added_args") or ()), stderr=doc.get("stderr"),
    )


def read_records(target_dir: Path, since: float | None = None) -> list[LinkRecord]:
    """Every readable record under ``target_dir``, oldest first; ``since`` keeps
    only links started at or after that time (one run's links)."""
    folder = target_dir / LINKS_DIR
    if not folder.is_dir():
        return []
    records = []
    # A record's name starts with its start time in microseconds (the wrapper's
    # id): older records are skipped by name, unread (a folder keeps up to a
    # thousand, and a warm no-op run must not parse them all).
    floor = None if since is None else int(since * 1_000_000) - 1_000_000
    for path in folder.glob("*.json"):
        if floor is not None and _started_us(path.name) < floor:
            continue
        try:
            rec = from_json(json.loads(path.read_text()), path)
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a record being written, or from an older wrapper: not evidence
        if since is None or rec.started >= since:
            records.append(rec)
    return sorted(records, key=lambda r: r.started)


def _started_us(name: str) -> int:
    head = name.split("-", 1)[0]
    return int(head) if head.isdigit() else 1 << 62  # not named by time: read it


def read_ids(target_dir: Path, ids: list[str]) -> list[LinkRecord]:
    """The named records (``LinkRecord.id``), oldest first; unreadable ones are skipped."""
    folder = target_dir / LINKS_DIR
    records = []
    for rid in ids:
        path = folder / f"{rid}.json"
        try:
            records.append(from_json(json.loads(path.read_text()), path))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(records, key=lambda r: r.started)

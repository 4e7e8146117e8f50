"""What the page shows, computed from run records: pure, so tests build records by hand."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from linkgate.coverage.status import runner_of
from linkgate.history.model import RunRecord


@dataclass(frozen=True)
class Point:
    when: datetime
    wall_s: float
    cold: bool | None
    record: RunRecord


@dataclass(frozen=True)
class Series:
    gate: str
    linker: str
    points: tuple[Point, ...]   # oldest first
    total: int = 0              # runs of this pair in the history; more than len(points) when capped


@dataclass(frozen=True)
class PhaseBar:
    gate: str
    linker: str
    cold: bool | None
    runs: int
    wall_s: float
    compile_s: float | None   # medians over the runs that measured them
    link_s: float | None


def parse_time(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _runs(records: Iterable[RunRecord]) -> list[RunRecord]:
    return [r for r in records if r.kind == "run"]


# One SVG mark per run: a long history would make a page of megabytes that shows
# nothing more, so each (gate, linker) keeps its latest runs.
MAX_POINTS = 400


def cost_series(records: Sequence[RunRecord], limit: int = MAX_POINTS) -> list[Series]:
    by: dict[tuple[str, str], list[Point]] = {}
    for r in _runs(records):
        when = parse_time(r.started_at)
        if when is not None:
            by.setdefault((r.gate, r.linker), []).append(Point(when, r.wall_s, r.cold, r))
    out = []
    for (gate, linker), pts in sorted(by.items()):
        pts.sort(key=lambda p: p.when)
        out.append(Series(gate, linker, tuple(pts[-limit:]), len(pts)))
    return out


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def phase_bars(records: Sequence[RunRecord]) -> list[PhaseBar]:
    """Median compile and link time per (gate, linker), cold and warm apart."""
    by: dict[tuple[str, str, bool | None], list[RunRecord]] = {}
    for r in _runs(records):
        by.setdefault((r.gate, r.linker, r.cold), []).append(r)
    out = []
    for (gate, linker, cold), rs in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1], str(kv[0][2]))):
        out.append(PhaseBar(
            gate, linker, cold, len(rs), statistics.median(r.wall_s for r in rs),
            _median([r.compile_s for r in rs if r.compile_s is not None]),
            _median([r.link_s for r in rs if r.link_s is not None]),
        ))
    return out


def _latest(records: Iterable[RunRecord], key: Callable[[RunRecord], Hashable]) -> list[RunRecord]:
    best: dict[Hashable, RunRecord] = {}
    for r in records:
        k = key(r)
        if k not in best or r.started_at > best[k].started_at:
            best[k] = r
    return sorted(best.values(), key=lambda r: (r.gate, r.control or "", r.linker, runner_of(r) or ""))


def latest_verdicts(records: Sequence[RunRecord]) -> list[RunRecord]:
    return _latest(_runs(records), lambda r: (r.gate, r.linker, runner_of(r)))


def latest_controls(records: Sequence[RunRecord]) -> list[RunRecord]:
    """Each negative control's latest outcome per linker and runner (``prove`` rows)."""
    proves = [r for r in records if r.kind == "prove"]
    return _latest(proves, lambda r: (r.gate, r.control, r.linker, runner_of(r)))

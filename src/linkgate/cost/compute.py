"""What a gate costs, from its recorded runs, and the job timeout that follows.

Only ``run`` rows that reached a link verdict (``linked`` or ``link-failed``)
count: a compile failure or an error stops early and says nothing about what
a link costs, and ``prove`` rows are mutated and invalidated builds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import median
from typing import Any, Protocol

from linkgate.report.model import count

COUNTED_VERDICTS = frozenset({"linked", "link-failed"})
# The timeout covers the slowest cold run seen, plus half again for a slower
# runner or a bigger change, plus a fixed allowance for what linkgate does not
# time (checkout, toolchain and cache restore).
HEADROOM_FACTOR = 1.5
HEADROOM_FIXED_MINUTES = 5
# No cold run known: a warm time says nothing about a fresh runner's cost.
DEFAULT_TIMEOUT_MINUTES = 60


class CostInput(Protocol):
    """What cost reads from a row: RunRecord and the store's CostSample both fit."""

    @property
    def gate(self) -> str: ...
    @property
    def linker(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def wall_s(self) -> float: ...
    @property
    def cold(self) -> int | None: ...   # truth value: the store hands SQLite's 0/1 through
    @property
    def link_s(self) -> float | None: ...
    @property
    def compile_s(self) -> float | None: ...
    @property
    def runner(self) -> str | None: ...
    @property
    def host(self) -> str | None: ...


@dataclass(frozen=True)
class Stats:
    count: int
    median_s: float
    max_s: float

    @classmethod
    def of(cls, values: list[float]) -> Stats | None:
        if not values:
            return None
        return cls(len(values), median(values), max(values))

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "median_s": round(self.median_s, 3), "max_s": round(self.max_s, 3)}


@dataclass(frozen=True)
class CostEntry:
    gate: str
    linker: str
    runs: int
    cold: Stats | None
    warm: Stats | None
    wall_s_median: float
    max_s: float                      # slowest counted run, cold or warm
    link_s_median: float | None
    compile_s_median: float | None
    recommended_timeout_minutes: int
    reason: str
    runners: tuple[str, ...]          # $RUNNER_NAME of each runner, else the host name

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate, "linker": self.linker, "runs": self.runs,
            "cold": self.cold.to_dict() if self.cold else None,
            "warm": self.warm.to_dict() if self.warm else None,
            "link_s_median": _round(self.link_s_median), "compile_s_median": _round(self.compile_s_median),
            "recommended_timeout_minutes": self.recommended_timeout_minutes, "reason": self.reason,
            "runners": list(self.runners),
        }


def compute(records: Iterable[CostInput]) -> list[CostEntry]:
    """One entry per (gate, linker), sorted by gate then linker."""
    groups: dict[tuple[str, str], _Group] = {}
    counted = COUNTED_VERDICTS
    # One pass, no per-row objects: `cost` reads 100,000 rows in well under a second.
    for r in records:
        if r.kind != "run" or r.verdict not in counted:
            continue
        key = (r.gate, r.linker)
        g = groups.get(key)
        if g is None:
            g = groups[key] = _Group()
        wall, cold = r.wall_s, r.cold
        g.walls.append(wall)
        if cold is not None:
            (g.cold if cold else g.warm).append(wall)
        if r.link_s is not None:
            g.links.append(r.link_s)
        if r.compile_s is not None:
            g.compiles.append(r.compile_s)
        g.runners.add(r.runner or r.host or "unknown")
    return [_entry(gate, linker, g) for (gate, linker), g in sorted(groups.items())]


class _Group:
    __slots__ = ("walls", "cold", "warm", "links", "compiles", "runners")

    def __init__(self) -> None:
        self.walls: list[float] = []
        self.cold: list[float] = []
        self.warm: list[float] = []
        self.links: list[float] = []
        self.compiles: list[float] = []
        self.runners: set[str] = set()


def _entry(gate: str, linker: str, g: _Group) -> CostEntry:
    cold = Stats.of(g.cold)
    minutes, reason = recommended_timeout(cold, max(g.walls))
    return CostEntry(
        gate=gate, linker=linker, runs=len(g.walls), cold=cold, warm=Stats.of(g.warm),
        wall_s_median=median(g.walls), max_s=max(g.walls),
        link_s_median=median(g.links) if g.links else None,
        compile_s_median=median(g.compiles) if g.compiles else None,
        recommended_timeout_minutes=minutes, reason=reason, runners=tuple(sorted(g.runners)),
    )


def recommended_timeout(cold: Stats | None, observed_max_s: float) -> tuple[int, str]:
    """Minutes for a CI job's timeout, never below the slowest run observed."""
    def padded(seconds: float) -> int:
        return math.ceil((seconds * HEADROOM_FACTOR) / 60) + HEADROOM_FIXED_MINUTES

    headroom = f"+{round((HEADROOM_FACTOR - 1) * 100)} % + {HEADROOM_FIXED_MINUTES} min for checkout and setup"
    if cold is not None:
        base, what = cold.max_s, f"slowest cold run {clock(cold.max_s)} ({count(cold.count, 'cold run')})"
        if observed_max_s > cold.max_s:
            base, what = observed_max_s, f"slowest run {clock(observed_max_s)} (slower than any cold run)"
        return padded(base), f"{what} {headroom}"
    minutes = max(DEFAULT_TIMEOUT_MINUTES, padded(observed_max_s))
    reason = (f"no cold run recorded (one that starts from an empty target dir); default "
              f"{DEFAULT_TIMEOUT_MINUTES} min")
    if minutes > DEFAULT_TIMEOUT_MINUTES:
        reason += f", raised to cover the slowest run {clock(observed_max_s)} {headroom}"
    return minutes, reason


def clock(seconds: float) -> str:
    # The JSON document keeps milliseconds: round as it does first, so text and table agree.
    seconds = round(seconds, 3)
    if seconds < 60:
        return f"{seconds:.1f} s"
    m, s = divmod(round(seconds), 60)
    return f"{m}m{s:02d}s"



def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 3)

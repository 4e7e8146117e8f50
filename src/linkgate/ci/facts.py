"""What linkgate knows about a gate that its CI job's comment must state.

Gathered from the history (cost per linker, last negative-control outcomes)
and from the declared recipes (coverage). Every field says "not known"
explicitly (None or empty) rather than defaulting to a reassuring value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linkgate.config import Config, Gate
    from linkgate.history.model import RunRecord

# No run measured yet: a cold release link of a large native runtime takes many minutes.
# One figure per gate, whatever its linkers: in replay mode the others only relink.
DEFAULT_TIMEOUT_MINUTES = 120
# A relink under another linker (linker-matrix = "replay") when no link time is recorded.
DEFAULT_RELINK_MINUTES = 2


@dataclass(frozen=True)
class LinkerCost:
    linker: str
    cold_count: int
    cold_median_s: float | None
    cold_max_s: float | None
    warm_count: int
    warm_median_s: float | None
    timeout_minutes: int
    reason: str
    link_median_s: float | None = None  # the link step of its runs (relinks, in replay mode)


@dataclass(frozen=True)
class CostFacts:
    linkers: tuple[LinkerCost, ...]
    first_date: str
    last_date: str
    runners: tuple[str, ...]
    # linker-matrix = "replay": the gate's first linker compiles, every other linker of
    # the job relinks its recorded links (replay/matrix.py), so they add a link each.
    replay_after: str | None = None
    gate_linkers: tuple[str, ...] = ()

    def timeout(self, parallel: bool) -> int:
        """The job's timeout. Matrix legs each build on their own: the slowest leg. One job in
        rebuild mode builds every linker in turn: the sum. One job in replay mode: the first
        linker's build, then one relink per other linker (its recorded link time, padded)."""
        minutes = [c.timeout_minutes for c in self.linkers]
        if parallel:
            return max(minutes)
        if self.replay_after is None:
            return sum(minutes)
        first = next((c for c in self.linkers if c.linker == self.replay_after), None)
        base = first.timeout_minutes if first is not None else DEFAULT_TIMEOUT_MINUTES
        return base + sum(self.relink_minutes(ln) for ln in self.gate_linkers if ln != self.replay_after)

    def relink_minutes(self, linker: str) -> int:
        """What relinking under *linker* adds: its own recorded link time, else the first
        linker's, padded like a run's; DEFAULT_RELINK_MINUTES when none is recorded."""
        import math

        from linkgate.cost import HEADROOM_FACTOR

        own = next((c.link_median_s for c in self.linkers if c.linker == linker), None)
        first = next((c.link_median_s for c in self.linkers if c.linker == self.replay_after), None)
        seconds = own if own is not None else first
        if seconds is None:
            return DEFAULT_RELINK_MINUTES
        return max(1, math.ceil(seconds * HEADROOM_FACTOR / 60))


@dataclass(frozen=True)
class ControlFact:
    name: str
    linker: str
    outcome: str
    date: str
    commit: str | None = None
    branch: str | None = None
    dirty: bool | None = None

    @property
    def source(self) -> str:
        """Which tree the outcome was measured on: a control's outcome is evidence
        about that commit only, so the comment always says which one."""
        if not self.commit:
            return "commit not recorded"
        where = f"commit {self.commit[:12]}" + (f" on {self.branch}" if self.branch else "")
        if self.dirty:
            where += ", with uncommitted changes"
        elif self.dirty is None:
            where += ", whether clean not recorded"
        return where


@dataclass(frozen=True)
class GateFacts:
    cost: CostFacts | None = None
    # Recipes no gate links, as "name (file:line)"; None when no [[recipe]] is declared.
    gaps: tuple[str, ...] | None = None
    controls: tuple[ControlFact, ...] = field(default=())

    def timeout_minutes(self, parallel: bool = False) -> int:
        return self.cost.timeout(parallel) if self.cost else DEFAULT_TIMEOUT_MINUTES


def gather(cfg: Config, gate: Gate, history: str | None = None) -> GateFacts:
    """Facts from the recorded history (never created by reading) and the recipes."""
    from linkgate.coverage.load import load_coverage

    cov, runs = load_coverage(cfg, history)
    gaps: tuple[str, ...] | None = None
    if cfg.recipes:
        gaps = tuple(f"{g.recipe.name} ({_where(g.recipe.file, g.recipe.line)}, {g.status})" for g in cov.gaps)
    mine = [r for r in runs if r.gate == gate.name]
    return GateFacts(cost=_cost(gate, mine), gaps=gaps, controls=_controls(mine))


def _where(file: str | None, line: int | None) -> str:
    if not file:
        return "no file given"
    return f"{file}:{line}" if line else file


def _cost(gate: Gate, runs: list[RunRecord]) -> CostFacts | None:
    from linkgate.cost import compute

    entries = [e for e in compute(runs) if e.linker in gate.linkers]
    counted = [r for r in runs if r.kind == "run" and r.linker in gate.linkers]
    if not entries or not counted:
        return None
    dates = sorted(r.started_at[:10] for r in counted)
    return CostFacts(
        linkers=tuple(LinkerCost(
            e.linker, e.cold.count if e.cold else 0, e.cold.median_s if e.cold else None,
            e.cold.max_s if e.cold else None, e.warm.count if e.warm else 0,
            e.warm.median_s if e.warm else None, e.recommended_timeout_minutes, e.reason, e.link_s_median,
        ) for e in entries),
        first_date=dates[0], last_date=dates[-1],
        runners=tuple(sorted({r for e in entries for r in e.runners})),
        replay_after=gate.linkers[0] if gate.linker_matrix == "replay" and len(gate.linkers) > 1 else None,
        gate_linkers=tuple(gate.linkers),
    )


def _controls(runs: list[RunRecord]) -> tuple[ControlFact, ...]:
    latest: dict[tuple[str, str], RunRecord] = {}
    for r in runs:
        if r.kind == "prove" and r.control:
            key = (r.control, r.linker)
            if key not in latest or r.started_at > latest[key].started_at:
                latest[key] = r
    return tuple(ControlFact(r.control or "", r.linker, r.verdict, r.started_at[:10], r.commit, r.branch, r.dirty)
                 for _, r in sorted(latest.items()))

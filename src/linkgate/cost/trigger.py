"""When to run a gate, given what it costs and what a pull request may spend.

A pull request runs every linker of a gate, so a gate's per-PR cost is the
sum over its linkers of the typical run: the warm median when warm runs are
known (a CI cache or a self-hosted runner keeps the target dir), else the
median of all runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from linkgate.cost.compute import CostEntry, clock

EVERY_PR = "every-pr"
PATH_FILTER = "path-filter"
SCHEDULE = "schedule"
# A path filter keeps the average within budget only if few enough PRs touch
# the link surface; below one PR in four we stop counting on it.
FILTER_LIMIT = 4.0


@dataclass(frozen=True)
class TriggerAdvice:
    gate: str
    budget_minutes_per_pr: float
    per_pr_minutes: float
    recommendation: str
    reasoning: str
    # What a runner with no warm target dir pays (a hosted runner without a cache,
    # a cache evicted or keyed away), and what that alone would call for; None
    # when no cold run of every linker is recorded.
    cold_per_pr_minutes: float | None = None
    cold_recommendation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate, "budget_minutes_per_pr": self.budget_minutes_per_pr,
            "per_pr_minutes": round(self.per_pr_minutes, 2), "recommendation": self.recommendation,
            "cold_per_pr_minutes": None if self.cold_per_pr_minutes is None else round(self.cold_per_pr_minutes, 2),
            "cold_recommendation": self.cold_recommendation,
            "reasoning": self.reasoning,
        }


def recommend_trigger(entries: Sequence[CostEntry], budget_minutes: float) -> list[TriggerAdvice]:
    """One piece of advice per gate, in the entries' order."""
    by_gate: dict[str, list[CostEntry]] = {}
    for e in entries:
        by_gate.setdefault(e.gate, []).append(e)
    return [_advise(gate, rows, budget_minutes) for gate, rows in by_gate.items()]


def _choice(per_pr: float, budget: float) -> tuple[str, float]:
    """The trigger a per-PR cost in minutes calls for, and the share of PRs the budget pays for."""
    if budget > 0 and per_pr <= budget:
        return EVERY_PR, 1.0
    share = budget / per_pr if per_pr > 0 else 0.0
    return (PATH_FILTER if share * FILTER_LIMIT >= 1 else SCHEDULE), share


def _advise(gate: str, rows: list[CostEntry], budget: float) -> TriggerAdvice:
    typical = sum(e.warm.median_s if e.warm else e.wall_s_median for e in rows)
    per_pr = typical / 60
    linkers = ", ".join(e.linker for e in rows)
    basis = "warm" if all(e.warm for e in rows) else "typical"
    cold = [e.cold.median_s for e in rows if e.cold]
    cold_total = sum(cold) if len(cold) == len(rows) else None
    cold_rec = _choice(cold_total / 60, budget)[0] if cold_total is not None else None
    cold_note = ""
    if cold_total is not None:
        cold_note = (f" Cold, it is another figure: a runner without a warm target dir pays about "
                     f"{clock(cold_total)} per pull request (cold median summed over its linkers)")
        if cold_rec == _choice(per_pr, budget)[0]:
            cold_note += ", which calls for the same trigger."
        else:
            cold_note += (f", which alone would call for {cold_rec}: keep the target dir warm (a CI cache, "
                          f"a self-hosted runner) or choose {cold_rec}.")
    head = (f"Gate {gate} costs about {clock(typical)} per pull request ({basis} median summed over its "
            f"linkers: {linkers}) against a budget of {budget:g} min.")
    rec, share = _choice(per_pr, budget)
    cold_min = None if cold_total is None else cold_total / 60
    if rec == EVERY_PR:
        return TriggerAdvice(gate, budget, per_pr, EVERY_PR,
                             f"{head} That fits, so run it on every pull request: a link break is then "
                             f"caught on the change that made it, whatever files it touched.{cold_note}",
                             cold_min, cold_rec)
    if rec == PATH_FILTER:
        return TriggerAdvice(gate, budget, per_pr, PATH_FILTER,
                             f"{head} That is over budget, so run it only when a pull request touches the "
                             f"link surface (a paths filter; `linkgate surface {gate} --check-filter` keeps the "
                             f"filter complete): the average stays within budget if at most {share:.0%} of "
                             f"pull requests touch that surface.{cold_note}", cold_min, cold_rec)
    return TriggerAdvice(gate, budget, per_pr, SCHEDULE,
                         f"{head} Even a path filter would keep the average within budget only if fewer than "
                         f"1 in {round(1 / share) if share > 0 else 'any'} pull requests touched the link "
                         f"surface, so run it on a schedule (nightly on the default branch, plus "
                         f"workflow_dispatch) and accept that a link break is found within a day instead "
                         f"of on its pull request.{cold_note}", cold_min, cold_rec)

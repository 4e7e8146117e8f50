"""cost.compute and recommend_trigger on hand-built rows whose answers follow from the stated policy."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from linkgate.cost import (
    DEFAULT_TIMEOUT_MINUTES,
    HEADROOM_FACTOR,
    HEADROOM_FIXED_MINUTES,
    compute,
    recommend_trigger,
)
from linkgate.history.model import RunRecord

BASE = RunRecord(run_id="", kind="run", gate="g", linker="bfd", verdict="linked",
                 started_at="2026-12-01T00:00:00Z", wall_s=0.0)
_n = 0


def row(wall: float, cold: bool | None, **kw: object) -> RunRecord:
    global _n
    _n += 1
    return replace(BASE, run_id=str(_n), wall_s=wall, cold=cold, **kw)  # type: ignore[arg-type]


def padded(seconds: float) -> int:
    return math.ceil(seconds * HEADROOM_FACTOR / 60) + HEADROOM_FIXED_MINUTES


def test_cold_and_warm_statistics_and_medians() -> None:
    rows = [row(900, True, link_s=100, compile_s=800), row(400, False, link_s=50, compile_s=350),
            row(300, False, link_s=40, compile_s=260), row(450, False)]
    [e] = compute(rows)
    assert (e.gate, e.linker, e.runs) == ("g", "bfd", 4)
    assert e.cold is not None and (e.cold.count, e.cold.median_s, e.cold.max_s) == (1, 900, 900)
    assert e.warm is not None and (e.warm.count, e.warm.median_s, e.warm.max_s) == (3, 400, 450)
    assert e.link_s_median == 50 and e.compile_s_median == 350
    assert e.recommended_timeout_minutes == padded(900)
    assert "slowest cold run 15m00s" in e.reason


def test_timeout_is_never_below_a_slower_warm_run() -> None:
    [e] = compute([row(60, True), row(3000, False, runner="slow-box")])
    assert e.recommended_timeout_minutes == padded(3000)
    assert e.recommended_timeout_minutes * 60 > 3000
    assert "slower than any cold run" in e.reason


def test_default_timeout_without_a_cold_run() -> None:
    [e] = compute([row(30, False), row(40, None)])
    assert e.cold is None and e.runs == 2
    assert e.recommended_timeout_minutes == DEFAULT_TIMEOUT_MINUTES
    assert "no cold run recorded" in e.reason
    [slow] = compute([row(7200, False)])
    assert slow.recommended_timeout_minutes == padded(7200) > DEFAULT_TIMEOUT_MINUTES


def test_only_runs_that_reached_a_link_verdict_count() -> None:
    rows = [row(10, True), row(20, False, verdict="link-failed"), row(5000, True, verdict="compile-failed"),
            row(5000, True, verdict="error"), row(5000, True, kind="prove", verdict="caught", control="c")]
    [e] = compute(rows)
    assert e.runs == 2 and e.cold is not None and e.cold.max_s == 10


def test_entries_per_gate_and_linker_with_runners() -> None:
    rows = [row(1, True, gate="b"), row(1, True, gate="a", linker="mold", runner="ci-1"),
            row(2, False, gate="a", linker="mold", host="laptop"), row(3, True, gate="a", linker="bfd")]
    entries = compute(rows)
    assert [(e.gate, e.linker) for e in entries] == [("a", "bfd"), ("a", "mold"), ("b", "bfd")]
    assert entries[1].runners == ("ci-1", "laptop")
    assert entries[1].to_dict()["runners"] == ["ci-1", "laptop"]


def test_unmeasured_link_time_is_null_not_zero() -> None:
    [e] = compute([row(10, True)])
    d = e.to_dict()
    assert d["link_s_median"] is None and d["compile_s_median"] is None and d["warm"] is None


@pytest.mark.parametrize(
    ("warm_s", "budget", "expected"),
    [(120, 10, "every-pr"), (1200, 10, "path-filter"), (1200, 5, "path-filter"), (1200, 4, "schedule")],
)
def test_trigger_tiers(warm_s: float, budget: float, expected: str) -> None:
    entries = compute([row(warm_s * 3, True), row(warm_s, False)])
    [advice] = recommend_trigger(entries, budget)
    assert advice.recommendation == expected
    assert advice.per_pr_minutes == warm_s / 60
    assert f"budget of {budget:g} min" in advice.reasoning
    assert "\n" not in advice.reasoning


def test_trigger_sums_the_linkers_of_a_gate() -> None:
    entries = compute([row(300, False, linker="bfd"), row(300, False, linker="mold"), row(60, False, gate="h")])
    advice = {a.gate: a for a in recommend_trigger(entries, 6)}
    assert advice["g"].per_pr_minutes == 10 and advice["g"].recommendation == "path-filter"
    assert advice["h"].recommendation == "every-pr"


def test_trigger_states_what_a_cold_runner_would_call_for() -> None:
    """Warm 2 min fits a 10 min budget; cold 20 min does not: both figures, and the cold trigger."""
    entries = compute([row(1200, True), row(120, False)])
    [advice] = recommend_trigger(entries, 10)
    assert advice.recommendation == "every-pr" and advice.per_pr_minutes == 2
    assert advice.cold_per_pr_minutes == 20 and advice.cold_recommendation == "path-filter"
    assert "without a warm target dir pays about" in advice.reasoning
    assert "alone would call for path-filter" in advice.reasoning
    d = advice.to_dict()
    assert (d["cold_per_pr_minutes"], d["cold_recommendation"]) == (20, "path-filter")
    # No cold run recorded: nothing is said about one.
    [warm_only] = recommend_trigger(compute([row(120, False)]), 10)
    assert warm_only.cold_recommendation is None and "cold" not in warm_only.reasoning.lower()

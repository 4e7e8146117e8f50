"""The job's timeout from the matrix model: in replay mode other linkers add a relink, not a build."""

from __future__ import annotations

from linkgate.ci.facts import DEFAULT_RELINK_MINUTES, CostFacts, LinkerCost


def cost(linker: str, timeout: int, link_s: float | None) -> LinkerCost:
    return LinkerCost(linker, 1, 2.0, 2.0, 1, 1.0, timeout, "measured", link_s)


LINKERS = ("default", "bfd", "mold", "lld", "gold")


def test_replay_adds_one_relink_per_other_linker() -> None:
    # A 2-second gate: default measured (6 min with headroom); bfd relinked in 0.4 s; the rest never ran.
    facts = CostFacts((cost("default", 6, 0.5), cost("bfd", 60, 0.4)), "2026-12-03", "2026-12-03", ("h",),
                      replay_after="default", gate_linkers=LINKERS)
    assert facts.timeout(parallel=False) == 6 + 4 * 1
    assert facts.relink_minutes("mold") == 1  # the first linker's link time stands in for its own


def test_replay_without_any_link_time_is_a_stated_default_per_relink() -> None:
    facts = CostFacts((cost("default", 30, None),), "d", "d", ("h",), replay_after="default",
                      gate_linkers=("default", "mold", "gold"))
    assert facts.timeout(parallel=False) == 30 + 2 * DEFAULT_RELINK_MINUTES


def test_rebuild_mode_sums_and_matrix_legs_take_the_slowest() -> None:
    lcs = (cost("default", 6, 0.5), cost("bfd", 60, 0.4))
    rebuild = CostFacts(lcs, "d", "d", ("h",), replay_after=None, gate_linkers=("default", "bfd"))
    assert rebuild.timeout(parallel=False) == 66
    replay = CostFacts(lcs, "d", "d", ("h",), replay_after="default", gate_linkers=("default", "bfd"))
    assert replay.timeout(parallel=True) == rebuild.timeout(parallel=True) == 60

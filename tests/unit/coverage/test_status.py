"""Coverage statuses, the workflow comment and the matrix, over hand-built run records."""

from __future__ import annotations

import itertools

from linkgate.config import Recipe
from linkgate.coverage import matrix as mx
from linkgate.coverage.status import comment_block, coverage
from linkgate.history.model import RunRecord

A = Recipe("a", when_env=("A",), file="build.rs", line=10)
B = Recipe("b", when_env=("B",), unless_env=("A",), file="build.rs", line=13)
MAC = Recipe("mac", when_target="*-apple-darwin", file="native/build.rs", line=4)
_ids = itertools.count()


def run(gate: str = "g", linker: str = "default", verdict: str = "linked", recipes: tuple[str, ...] = ("a",),
        runner: str | None = "ci-x86", when: str = "2026-11-30T10:00:00Z", kind: str = "run",
        host: str | None = "box", commit: str | None = "c0ffee") -> RunRecord:
    return RunRecord(run_id=f"r{next(_ids)}", kind=kind, gate=gate, linker=linker, verdict=verdict,
                     started_at=when, wall_s=10.0, runner=runner, host=host, recipes=recipes, commit=commit)


def statuses(runs: list[RunRecord], selected: dict[str, list[str]] | None = None,
             selectable: dict[str, list[str]] | None = None) -> dict[str, str]:
    cov = coverage([A, B, MAC], runs, selected or {"a": ["g"]}, selectable or {"a": ["g"], "b": ["g"]})
    return {r.recipe.name: r.status for r in cov.recipes}


def test_statuses() -> None:
    assert statuses([run()]) == {"a": "covered", "b": "never-linked", "mac": "never-selected"}
    assert statuses([run(verdict="link-failed")])["a"] == "never-linked"
    # A control's run links with a defect on purpose: it proves nothing about coverage.
    assert statuses([run(kind="prove", verdict="caught")])["a"] == "never-linked"
    # A run from a runner the configuration does not describe (a Mac) still counts.
    assert statuses([run(recipes=("mac",), runner="ci-mac")])["mac"] == "covered"
    assert statuses([run(recipes=("mac",), verdict="link-failed")])["mac"] == "never-linked"


def test_linked_by_keeps_the_latest_run_per_gate_linker_and_runner() -> None:
    runs = [
        run(when="2026-11-30T10:00:00Z", commit="old"),
        run(when="2026-11-30T12:00:00Z", commit="new"),
        run(when="2026-11-30T11:00:00Z", commit="mid"),
        run(linker="bfd", when="2026-11-29T09:00:00Z", commit="b1"),
        run(runner=None, host="laptop", when="2026-11-28T09:00:00Z", commit="l1"),
        run(verdict="link-failed", when="2026-12-01T00:00:00Z", commit="broken"),
    ]
    doc = coverage([A], runs, {}, {}).to_dict()
    assert doc["schema"] == "linkgate.coverage/1"
    assert doc["runs"] == 6 and doc["runners"] == ["ci-x86", "laptop"]
    (a,) = doc["recipes"]
    assert (a["name"], a["status"], a["active_runs"]) == ("a", "covered", 6)
    assert a["linked_by"] == [
        {"gate": "g", "linker": "bfd", "runner": "ci-x86", "commit": "b1", "date": "2026-11-29T09:00:00Z"},
        {"gate": "g", "linker": "default", "runner": "ci-x86", "commit": "new", "date": "2026-11-30T12:00:00Z"},
        {"gate": "g", "linker": "default", "runner": "laptop", "commit": "l1", "date": "2026-11-28T09:00:00Z"},
    ]


def test_the_comment_names_each_gap_with_file_and_line() -> None:
    cov = coverage([A, B, MAC], [run(), run(runner="ci-arm", recipes=("b",), verdict="link-failed")],
                   {"a": ["g"]}, {"a": ["g"], "b": ["g"]})
    text = comment_block(cov)
    lines = text.splitlines()
    assert lines[0] == ("linkgate coverage: 2 of 3 link recipes have no recorded link "
                        "(2 recorded runs from `ci-arm`, `ci-x86`).")
    assert lines[2] == ("- `b` (`build.rs:13`): never-linked: no recorded run on any runner linked with it active "
                        "(1 selected it and did not link). This is a recorded gap, not a recipe known to link.")
    assert lines[3] == ("- `mac` (`native/build.rs:4`): never-selected: no gate's target and features can select it "
                        "(needs target *-apple-darwin), so no configured gate can link it. This is a recorded gap, "
                        "not a recipe known to link.")
    assert "`a`" not in text


def test_a_gap_nobody_selects_says_what_selects_it() -> None:
    text = comment_block(coverage([B], [], {}, {"b": ["g"]}))
    assert "no gate's env selects it (needs $B set, $A unset)" in text
    assert "(0 recorded runs)" in text.splitlines()[0]


def test_no_gap_and_no_recipe() -> None:
    assert comment_block(coverage([A], [run()], {}, {})) == (
        "linkgate coverage: every link recipe was linked by at least one of 1 recorded run from `ci-x86`.\n")
    assert "no `[[recipe]]` is configured" in comment_block(coverage([], [run()], {}, {}))


def test_matrix_cells() -> None:
    runs = [
        run(when="2026-11-30T10:00:00Z"),
        run(when="2026-11-30T12:00:00Z", verdict="link-failed"),
        run(runner="ci-arm", recipes=("b",), verdict="link-failed"),
        run(runner="ci-arm", recipes=("b", "gone"), linker="bfd"),
        run(kind="prove", runner="ci-mac", recipes=("mac",)),
    ]
    m = mx.matrix([A, B, MAC], runs)
    assert [c.label for c in m.columns] == ["g [bfd] on ci-arm", "g [default] on ci-arm", "g [default] on ci-x86"]
    cells = {r.name: [(c.state, c.last_linked, c.runs) for c in cs] for r, cs in m.rows}
    assert cells == {
        "a": [("not-selected", None, 0), ("not-selected", None, 0), ("linked", "2026-11-30T10:00:00Z", 2)],
        "b": [("linked", "2026-11-30T10:00:00Z", 1), ("not-linked", None, 1), ("not-selected", None, 0)],
        "mac": [("not-selected", None, 0)] * 3,
    }


class _Counted(tuple):  # type: ignore[type-arg]
    """A run's recipes that count how often coverage looks into them."""

    looks = 0

    def __contains__(self, item: object) -> bool:
        _Counted.looks += 1
        return super().__contains__(item)

    def __iter__(self):  # type: ignore[no-untyped-def]
        _Counted.looks += 1
        return super().__iter__()


def test_each_run_is_read_once_however_many_recipes() -> None:
    recipes = [Recipe(f"r{i}", when_env=(f"R{i}",), file="build.rs", line=i + 1) for i in range(60)]
    runs = [run(recipes=_Counted((f"r{i % 60}",))) for i in range(600)]
    _Counted.looks = 0
    cov = coverage(recipes, runs, {}, {})
    assert all(r.status == "covered" for r in cov.recipes)
    # Scanning every run per recipe looked 36,000 times; filing runs by recipe looks once per run.
    assert _Counted.looks <= 2 * len(runs), _Counted.looks

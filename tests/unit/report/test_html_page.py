"""The HTML page over hand-built records: self-contained, escaped, one mark per run."""

from __future__ import annotations

import itertools
from html.parser import HTMLParser

from linkgate.config import Recipe
from linkgate.coverage.matrix import matrix
from linkgate.coverage.status import coverage
from linkgate.history.model import RunRecord
from linkgate.htmlreport import data, svg
from linkgate.htmlreport.page import render

_ids = itertools.count()
EVIL = '<script>alert("x")</script>'


def rec(gate: str = "g", linker: str = "default", when: str = "2026-11-30T10:00:00Z", wall: float = 100.0,
        cold: bool | None = False, verdict: str = "linked", kind: str = "run", runner: str | None = "ci",
        recipes: tuple[str, ...] = ("a",), compile_s: float | None = None, link_s: float | None = None,
        control: str | None = None, commit: str | None = "abc") -> RunRecord:
    return RunRecord(run_id=f"id{next(_ids)}", kind=kind, gate=gate, linker=linker, verdict=verdict,
                     started_at=when, wall_s=wall, cold=cold, runner=runner, recipes=recipes,
                     compile_s=compile_s, link_s=link_s, control=control, commit=commit)


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def page(records: list[RunRecord], recipes: list[Recipe]) -> str:
    cov = coverage(recipes, records, {}, {r.name: ["g"] for r in recipes})
    return render(records, cov, matrix(recipes, records), title=f"report {EVIL}", generated="now")


RECIPES = [Recipe("a", when_env=("A",), file="build.rs", line=3), Recipe("b", when_env=("B",))]


def test_page_is_self_contained_and_escapes_user_text() -> None:
    records = [
        rec(cold=True, wall=900, compile_s=880, link_s=20),
        rec(when="2026-11-30T11:00:00Z", wall=300, compile_s=290, link_s=10),
        rec(linker="bfd", runner=EVIL, commit=EVIL, when="2026-11-30T12:00:00Z", cold=None),
        rec(kind="prove", control=EVIL, verdict="caught"),
    ]
    html = page(records, RECIPES)
    parser = Tags()
    parser.feed(html)
    names = [t for t, _ in parser.tags]
    assert "script" not in names and "link" not in names and "img" not in names and "iframe" not in names
    assert not any(k in ("src", "href") or (k and k.startswith("on")) for _, attrs in parser.tags for k in attrs)
    for needle in ("url(", "@import", "http://", "https://", "@font-face"):
        assert needle not in html
    assert EVIL not in html and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    points = [a for t, a in parser.tags if t == "circle"]
    # One mark per run, series by (gate, linker), oldest first; the prove row is a control, not a cost point.
    assert [p["class"] for p in points] == ["point unknown", "point cold", "point warm"]
    rows = [a for t, a in parser.tags if t == "tr" and "data-recipe" in a]
    assert [r["data-recipe"] for r in rows] == ["a", "b"]
    assert [r["class"] for r in rows] == ["recipe", "recipe gap"]
    controls = [a for t, a in parser.tags if t == "tr" and "data-control" in a]
    assert controls == [{"data-gate": "g", "data-control": EVIL}]


def test_cost_series_and_phase_bars() -> None:
    records = [
        rec(cold=True, wall=900, compile_s=880, link_s=20),
        rec(when="2026-11-30T09:00:00Z", wall=300, compile_s=290, link_s=10),
        rec(when="2026-11-30T11:00:00Z", wall=500, compile_s=480, link_s=20),
        rec(when="not a date"),
        rec(linker="bfd", wall=50),
        rec(kind="prove", control="c"),
    ]
    series = data.cost_series(records)
    assert [(s.gate, s.linker, [p.wall_s for p in s.points]) for s in series] == [
        ("g", "bfd", [50.0]), ("g", "default", [300.0, 900.0, 500.0])]
    bars = data.phase_bars(records)
    assert [(b.linker, b.cold, b.runs, b.wall_s, b.compile_s, b.link_s) for b in bars] == [
        ("bfd", False, 1, 50.0, None, None),
        ("default", False, 3, 300.0, 385.0, 15.0),
        ("default", True, 1, 900.0, 880.0, 20.0),
    ]
    chart = svg.phase_chart(bars)
    assert chart.count('class="compile"') == 2 and chart.count('class="link"') == 2
    assert chart.count('class="wall"') == 1 and "split not measured" in chart


def test_a_long_history_keeps_the_latest_points_per_pair() -> None:
    records = [rec(when=f"2026-11-{d:02d}T10:00:00Z", wall=float(d)) for d in range(1, 31)] + [rec(linker="bfd")]
    series = data.cost_series(records, limit=5)
    assert [(s.linker, [p.wall_s for p in s.points], s.total) for s in series] == [
        ("bfd", [100.0], 1), ("default", [26.0, 27.0, 28.0, 29.0, 30.0], 30)]
    html = render(records, coverage([], records, {}, {}), matrix([], records), title="t", generated="now")
    assert html.count('class="point') == 31   # under the default cap every run shows
    assert "the latest" not in html
    html = render(records, coverage([], records, {}, {}), matrix([], records), title="t", generated="now",
                  max_points=5)
    assert html.count('class="point') == 6
    assert "Shown: g [default]: the latest 5 of 30 runs." in html


def test_latest_verdicts_and_controls() -> None:
    records = [
        rec(verdict="link-failed", when="2026-11-30T09:00:00Z"),
        rec(when="2026-11-30T10:00:00Z"),
        rec(runner="mac", verdict="link-failed"),
        rec(kind="prove", control="drop-lc", verdict="not-reproduced", when="2026-11-30T08:00:00Z"),
        rec(kind="prove", control="drop-lc", verdict="caught", when="2026-11-30T09:00:00Z"),
    ]
    assert [(r.runner, r.verdict) for r in data.latest_verdicts(records)] == [("ci", "linked"), ("mac", "link-failed")]
    assert [(r.control, r.verdict) for r in data.latest_controls(records)] == [("drop-lc", "caught")]


def test_empty_history_still_renders() -> None:
    html = page([], [])
    assert "No recorded runs yet" in html and "No negative control was run" in html
    assert "No <code>[[recipe]]</code> is configured" in html


def test_nice_axis() -> None:
    assert [svg.nice_ceiling(v) for v in (0, 0.3, 1, 1.2, 3, 7, 420)] == [1.0, 0.5, 1.0, 2.0, 5.0, 10.0, 500.0]
    assert [svg.seconds(v) for v in (0.123, 12.34, 940)] == ["0.12 s", "12.3 s", "15.7 min"]


def test_divergence_blocks_are_escaped_and_only_of_the_latest_run() -> None:
    from dataclasses import replace

    hostile = {"kind": EVIL, "target": EVIL, "linkers": [EVIL, "bfd"], "detail": EVIL, "level": "error"}
    old = replace(rec(linker="bfd", when="2026-11-29T10:00:00Z"),
                  divergence=({"kind": "needed", "target": "stale", "linkers": ["default", "bfd"], "detail": "x"},))
    new = replace(rec(linker="bfd"), divergence=(hostile, {"kind": "functions", "target": 7, "detail": None}))
    html = page([old, new, rec()], [])
    assert "<script>" not in html and "stale" not in html
    tags = Tags()
    tags.feed(html)
    blocks = [a for t, a in tags.tags if t == "div" and a.get("class") == "divergence"]
    assert [(b["data-linker"], b["data-target"]) for b in blocks] == [("bfd", EVIL), ("bfd", "7")]
    assert [a["class"] for t, a in tags.tags if t == "li" and "data-kind" in a] == ["bad", "warn"]

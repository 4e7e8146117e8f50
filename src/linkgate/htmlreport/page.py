"""Assemble the page: charts, coverage matrix, latest verdicts and controls.

Everything is inline (CSS and SVG; no script, font, image or link to fetch),
so the file opens the same from a CI artifact, an e-mail or a laptop with no
network. Every piece of user text (gate, recipe, runner, commit) goes through
``html.escape``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from linkgate.coverage import matrix as mx
from linkgate.coverage.status import Coverage, runner_of
from linkgate.history.model import RunRecord
from linkgate.htmlreport import data, svg
from linkgate.report.model import count

_CSS = """
:root { color-scheme: light; --bad: #b3261e; --bad-bg: #fdecea; --good: #1b6e20; --good-bg: #e6f4e7;
        --muted: #5f6368; --rule: #dadce0; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto;
       max-width: 1080px; padding: 0 16px; color: #202124; }
h1 { font-size: 22px; margin-bottom: 0; } h2 { font-size: 17px; margin-top: 32px; }
.sub { color: var(--muted); margin-top: 4px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--rule); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f1f3f4; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.chart { max-width: 100%; height: auto; }
.chart .grid { stroke: #e8eaed; } .chart text { font-size: 11px; fill: var(--muted); stroke: none; }
.chart .line { stroke-width: 1.5; opacity: .7; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 4px 0 0; padding: 0; list-style: none; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 4px;
                  vertical-align: -1px; }
.status, .cell { white-space: nowrap; }
.ok, .linked, .covered, .caught { color: var(--good); background: var(--good-bg); }
.bad, .gap, .not-linked, .never-linked, .never-selected { color: var(--bad); background: var(--bad-bg); }
.not-selected { color: var(--muted); }
tr.gap th { color: var(--bad); background: var(--bad-bg); }
.empty { color: var(--muted); font-style: italic; }
"""


def render(records: Sequence[RunRecord], cov: Coverage, matrix: mx.Matrix, *, title: str, generated: str,
           max_points: int = data.MAX_POINTS) -> str:
    series = data.cost_series(records, max_points)
    runs = [r for r in records if r.kind == "run"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # No network: forbid every fetch, so a stray URL in user text can never load anything.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="sub">{count(len(runs), "recorded run")}, '
        f'{count(len(records) - len(runs), "negative-control run")}, from '
        f"{escape(', '.join(cov.runners) or 'no runner')}. Generated {escape(generated)}.</p>",
        '<section id="cost"><h2>Cost over time</h2>',
        '<p class="sub">Wall time of each run; filled dots are cold runs (empty target directory), '
        "hollow dots warm ones.</p>",
        svg.cost_chart(series),
        _legend(series),
        _capped(series),
        "</section>",
        '<section id="phases"><h2>Compile vs link</h2>',
        '<p class="sub">Median compile and link time (link time as the recording linker wrapper measured it).</p>',
        svg.phase_chart(data.phase_bars(records)),
        "</section>",
        '<section id="coverage"><h2>Link recipe coverage</h2>',
        _coverage_table(cov, matrix),
        "</section>",
        '<section id="verdicts"><h2>Latest verdicts</h2>',
        _verdicts(data.latest_verdicts(records)),
        "</section>",
        '<section id="divergence"><h2>Where the linkers\' files differ</h2>',
        _divergence(data.latest_verdicts(records)),
        "</section>",
        '<section id="controls"><h2>Negative controls</h2>',
        _controls(data.latest_controls(records)),
        "</section>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _capped(series: Sequence[data.Series]) -> str:
    capped = [s for s in series if s.total > len(s.points)]
    if not capped:
        return ""
    text = "; ".join(f"{escape(s.gate)} [{escape(s.linker)}]: the latest {len(s.points)} of {s.total} runs"
                     for s in capped)
    return f'<p class="sub">Shown: {text}.</p>'



def _legend(series: Sequence[data.Series]) -> str:
    if not series:
        return ""
    items = [f'<li><span class="swatch" style="background:{svg.PALETTE[i % len(svg.PALETTE)]}"></span>'
             f"{escape(s.gate)} [{escape(s.linker)}]</li>" for i, s in enumerate(series)]
    return '<ul class="legend">' + "".join(items) + "<li>&#9679; cold</li><li>&#9675; warm</li></ul>"


def _coverage_table(cov: Coverage, matrix: mx.Matrix) -> str:
    if not matrix.rows:
        return '<p class="empty">No <code>[[recipe]]</code> is configured: see <code>linkgate coverage --suggest</code>.</p>'
    status = {c.recipe.name: c.status for c in cov.recipes}
    head = "".join(f'<th scope="col" data-gate="{escape(c.gate)}" data-linker="{escape(c.linker)}" '
                   f'data-runner="{escape(c.runner or "")}">{escape(c.gate)} [{escape(c.linker)}]<br>'
                   f"<small>{escape(c.runner or 'unknown runner')}</small></th>" for c in matrix.columns)
    rows = []
    for recipe, cells in matrix.rows:
        st = status.get(recipe.name, "never-selected")
        where = f"<br><small><code>{escape(recipe.location)}</code></small>" if recipe.location else ""
        tds = "".join(_cell(c) for c in cells)
        rows.append(f'<tr class="recipe{" gap" if st != "covered" else ""}" data-recipe="{escape(recipe.name)}">'
                    f'<th scope="row">{escape(recipe.name)}{where}</th>'
                    f'<td class="status {st}">{st}</td>{tds}</tr>')
    return (f'<table id="coverage-matrix"><thead><tr><th>recipe</th><th>status</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _cell(cell: mx.Cell) -> str:
    if cell.state == mx.LINKED:
        text = f"linked {escape((cell.last_linked or '')[:10])}"
    elif cell.state == mx.NOT_LINKED:
        text = f"selected, not linked ({cell.runs})"
    else:
        text = "&#8212;"
    return f'<td class="cell {cell.state}">{text}</td>'


def _verdicts(records: Sequence[RunRecord]) -> str:
    if not records:
        return '<p class="empty">No recorded runs.</p>'
    rows = [
        f'<tr data-gate="{escape(r.gate)}" data-linker="{escape(r.linker)}"><td>{escape(r.gate)}</td>'
        f"<td>{escape(r.linker)}</td><td>{escape(runner_of(r) or '')}</td>"
        f'<td class="status {"ok" if r.verdict == "linked" else "bad"}">{escape(r.verdict)}</td>'
        f"<td>{escape(r.started_at)}</td>{_commit_cell(r)}"
        f"<td>{svg.seconds(r.wall_s)}</td></tr>"
        for r in records
    ]
    return ('<table id="verdicts-table"><thead><tr><th>gate</th><th>linker</th><th>runner</th><th>verdict</th>'
            f"<th>started</th><th>commit</th><th>wall</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _divergence(records: Sequence[RunRecord]) -> str:
    """One block per (gate, linker, target) whose latest linked files differed from the
    first linker's: each difference's kind and what differs (docs/json.md)."""
    blocks: dict[tuple[str, str, str, str], list[str]] = {}
    for r in records:
        for d in r.divergence:
            linkers = d.get("linkers")
            first = str(linkers[0]) if isinstance(linkers, list) and linkers else "the first linker"
            key = (r.gate, r.linker, str(d.get("target", "")), first)
            level = "bad" if d.get("level") == "error" else "warn"
            blocks.setdefault(key, []).append(
                f'<li class="{level}" data-kind="{escape(str(d.get("kind", "")))}"><code>'
                f'{escape(str(d.get("kind", "")))}</code> {escape(str(d.get("detail") or ""))}</li>')
    if not blocks:
        return ('<p class="empty">No difference between the linkers\' files in any pair\'s last recorded run (compared when a '
                "gate links under two linkers or more).</p>")
    return "".join(
        f'<div class="divergence" data-gate="{escape(gate)}" data-linker="{escape(linker)}" '
        f'data-target="{escape(target)}"><h3>{escape(gate)}: {escape(target)} under {escape(linker)} differs from '
        f"{escape(first)}</h3><ul>{''.join(items)}</ul></div>"
        for (gate, linker, target, first), items in blocks.items())


def _controls(records: Sequence[RunRecord]) -> str:
    if not records:
        return '<p class="empty">No negative control was run: see <code>linkgate prove</code>.</p>'
    rows = [
        f'<tr data-gate="{escape(r.gate)}" data-control="{escape(r.control or "")}"><td>{escape(r.gate)}</td>'
        f"<td>{escape(r.control or '')}</td><td>{escape(r.linker)}</td><td>{escape(runner_of(r) or '')}</td>"
        f'<td class="status {"caught" if r.verdict == "caught" else "bad"}">{escape(r.verdict)}</td>'
        f"<td>{escape(r.started_at)}</td>{_commit_cell(r)}</tr>"
        for r in records
    ]
    return ('<table id="controls-table"><thead><tr><th>gate</th><th>control</th><th>linker</th><th>runner</th>'
            f"<th>outcome</th><th>started</th><th>commit</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _commit_cell(r: RunRecord) -> str:
    """The commit an outcome was measured on, and whether the tree differed from it:
    a verdict is evidence about that tree only."""
    if not r.commit:
        return '<td class="commit">not recorded</td>'
    mark = {True: ' <span class="dirty">+ uncommitted changes</span>', None: ""}.get(r.dirty, "")
    branch = f" {escape(r.branch)}" if r.branch else ""
    return f'<td class="commit"><code>{escape(r.commit[:12])}</code>{branch}{mark}</td>'


"""Inline SVG charts: cost over time, and compile vs link bars. No script, no external asset."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from html import escape

from linkgate.coverage.status import runner_of
from linkgate.htmlreport.data import PhaseBar, Point, Series

# Distinguishable for the common colour-vision deficiencies (Tableau 10).
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948", "#9c755f", "#ff9da7",
           "#bab0ac")
COMPILE, LINK, WALL = "#4e79a7", "#f28e2b", "#bab0ac"


def _a(value: object) -> str:
    return escape(str(value), quote=True)


def nice_ceiling(value: float) -> float:
    if value <= 0:
        return 1.0
    mag = 10.0 ** math.floor(math.log10(value))
    return next(float(m * mag) for m in (1, 2, 2.5, 5, 10) if m * mag >= value)


def seconds(value: float) -> str:
    if value >= 120:
        return f"{value / 60:.1f} min"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def _cold_word(cold: bool | None) -> str:
    return {True: "cold", False: "warm", None: "unknown"}[cold]


def cost_chart(series: Sequence[Series]) -> str:
    points = [p for s in series for p in s.points]
    if not points:
        return '<p class="empty">No recorded runs yet: run <code>linkgate run</code> first.</p>'
    width, height, ml, mr, mt, mb = 780, 300, 64, 16, 14, 44
    t0 = min(p.when for p in points)
    t1 = max(p.when for p in points)
    if t1 == t0:
        t0, t1 = t0 - timedelta(minutes=30), t1 + timedelta(minutes=30)
    span = (t1 - t0).total_seconds()
    top = max(p.wall_s for p in points) * 1.05
    step = nice_ceiling(top / 4)
    ticks = max(1, math.ceil(top / step))
    ymax = step * ticks

    def x(when: datetime) -> float:
        return ml + (when - t0).total_seconds() / span * (width - ml - mr)

    def y(value: float) -> float:
        return height - mb - value / ymax * (height - mt - mb)

    out = [f'<svg id="cost-chart" class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           'role="img" aria-label="Wall time of each run over time, per gate and linker">']
    for i in range(ticks + 1):
        v = step * i
        out.append(f'<line class="grid" x1="{ml}" x2="{width - mr}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                   f'<text class="tick" x="{ml - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{_a(seconds(v))}</text>')
    fmt = "%Y-%m-%d" if span > 2 * 86400 else ("%m-%d %H:%M" if span > 3 * 3600 else "%H:%M:%S")
    for i in range(4):
        when = t0 + timedelta(seconds=span * i / 3)
        anchor = ("start", "middle", "middle", "end")[i]
        out.append(f'<text class="tick" x="{x(when):.1f}" y="{height - mb + 18}" '
                   f'text-anchor="{anchor}">{_a(when.strftime(fmt))}</text>')
    out.append(f'<text class="axis" x="{ml}" y="{height - 6}">UTC</text>')
    for i, s in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        out.append(f'<g class="series" data-gate="{_a(s.gate)}" data-linker="{_a(s.linker)}" '
                   f'stroke="{color}" fill="{color}">')
        if len(s.points) > 1:
            coords = " ".join(f"{x(p.when):.1f},{y(p.wall_s):.1f}" for p in s.points)
            out.append(f'<polyline class="line" fill="none" points="{coords}"/>')
        out += [_point(p, s, x(p.when), y(p.wall_s)) for p in s.points]
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _point(p: Point, s: Series, cx: float, cy: float) -> str:
    word = _cold_word(p.cold)
    r = p.record
    title = (f"{s.gate} [{s.linker}] on {runner_of(r) or 'unknown runner'}, {r.started_at}: "
             f"{seconds(r.wall_s)} wall, {word}, {r.verdict}" + (f", commit {r.commit[:12]}" if r.commit else ""))
    # Cold runs are filled, warm ones hollow, unknown ones small: told apart without colour.
    fill = {"cold": "", "warm": ' fill="#fff"', "unknown": ' fill="#fff" stroke-dasharray="2 2"'}[word]
    size = 3.5 if word == "unknown" else 5
    return (f'<circle class="point {word}" data-run-id="{_a(r.run_id)}" cx="{cx:.1f}" cy="{cy:.1f}" r="{size}"'
            f' stroke-width="2"{fill}><title>{_a(title)}</title></circle>')


def phase_chart(bars: Sequence[PhaseBar]) -> str:
    if not bars:
        return '<p class="empty">No recorded runs yet.</p>'
    width, row, label_w, right_w, top = 780, 28, 230, 250, 8
    scale_w = width - label_w - right_w
    height = top * 2 + row * len(bars)
    top_s = max(b.wall_s for b in bars) or 1.0
    out = [f'<svg id="phase-chart" class="chart" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="Median compile and link time per gate and linker">']
    for i, b in enumerate(bars):
        ypos = top + i * row
        label = f"{b.gate} [{b.linker}] {_cold_word(b.cold)}"
        out.append(f'<g class="bar" data-gate="{_a(b.gate)}" data-linker="{_a(b.linker)}" '
                   f'data-cold="{_cold_word(b.cold)}">')
        out.append(f'<text class="label" x="{label_w - 8}" y="{ypos + 18}" text-anchor="end">{_a(label)}</text>')
        xpos = float(label_w)
        if b.compile_s is None and b.link_s is None:
            w = b.wall_s / top_s * scale_w
            out.append(f'<rect class="wall" x="{xpos:.1f}" y="{ypos + 5}" width="{w:.1f}" height="{row - 10}" '
                       f'fill="{WALL}"><title>{_a(label)}: {seconds(b.wall_s)} wall</title></rect>')
            detail = f"wall {seconds(b.wall_s)}, split not measured"
        else:
            for cls, value, color in (("compile", b.compile_s, COMPILE), ("link", b.link_s, LINK)):
                if value is None:
                    continue
                w = max(value / top_s * scale_w, 1.5)   # a 0.1 s link must still show against a 10 min compile
                out.append(f'<rect class="{cls}" x="{xpos:.1f}" y="{ypos + 5}" width="{w:.1f}" '
                           f'height="{row - 10}" fill="{color}"><title>{_a(label)}: {cls} '
                           f'{seconds(value)} (median)</title></rect>')
                xpos += w
            parts = [f"compile {seconds(b.compile_s)}" if b.compile_s is not None else "compile ?",
                     f"link {seconds(b.link_s)}" if b.link_s is not None else "link ?"]
            detail = ", ".join(parts)
        out.append(f'<text class="detail" x="{label_w + scale_w + 8}" y="{ypos + 18}">'
                   f'{_a(detail)} ({b.runs} run{"s" if b.runs != 1 else ""})</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)

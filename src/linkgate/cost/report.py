"""Render cost entries: a table for people, ``linkgate.cost/1`` JSON for programs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from linkgate.cost.compute import (
    DEFAULT_TIMEOUT_MINUTES,
    HEADROOM_FACTOR,
    HEADROOM_FIXED_MINUTES,
    CostEntry,
    clock,
)
from linkgate.cost.trigger import TriggerAdvice
from linkgate.report.model import Report, count

SCHEMA = "linkgate.cost/1"
_HEADER = ("gate", "linker", "runs", "cold n/median/max", "warm n/median/max", "link", "compile", "timeout", "runners")


def build_report(entries: Sequence[CostEntry], triggers: Sequence[TriggerAdvice] | None, history: Path,
                 note: str | None = None) -> Report:
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "history": str(history),
        "policy": {"headroom_factor": HEADROOM_FACTOR, "headroom_minutes": HEADROOM_FIXED_MINUTES,
                   "default_timeout_minutes": DEFAULT_TIMEOUT_MINUTES},
        "entries": [e.to_dict() for e in entries],
    }
    if triggers is not None:
        doc["triggers"] = [t.to_dict() for t in triggers]
    summary = note or f"{count(sum(e.runs for e in entries), 'run')} of {count(len(entries), '(gate, linker) pair')}"
    return Report(command="cost", document=doc, summary=summary, human=render_human, markdown=render_markdown)


def _stats(s: dict[str, Any] | None) -> str:
    if s is None:
        return "-"
    return f"{s['count']} / {clock(s['median_s'])} / {clock(s['max_s'])}"


def _secs(v: float | None) -> str:
    return "-" if v is None else clock(v)


def rows(doc: dict[str, Any]) -> list[tuple[str, ...]]:
    return [
        (e["gate"], e["linker"], str(e["runs"]), _stats(e["cold"]), _stats(e["warm"]), _secs(e["link_s_median"]),
         _secs(e["compile_s_median"]), f"{e['recommended_timeout_minutes']} min", ", ".join(e["runners"]))
        for e in doc["entries"]
    ]


def render_human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    doc = report.document
    if not doc["entries"]:
        console.print(report.summary, highlight=False, markup=False)
        return
    table = [_HEADER, *rows(doc)]
    widths = [max(len(r[i]) for r in table) for i in range(len(_HEADER))]
    for n, row in enumerate(table):
        line = "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
        console.print(f"[bold]{escape(line)}[/]" if n == 0 else escape(line), highlight=False)
    for e in doc["entries"]:
        console.print(f"[dim]{escape(e['gate'])} \\[{e['linker']}] timeout: {escape(e['reason'])}[/]", highlight=False)
    for t in doc.get("triggers", []):
        console.print(f"[bold]{escape(t['gate'])}[/]: [cyan]{t['recommendation']}[/]. {escape(t['reasoning'])}",
                      highlight=False)
    console.print(report.summary + f" (history: {doc['history']})", highlight=False, markup=False)


def render_markdown(report: Report) -> str:
    doc = report.document
    lines = ["### linkgate cost", "", "| " + " | ".join(_HEADER) + " |", "|" + "---|" * len(_HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows(doc)]
    lines += [""] + [f"- `{e['gate']}` [{e['linker']}]: {e['reason']}" for e in doc["entries"]]
    for t in doc.get("triggers", []):
        lines += ["", f"**{t['gate']}: {t['recommendation']}.** {t['reasoning']}"]
    return "\n".join(lines) + "\n"


__all__ = ["SCHEMA", "build_report"]

"""Render a sweep: JSON ``linkgate.sweep/1``, a human table, Markdown for a pull request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from linkgate.errors import EXIT_OK
from linkgate.replay.sweep import (
    CHANGES_OUTPUT, DUPLICATE, LINKER_NAMES, LOAD_BEARING, NOT_JUDGED, NOT_ON_LINE, ORDER_SENSITIVE, REDUNDANT,
    SweepEntry,
)
from linkgate.report.markdown import code
from linkgate.report.model import Case, Finding, Report

SCHEMA = "linkgate.sweep/1"
_STYLE = {LOAD_BEARING: "green", ORDER_SENSITIVE: "yellow", REDUNDANT: "cyan", DUPLICATE: "cyan", CHANGES_OUTPUT: "magenta",
          NOT_ON_LINE: "dim", NOT_JUDGED: "bold yellow"}


def _where(item: dict[str, Any]) -> str:
    if item["build_script"]:
        return str(item["build_script"]) + (f":{item['line']}" if item["line"] else "")
    return f"{item['output_file']}:{item['output_line']}"


def build_report(gate: str, linkers: Sequence[str], entries: Sequence[SweepEntry]) -> Report:
    document: dict[str, Any] = {"schema": SCHEMA, "gate": gate, "linkers": list(linkers),
                "directives": [e.to_dict() for e in entries]}
    findings = []
    cases = []
    for item in document["directives"]:
        for linker, j in item["linkers"].items():
            cases.append(Case(suite="linkgate.sweep", name=f"{item['directive']} [{linker}]", ok=True,
                              message=j["status"], details=j["detail"]))
            if j["status"] == REDUNDANT:
                findings.append(Finding(rule="redundant-directive", level="note",
                                        message=f"{gate} [{linker}]: {j['detail']}",
                                        file=item["build_script"], line=item["line"],
                                        hint="a candidate to drop; a negative control on it will not reproduce"))
            elif j["status"] == DUPLICATE:
                findings.append(Finding(rule="duplicate-directive", level="note",
                                        message=f"{gate} [{linker}]: {j['detail']}",
                                        file=item["build_script"], line=item["line"],
                                        hint="drop all but one; a negative control dropping just one will not reproduce"))
            elif j["status"] == NOT_JUDGED:
                findings.append(Finding(rule="directive-not-judged", level="note",
                                        message=f"{gate} [{linker}]: {item['directive']}: {j['detail']}",
                                        file=item["build_script"], line=item["line"]))
    counts: dict[str, int] = {}
    for item in document["directives"]:
        for j in item["linkers"].values():
            counts[j["status"]] = counts.get(j["status"], 0) + 1
    summary = f"{len(entries)} directive(s) swept under {', '.join(linkers)}: " + (
        ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "nothing to sweep")
    return Report(command="sweep", document=document, findings=findings, cases=cases, summary=summary,
                  human=render_human, markdown=render_markdown, exit_code=EXIT_OK)


def render_human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    doc = report.document
    for item in doc["directives"]:
        console.print(f"[bold]{escape(item['directive'])}[/]  [dim]{escape(item['package'])}, "
                      f"{escape(_where(item))}[/]", highlight=False)
        for linker, j in item["linkers"].items():
            style = _STYLE.get(j["status"], "white")
            name = LINKER_NAMES.get(linker, linker)
            console.print(f"  [{style}]{j['status']:>16}[/]  {name:9} {escape(j['detail'])}", highlight=False)
    console.print(f"[bold]{escape(report.summary)}[/]", highlight=False)


def render_markdown(report: Report) -> str:
    doc = report.document
    linkers = doc["linkers"]
    lines = [f"### linkgate sweep {code(doc['gate'])}", "",
             "| directive | build script | " + " | ".join(LINKER_NAMES.get(ln, ln) for ln in linkers) + " |",
             "|---|---|" + "---|" * len(linkers)]
    for item in doc["directives"]:
        cells = []
        for ln in linkers:
            j = item["linkers"].get(ln)
            if j is None:
                cells.append("-")
                continue
            extra = f" {code(j['symbol'], True)}" if j.get("symbol") else ""
            cells.append(f"**{j['status']}**{extra}")
        lines.append(f"| {code(item['directive'], True)} | {code(_where(item), True)} | " + " | ".join(cells) + " |")
    notes = [f"- {code(item['directive'])} [{ln}]: {j['detail']}" for item in doc["directives"]
             for ln, j in item["linkers"].items() if j["status"] in (REDUNDANT, DUPLICATE, ORDER_SENSITIVE, CHANGES_OUTPUT, NOT_JUDGED)]
    if notes:
        lines += ["", *notes]
    lines += ["", report.summary]
    return "\n".join(lines) + "\n"

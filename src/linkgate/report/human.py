from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linkgate.report.model import Finding, Report


def render(report: Report, console: Any | None = None) -> str:
    """Delegate to the command's own human renderer, or list findings."""
    if console is None:
        from linkgate.console import stdout_console

        console = stdout_console()
    if report.human is not None:
        report.human(report, console)
        return ""
    print_findings(console, report.findings)
    if report.summary:
        console.print(report.summary, highlight=False)
    return ""


def print_findings(console: Any, findings: Iterable[Finding]) -> None:
    """One line per finding (level, file:line, message, rule), then its hint."""
    from linkgate.console import escape

    for f in findings:
        where = f"{f.file}:{f.line}: " if f.file and f.line else (f"{f.file}: " if f.file else "")
        style = {"error": "bold red", "warning": "yellow", "note": "cyan"}[f.level]
        console.print(f"[{style}]{f.level}[/] {escape(where + f.message)} [dim]({f.rule})[/]", highlight=False)
        if f.hint:
            console.print(f"  [dim]hint:[/] {escape(f.hint)}", highlight=False)

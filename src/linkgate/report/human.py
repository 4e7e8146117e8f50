from __future__ import annotations

from typing import Any

from linkgate.report.model import Report


def render(report: Report, console: Any | None = None) -> str:
    """Delegate to the command's own human renderer, or list findings."""
    if console is None:
        from linkgate.console import stdout_console

        console = stdout_console()
    if report.human is not None:
        report.human(report, console)
        return ""
    for f in report.findings:
        where = f"{f.file}:{f.line}: " if f.file and f.line else (f"{f.file}: " if f.file else "")
        style = {"error": "bold red", "warning": "yellow", "note": "cyan"}[f.level]
        console.print(f"[{style}]{f.level}[/] {where}{f.message} [dim]({f.rule})[/]", highlight=False)
        if f.hint:
            console.print(f"  [dim]hint:[/] {f.hint}", highlight=False)
    if report.summary:
        console.print(report.summary, highlight=False)
    return ""

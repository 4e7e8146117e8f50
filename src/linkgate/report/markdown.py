from __future__ import annotations

from typing import Any

from linkgate.report.model import Report


def render(report: Report, console: Any | None = None) -> str:
    if report.markdown is not None:
        return report.markdown(report)
    lines = [f"### linkgate {report.command}", ""]
    if report.summary:
        lines += [report.summary, ""]
    if report.findings:
        lines += ["| level | rule | where | message |", "|---|---|---|---|"]
        for f in report.findings:
            where = f"`{f.file}:{f.line}`" if f.file and f.line else (f"`{f.file}`" if f.file else "")
            msg = f.message.replace("|", "\\|").replace("\n", "<br>")
            lines.append(f"| {f.level} | `{f.rule}` | {where} | {msg} |")
    else:
        lines.append("No findings.")
    return "\n".join(lines) + "\n"

"""The default Markdown reporter, and code spans and fences that hold any text.

GNU ld quotes a symbol as ``undefined reference to `foo'``: a single backtick
inside a one-backtick code span closes it early and the rest renders as prose.
CommonMark ends a code span only at a backtick string of the opening's length,
so the fence is one backtick longer than the longest run inside, padded with a
space when the text starts or ends with a backtick or a space (the renderer
strips one space from each side when both sides have one).
"""

from __future__ import annotations

import re
from typing import Any

from linkgate.report.model import Report


_RUN = re.compile(r"`+")


def code(text: str, table: bool = False) -> str:
    """*text* as one inline code span; in a GFM table cell (*table*) `|` is escaped,
    which GFM requires even inside code spans."""
    flat = " ".join(str(text).splitlines()) or " "
    fence = "`" * (max((len(m) for m in _RUN.findall(flat)), default=0) + 1)
    pad = " " if flat.strip() and (flat[0] in "` " or flat[-1] in "` ") else ""
    span = f"{fence}{pad}{flat}{pad}{fence}"
    return span.replace("|", "\\|") if table else span


def cell(text: str) -> str:
    """Prose in a GFM table cell: `|` escaped, lines joined with <br>."""
    return text.replace("|", "\\|").replace("\n", "<br>")


def fenced(lines: list[str], info: str = "") -> list[str]:
    """*lines* as a fenced code block whose fence no line inside can close."""
    longest = max((len(m) for line in lines for m in _RUN.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, *lines, fence]


def render(report: Report, console: Any | None = None) -> str:
    if report.markdown is not None:
        return report.markdown(report)
    lines = [f"### linkgate {report.command}", ""]
    if report.summary:
        lines += [report.summary, ""]
    if report.findings:
        lines += ["| level | rule | where | message |", "|---|---|---|---|"]
        for f in report.findings:
            where = code(f"{f.file}:{f.line}" if f.line else f.file, table=True) if f.file else ""
            msg = f.message.replace("|", "\\|").replace("\n", "<br>")
            lines.append(f"| {f.level} | {code(f.rule, table=True)} | {where} | {msg} |")
    else:
        lines.append("No findings.")
    return "\n".join(lines) + "\n"

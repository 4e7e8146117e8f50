"""GitHub Actions: workflow-command annotations, plus the job's step summary.

Annotations go to stdout (the runner parses them from the step's log); the
Markdown summary is appended to the file named by $GITHUB_STEP_SUMMARY,
which the runner shows on the run's page.
"""

from __future__ import annotations

import os
from typing import Any

from linkgate.report.model import Finding, Report

_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def _escape_data(text: str) -> str:
    # The runner's own escaping rules (actions/toolkit, command.ts).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props = []
    if f.file:
        props.append(f"file={_escape_property(f.file)}")
        if f.line:
            props.append(f"line={f.line}")
    props.append(f"title={_escape_property('linkgate ' + f.rule)}")
    body = f.message + (f"\nhint: {f.hint}" if f.hint else "")
    return f"::{_LEVEL[f.level]} {','.join(props)}::{_escape_data(body)}"


def render(report: Report, console: Any | None = None) -> str:
    lines = [annotation(f) for f in report.findings]
    if report.summary:
        lines.append(report.summary)
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        from linkgate.report.markdown import render as markdown

        with open(summary_path, "a", encoding="utf-8") as fh:
            fh.write(markdown(report) + "\n")
    return "\n".join(lines) + ("\n" if lines else "")

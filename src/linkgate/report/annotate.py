"""Everything that knows about the CI service linkgate runs under."""

from __future__ import annotations

import os
import sys

from linkgate.report.model import Report


def on_github_actions() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def annotate(report: Report, fmt: str, output: str | None) -> None:
    """Under GitHub Actions, add workflow-command annotations and a step summary.

    The ``github`` reporter writes the ``::error`` lines as its output and
    appends its Markdown summary to $GITHUB_STEP_SUMMARY itself. When the main
    report is a machine format on stdout, the annotations go to stderr (the
    runner reads workflow commands from both) so stdout stays parseable.
    """
    if not on_github_actions() or fmt == "github":
        return
    stream = sys.stderr if fmt != "human" and output is None else sys.stdout
    from linkgate import report as reporting
    from linkgate.errors import UsageError

    try:
        text = reporting.render(report, "github")
    except UsageError:
        return
    if text:
        stream.write(text if text.endswith("\n") else text + "\n")
        stream.flush()

"""Everything that knows about the CI service linkgate runs under."""

from __future__ import annotations

import os
import sys

from linkgate.report.model import Report


def on_github_actions() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def annotate(report: Report) -> None:
    """Under GitHub Actions, add workflow-command annotations and a step summary.

    The ``github`` reporter writes the ``::error`` lines as its output and
    appends its Markdown summary to $GITHUB_STEP_SUMMARY itself.
    """
    if not on_github_actions():
        return
    from linkgate import report as reporting
    from linkgate.errors import UsageError

    try:
        text = reporting.render(report, "github")
    except UsageError:
        return
    if text:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()

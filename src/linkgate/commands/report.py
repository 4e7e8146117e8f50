"""`linkgate report ...`: work on reports already written."""

from __future__ import annotations

import click

from linkgate.commands import report_merge


@click.group("report")
def command() -> None:
    """Combine or render reports already written."""


command.add_command(report_merge.command)

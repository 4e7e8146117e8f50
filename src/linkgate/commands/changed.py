"""`linkgate changed`: the changed files a pull request shows dorny/paths-filter."""

from __future__ import annotations

from typing import Any

import click

from linkgate.commands.options import format_options
from linkgate.trigger.gitdiff import Change, changed_files
from linkgate.report import Report, emit


def _human(report: Report, console: Any) -> None:
    for item in report.document["files"]:
        console.print(f"{item['git']}\t{item['path']}", highlight=False, markup=False)


def _markdown(report: Report) -> str:
    doc = report.document
    lines = [f"Changed files, `{doc['base']}...{doc['head']}`:", ""]
    lines += [f"- `{f['path']}` ({f['status'] or f['git']})" for f in doc["files"]]
    return "\n".join(lines) + "\n"


def build_report(base: str, head: str, changes: list[Change]) -> Report:
    return Report(
        command="changed",
        document={
            "schema": "linkgate.changed/1",
            "base": base,
            "head": head,
            "files": [c.to_dict() for c in changes],
        },
        summary=f"{len(changes)} changed files",
        human=_human,
        markdown=_markdown,
    )


@click.command("changed")
@click.option("--base", required=True, help="Base ref; the diff is against the merge base (base...head).")
@click.option("--head", default="HEAD", show_default=True, help="Head ref.")
@format_options
def command(base: str, head: str, fmt: str, output: str | None) -> int:
    """List changed files as dorny/paths-filter sees them on a pull request.

    A rename is a deletion plus an addition (git diff --no-renames).
    """
    emit(build_report(base, head, changed_files(base, head)), fmt, output)
    return 0

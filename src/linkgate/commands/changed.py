"""`linkgate changed`: the changed files a pull request shows dorny/paths-filter."""

from __future__ import annotations

import sys
from typing import Any

import click

from linkgate.commands.options import format_options, repo_option
from linkgate.trigger.gitdiff import Change
from linkgate.report import Report, emit
from linkgate.report.markdown import code


def _human(report: Report, console: Any) -> None:
    for item in report.document["files"]:
        console.print(f"{item['git']}\t{item['path']}", highlight=False, markup=False)


def _markdown(report: Report) -> str:
    doc = report.document
    lines = [f"Changed files, {code(doc['base'] + '...' + doc['head'])}:", ""]
    lines += [f"- {code(f['path'])} ({f['status'] or f['git']})" for f in doc["files"]]
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
@click.option(
    "--base", default=None,
    help="Base ref; the diff is against the merge base (base...head). "
    "Default: from the GitHub event, as should-run decides.",
)
@click.option(
    "--head", default=None,
    help="Head ref (default: the event's head commit for a pull request or merge group, else HEAD).",
)
@repo_option
@format_options
def command(base: str | None, head: str | None, repo: str | None, fmt: str, output: str | None) -> int:
    """List changed files as dorny/paths-filter sees them on a pull request.

    A rename is a deletion plus an addition (git diff --no-renames).
    """
    from pathlib import Path

    from linkgate.errors import UsageError
    from linkgate.trigger import event

    cwd = Path(repo) if repo else Path.cwd()
    comparison = event.for_repository(base, head, cwd)
    if comparison.always:
        raise UsageError(f"{comparison.reason}; pass --base REF to list changes")
    changes = event.changes(comparison, cwd)
    shown = comparison.base or "(none: every file is added)"
    report = build_report(shown, comparison.head, changes)
    if comparison.base and comparison.merge_base:
        from linkgate.trigger.gitdiff import has_merge_base

        if not has_merge_base(comparison.base, comparison.head, cwd):
            note = (f"git finds no merge base of {comparison.base} and {comparison.head} (a shallow clone?), so every "
                    "tracked file counts as added, as paths-filter counts them; fetch the history between them "
                    "(actions/checkout with fetch-depth: 0) to list what the pull request changed")
            report.document["note"] = note
            sys.stderr.write(f"linkgate: note: {note}\n")
    emit(report, fmt, output)
    return 0

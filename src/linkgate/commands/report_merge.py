"""`linkgate report merge FILE...`: one verdict from a matrix's legs."""

from __future__ import annotations

import click

from linkgate.commands.options import format_options


@click.command("merge", short_help="Combine the legs' run documents into one verdict.")
@click.argument("files", nargs=-1, required=True)
@click.option("--expect", "expect", default=None,
              help="The matrix the legs ran (`linkgate matrix` output): a leg with no report is an error.")
@format_options
def command(files: tuple[str, ...], expect: str | None, fmt: str, output: str | None) -> int:
    """Combine legs' `linkgate run --format json` documents into one linkgate.run/1
    document with one status and one exit code."""
    from linkgate.ci import matrix
    from linkgate.gate.report import report_from_results
    from linkgate.report import annotate, emit

    expected = matrix.parse_expected(expect) if expect else None
    results = matrix.merge(matrix.load_legs(files), expected)
    report = report_from_results(results)
    emit(report, fmt, output)
    annotate.annotate(report, fmt, output)
    return report.exit_code

"""`linkgate explain [FILE|-]`: classify the linker errors in any build log."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

import click

from linkgate.commands.options import format_options

SCHEMA = "linkgate.explain/1"


@click.command("explain")
@click.argument("file", required=False, default="-", type=click.Path(dir_okay=False, allow_dash=True))
@format_options
def command(file: str, fmt: str, output: str | None) -> int:
    """Classify the linker errors in FILE (a cargo log, JSON messages, a Make log, raw stderr).

    Exit 0 when no linker problem is found, 1 when any is.
    """
    from linkgate import repofs
    from linkgate.diagnose import classify_stream
    from linkgate.errors import UsageError
    from linkgate.report import emit

    source = None if file == "-" else file
    run_doc: dict[str, Any] | None = None
    if file == "-":
        run_doc, stream = _run_document(sys.stdin.buffer)
        diags = [] if run_doc is not None else classify_stream(stream)
    else:
        try:
            # A regular file within the limit, checked before it is opened: a FIFO
            # would block, /dev/zero never ends (docs/configuration.md).
            with open(repofs.check(file, inside=None, limit=repofs.MAX_LOG), "rb") as fh:
                run_doc, stream = _run_document(fh)
                diags = [] if run_doc is not None else classify_stream(stream)
        except OSError as exc:
            raise UsageError(f"cannot read {file}: {exc.strerror}", hint="give a readable log file, or - for stdin") from None
    report = build_report(diags, source) if run_doc is None else explain_run(run_doc, source)
    emit(report, fmt, output)
    return int(report.exit_code)


# A `linkgate run --format json` document names its schema first (report/jsonfmt.py):
# a log is never read whole unless its first bytes say it is one.
_RUN_HEAD = re.compile(rb'^\s*\{\s*"schema"\s*:\s*"linkgate\.run/1"')


def _run_document(fh: Any) -> tuple[dict[str, Any] | None, Any]:
    """The run document *fh* holds, else None and a stream that reads *fh* from its start."""
    import io
    import json

    from linkgate import repofs
    from linkgate.errors import UsageError

    head = fh.peek(256)[:256] if hasattr(fh, "peek") else b""
    if not _RUN_HEAD.match(head):
        return None, fh
    # As `report merge` reads a leg's document: at most MAX_PAYLOAD, never a log's 512 MiB in memory.
    data = fh.read(repofs.MAX_PAYLOAD + 1)
    if len(data) > repofs.MAX_PAYLOAD:
        raise UsageError(f"the input begins as a linkgate.run/1 document but is larger than "
                         f"{repofs.MAX_PAYLOAD // repofs.MIB} MiB",
                         hint="pass the file `linkgate run --format json --output FILE` wrote, or a build log")
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None, io.BytesIO(data)
    from linkgate.ci.matrix import bad_result  # what a merged report could not render

    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list) or not all(
            isinstance(r, dict) and all(isinstance(r.get(k), str) for k in ("gate", "linker", "verdict"))
            and not bad_result(r) for r in results):
        return None, io.BytesIO(data)
    return doc, None


def explain_run(doc: dict[str, Any], source: str | None) -> Any:
    """A run's result explained again: each leg's verdict and diagnostics (lto-skipped
    among them) and how its files differed from the first linker's, as `run` printed
    them; findings for the annotating formats as `report merge` makes them."""
    from linkgate.gate.report import render_human, render_markdown, report_from_results
    from linkgate.report import Report

    merged = report_from_results(doc["results"])
    name = source or "stdin"
    problems = len(merged.findings)
    merged = replace(merged, summary=f"{problems} finding(s) in the run document {name} ({merged.summary})")
    return Report(
        command="explain",
        document={"schema": SCHEMA, "source": source,
                  "diagnostics": [dict(d, gate=r["gate"], linker=r["linker"])
                                  for r in doc["results"] for d in r["diagnostics"]],
                  "divergence": [dict(d, gate=r["gate"], linker=r["linker"])
                                 for r in doc["results"] for d in r.get("divergence") or []]},
        findings=merged.findings, cases=merged.cases,
        summary=merged.summary,
        human=lambda _, console: render_human(merged, console),
        markdown=lambda _: render_markdown(merged),
        exit_code=1 if problems else 0,
    )


def build_report(diags: list[Any], source: str | None) -> Any:
    from linkgate.report import Case, Finding, Report

    findings = []
    for d in diags:
        subject = d.shown_symbol or d.library
        message = f"{d.kind}" + (f": {subject}" if subject else "") + (f" ({d.count}x)" if d.count > 1 else "")
        message += f"\n{d.message}"
        # Point at the recipe line when a build script is involved, else at the log.
        if d.directives:
            file, line = d.directives[0].output_file, d.directives[0].line
        else:
            file, line = source, d.line
        findings.append(Finding(d.kind, "error", message, file, line, d.hint))
    name = source or "stdin"
    case = Case(
        "linkgate explain", name, ok=not diags,
        message=f"{len(diags)} linker problem(s)" if diags else "",
        details="\n\n".join(f.message + (f"\nhint: {f.hint}" if f.hint else "") for f in findings),
    )
    return Report(
        command="explain",
        document={"schema": SCHEMA, "source": source, "diagnostics": [d.to_dict() for d in diags]},
        findings=findings,
        cases=[case],
        summary=f"{len(diags)} linker problem(s) in {name}" if diags else f"no linker problem in {name}",
        human=_human,
        exit_code=1 if diags else 0,
    )


def _human(report: Any, console: Any) -> None:
    from linkgate.console import escape

    diags = report.document["diagnostics"]
    for d in diags:
        subject = d["demangled"] or d["symbol"] or d["library"] or ""
        head = f"[bold red]{d['kind']}[/]"
        if subject:
            head += f" [bold]{escape(subject)}[/]"
        meta = ", ".join(x for x in (d["linker"], f"{d['count']}x" if d["count"] > 1 else None,
                                     f"line {d['line']}" if d["line"] else None) if x)
        console.print(f"{head} [dim]({escape(meta)})[/]" if meta else head)
        console.print(f"  [yellow]> {escape(d['message'])}[/]")
        if d["referenced_from"]:
            console.print(f"  referenced from {escape(d['referenced_from'])}")
        for r in d["directives"]:
            where = f"{r['output_file']}:{r['line']}"
            console.print(f"  recipe: [cyan]cargo::{escape(r['key'])}={escape(r['value'])}[/] [dim]{escape(where)}[/]")
        if d["build_script"]:
            console.print(f"  build script: {escape(d['build_script'])}")
        if d["hint"]:
            console.print(f"  [green]hint:[/] {escape(d['hint'])}")
        console.print()
    console.print(report.summary)

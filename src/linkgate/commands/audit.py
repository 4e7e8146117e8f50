"""`linkgate audit`: map how CI exercises each feature set and report what it never links."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from linkgate.audit.model import DEFAULT_SEVERITY, RawFinding
from linkgate.config import AuditConfig, AuditIgnore

from linkgate.commands.options import config_option, format_options
from linkgate.errors import EXIT_FINDING, EXIT_OK, UsageError
from linkgate.report.model import count


@click.command("audit")
@click.option(
    "--repo",
    "repo_dir",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="Repository whose .github/workflows to read.",
)
@click.option("--verbose", "-v", is_flag=True, help="List every path a grouped finding is about.")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Print what was read of each step, per workflow and job (read, partly read, unread).")
@config_option
@format_options
def command(repo_dir: str, config_path: str | None, fmt: str, output: str | None, verbose: bool = False,
            show_coverage: bool = False) -> int:
    """Show which feature sets CI checks but never links.

    Reads .github/workflows/*.yml (and the Makefile targets and scripts they
    call), never runs anything from them. linkgate.toml is optional here.
    """
    from linkgate.report import emit

    repo = Path(repo_dir)
    if not repo.is_dir():
        raise UsageError(f"{repo_dir} is not a directory", hint="pass --repo DIR with the repository root")
    repo = repo.resolve()
    config, cfg_file = _load_config(repo, config_path)
    check_rule_names(config, cfg_file)
    from linkgate.audit.run import run_audit

    result = run_audit(repo)
    settled = settle(result.findings, config)
    report = _report(result, settled, verbose, show_coverage)
    emit(report, fmt, output)
    from linkgate.report import annotate as ci

    ci.annotate(report, fmt, output)
    return int(report.exit_code)


@dataclass(frozen=True)
class Settled:
    """Findings after the configured severities and ignores."""

    kept: list[tuple[RawFinding, str]]
    ignored: list[tuple[RawFinding, str]]
    unused_ignores: list[AuditIgnore]


def settle(findings: list[RawFinding], config: AuditConfig) -> Settled:
    """Apply ``[audit] severity`` (error|warning|note|off) and ``[[audit.ignore]]``.

    An ignore names a finding and, optionally, a regex searched in the
    finding's message and subject (the feature set, job or directory)."""
    kept: list[tuple[RawFinding, str]] = []
    ignored: list[tuple[RawFinding, str]] = []
    used: set[int] = set()
    for f in findings:
        level = config.severity.get(f.rule, DEFAULT_SEVERITY.get(f.rule, "warning"))
        if level == "off":
            continue
        if f.unless and level == "error":
            level = "warning"  # an unread step could contradict it: not stated as fact
        hit = next(
            (
                i
                for i, ig in enumerate(config.ignore)
                if ig.finding == f.rule and (ig.match is None or re.search(ig.match, f.message) or re.search(ig.match, f.subject))
            ),
            None,
        )
        if hit is None:
            kept.append((f, level))
        else:
            used.add(hit)
            ignored.append((f, config.ignore[hit].reason))
    unused = [ig for i, ig in enumerate(config.ignore) if i not in used]
    from linkgate.audit.rank import ranked_levels

    return Settled(ranked_levels(kept), ignored, unused)


def check_rule_names(config: AuditConfig, path: str | None) -> None:
    """A misspelt finding name in the configuration would silently do nothing."""
    import difflib

    from linkgate.errors import ConfigError

    names = list(DEFAULT_SEVERITY)
    keys = [("audit.severity." + k, k) for k in config.severity] + [
        (f"audit.ignore[{i}].finding", ig.finding) for i, ig in enumerate(config.ignore)
    ]
    for key, name in keys:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            raise ConfigError(
                f"unknown audit finding {name!r}", file=path, key=key,
                hint=f"did you mean {close[0]!r}?" if close else "findings: " + ", ".join(names),
            )


def _load_config(repo: Path, config_path: str | None) -> tuple[Any, str | None]:
    """The audit needs no gates: use the configuration when there is one."""
    from linkgate import config as config_mod
    from linkgate.errors import ConfigError

    if config_path is not None:
        cfg = config_mod.load(config_path)
        return cfg.audit, str(cfg.path)
    try:
        found = config_mod.find_config(repo)
    except ConfigError:
        return config_mod.AuditConfig(), None
    cfg = config_mod.load(found)
    return cfg.audit, str(cfg.path)


def _report(result: Any, settled: Any, verbose: bool = False, show_coverage: bool = False) -> Any:
    from linkgate.audit.readcoverage import coverage_json
    from linkgate.report import Case, Finding, Report

    findings = [
        Finding(rule=f.rule, level=level, message=f.message, file=f.file, line=f.line, hint=f.hint)
        for f, level in settled.kept
    ]
    for ig in settled.unused_ignores:
        findings.append(
            Finding("unused-ignore", "note", f"ignore for {ig.finding!r} matched nothing: {ig.reason}",
                    hint="remove it from [[audit.ignore]]")
        )
    document: dict[str, Any] = {
        "schema": "linkgate.audit/1",
        "workflows": result.workflows,
        "invocations": [invocation_json(c) for c in result.classified],
        "findings": [_finding_json(f, level) for f, level in settled.kept],
        "ignored": [dict(_finding_json(f, None), reason=reason) for f, reason in settled.ignored],
        "skipped_checks": result.skipped_checks,
        "notes": result.notes,
        "coverage": coverage_json(result.coverage),
    }
    cases = [
        Case(suite=f"audit.{f.rule}", name=f"{f.file}:{f.line}" if f.file else f.rule,
             ok=f.level != "error", message=f.message)
        for f in findings
    ]
    errors = sum(1 for f in findings if f.level == "error")
    cases.append(Case(suite="audit", name="workflows", ok=errors == 0,
                      message=f"{len(result.classified)} cargo invocations in {len(result.workflows)} workflows"))
    summary = (
        f"{count(len(result.classified), 'cargo invocation')} in {count(len(result.workflows), 'workflow')}; "
        f"{count(len(findings), 'finding')} ({count(errors, 'error')}), {len(settled.ignored)} ignored"
    )
    return Report(
        command="audit", document=document, findings=findings, cases=cases, summary=summary,
        human=lambda rep, console: _human(rep, console, verbose, show_coverage), markdown=_markdown,
        exit_code=EXIT_FINDING if errors else EXIT_OK,
    )


def _finding_json(f: Any, level: str | None) -> dict[str, Any]:
    out = {"rule": f.rule, "level": level, "message": f.message, "file": f.file, "line": f.line,
           "subject": f.subject, "hint": f.hint, "paths": list(f.paths), "suggest": list(f.suggest),
           "unless": list(f.unless), "sets": list(f.sets), "axis": f.axis or None}
    if level is None:
        del out["level"]
    return out


def invocation_json(c: Any) -> dict[str, Any]:
    from linkgate.audit.classify import target_dir

    inv, call = c.inv, c.call
    return {
        "workflow": inv.workflow.rel,
        "file": inv.file,
        "line": inv.line,
        "job": inv.job.id,
        "job_name": inv.job.name,
        # A reusable workflow's job as GitHub shows it in its caller's run (`caller / called`),
        # and the jobs that called it, outermost first.
        "job_label": c.job_label,
        "called_by": [{"workflow": s.workflow.rel, "job": s.job.id, "line": s.line,
                       "matrix": dict(s.matrix) if s.matrix is not None else None} for s in inv.callers],
        "step": inv.step.label,
        "program": call.program,
        "toolchain": call.toolchain,
        "subcommand": call.subcommand,
        "exercise": c.exercise,
        "links": c.links,
        "features": list(call.features),
        "no_default_features": call.no_default_features,
        "all_features": call.all_features,
        "hack": call.hack,
        "feature_sets": list(dict.fromkeys(fs.label for fs in c.feature_sets)),  # one per package: labels once
        "feature_sets_by_package": [fs.qualified for fs in c.feature_sets],
        "packages": list(call.packages),
        "workspace": call.workspace,
        "exclude": list(call.exclude),
        "profile": call.profile,
        "targets": list(call.targets),
        "target_triples": list(call.target_triples),
        "target_dir": target_dir(c),
        "cwd": inv.cwd,
        "argv": list(inv.argv),
        "via": list(inv.via),
        "matrix": dict(inv.matrix) if inv.matrix is not None else None,
        "trigger": c.trigger.to_json(),
        "runs_on": list(inv.runs_on),
        "self_hosted": inv.self_hosted,
        "timeout_minutes": inv.step.timeout_minutes or inv.job.timeout_minutes,
        "unknown": sorted(set(inv.unknown)),
        "conditional": inv.conditional,
        "conditions": list(inv.conditions),
    }


def _exercise_rows(report: Any) -> list[tuple[str, dict[str, list[str]]]]:
    """Feature set label -> exercise -> job labels, from the JSON document."""
    from linkgate.audit.model import EXERCISE_ORDER

    rows: dict[str, dict[str, list[str]]] = {}
    for inv in report.document["invocations"]:
        if inv["exercise"] not in EXERCISE_ORDER:
            continue
        stem = inv["workflow"].rsplit("/", 1)[-1].rsplit(".", 1)[0]
        for label in inv.get("feature_sets_by_package") or inv["feature_sets"]:
            jobs = rows.setdefault(label, {k: [] for k in EXERCISE_ORDER}).setdefault(inv["exercise"], [])
            name = inv.get("job_label") or f"{stem}/{inv['job']}"
            if name not in jobs:
                jobs.append(name)
    return sorted(rows.items())


def _human(report: Any, console: Any, verbose: bool = False, show_coverage: bool = False) -> None:
    from rich.table import Table

    from linkgate.console import escape

    from linkgate.audit.model import EXERCISE_ORDER

    table = Table(title="How CI exercises each feature set", show_lines=False)
    table.add_column("feature set", style="bold", overflow="fold")
    for col in EXERCISE_ORDER:
        table.add_column(col, overflow="fold")
    for label, cells in _exercise_rows(report):
        table.add_row(label, *(", ".join(cells[c]) or "[dim]-[/]" for c in EXERCISE_ORDER))
    console.print(table)
    if show_coverage:
        _print_coverage(console, report.document["coverage"])
    _print_findings(console, report.document, verbose)
    for note in report.document["notes"]:
        console.print(f"[dim]note: {escape(note)}[/]", highlight=False)
    for item in report.document["ignored"]:
        console.print(f"[dim]ignored {item['rule']} at {item['file']}:{item['line']}: {item['reason']}[/]",
                      highlight=False)
    console.print(report.summary, highlight=False)


def _print_findings(console: Any, document: dict[str, Any], verbose: bool) -> None:
    """Grouped by rule, in rank order; at most four lines a finding unless --verbose."""
    from linkgate.console import escape

    rule = None
    for f in document["findings"]:
        if f["rule"] != rule:
            rule = f["rule"]
            count = sum(1 for g in document["findings"] if g["rule"] == rule)
            console.print(f"[bold]{rule}[/] ({count})", highlight=False)
        where = f"{f['file']}:{f['line']}: " if f["file"] and f["line"] else (f"{f['file']}: " if f["file"] else "")
        style = {"error": "bold red", "warning": "yellow", "note": "cyan"}[f["level"]]
        console.print(f"  [{style}]{f['level']}[/] {escape(where + f['message'])}", highlight=False)
        if f["hint"]:
            console.print(f"    [dim]hint:[/] {escape(f['hint'])}", highlight=False)
        if verbose:
            for path in f["paths"]:
                console.print(f"    {escape(path)}", highlight=False)


def _print_coverage(console: Any, cov: dict[str, Any]) -> None:
    """Per workflow and job, one line a step; what was not read under it, with the lines to look at."""
    from linkgate.console import escape

    style = {"read": "green", "partly read": "yellow", "unread": "red"}
    for wf in cov["workflows"]:
        console.print(f"[bold]{escape(wf['workflow'])}[/]", highlight=False)
        for job in wf["jobs"]:
            console.print(f"  job {escape(job['job'])}", highlight=False)
            for step in job["steps"]:
                console.print(f"    [{style[step['status']]}]{step['status']}[/] line {step['line']}: "
                              f"{escape(step['label'])}", highlight=False)
                for gap in step["gaps"]:
                    what = f"{gap['what']}: " if gap["what"] else ""
                    console.print(f"      {escape(gap['file'])}:{gap['line']}: {escape(what + gap['why'])}",
                                  highlight=False)
                    for m in gap["mentions"]:
                        console.print(f"        [dim]{escape(m['file'])}:{m['line']}: {escape(m['text'])}[/]",
                                      highlight=False)
    if cov["files"]:
        console.print("[bold]files reached[/]", highlight=False)
    for f in cov["files"]:
        why = f" ({'; '.join(f['reasons'])})" if f["reasons"] else ""
        console.print(f"  [{style[f['status']]}]{f['status']}[/] {escape(f['file'])} [dim]{f['kind']}[/]"
                      f"{escape(why)}", highlight=False)
    t, ft = cov["totals"], cov["file_totals"]
    console.print(f"read coverage: {t['read']} read, {t['partly read']} partly read, {t['unread']} unread "
                  f"of {t['steps']} steps; files: {ft['read']} read, {ft['partly read']} partly read, "
                  f"{ft['unread']} unread", highlight=False)


def _markdown(report: Any) -> str:
    from linkgate.audit.model import EXERCISE_ORDER
    from linkgate.report.markdown import cell, code

    lines = ["### linkgate audit", "", report.summary, ""]
    t = report.document["coverage"]["totals"]
    if t["steps"]:
        lines += [f"Read coverage: {t['read']} of {t['steps']} steps read, {t['partly read']} partly read, "
                  f"{t['unread']} unread (`linkgate audit --coverage` lists them).", ""]
    lines += ["| feature set | " + " | ".join(EXERCISE_ORDER) + " |", "|---" * (len(EXERCISE_ORDER) + 1) + "|"]
    for label, cells in _exercise_rows(report):
        lines.append(f"| {code(label, True)} | " + " | ".join(cell(", ".join(cells[c])) or "-" for c in EXERCISE_ORDER) + " |")
    lines.append("")
    if report.findings:
        lines += ["| level | rule | where | message |", "|---|---|---|---|"]
        for f in report.findings:
            where = code(f"{f.file}:{f.line}" if f.line else f.file, True) if f.file else ""
            lines.append(f"| {f.level} | {code(f.rule, True)} | {where} | {cell(f.message)} |")
    else:
        lines.append("No findings.")
    return "\n".join(lines) + "\n"


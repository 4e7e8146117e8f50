"""Render prove outcomes: human, Markdown evidence for a pull request, JSON."""

from __future__ import annotations

from typing import Any

from linkgate.errors import EXIT_ERROR, EXIT_FINDING, EXIT_OK
from linkgate.prove.run import CAUGHT, ERROR, SKIPPED, ControlOutcome
from linkgate.report.markdown import code, fenced
from linkgate.report.model import Case, Finding, Report

SCHEMA = "linkgate.prove/1"
_STYLE = {CAUGHT: "bold green", "not-reproduced": "bold red", "wrong-failure": "bold yellow",
          "restore-failed": "bold red", ERROR: "bold magenta", SKIPPED: "dim"}


def exit_code(outcomes: list[ControlOutcome]) -> int:
    # A control with its own linkers is judged only under them; the rest are skipped, not passed.
    judged = [o for o in outcomes if o.outcome != SKIPPED]
    if judged and all(o.outcome == CAUGHT for o in judged):
        return EXIT_OK
    if any(o.outcome not in (CAUGHT, ERROR) for o in outcomes):
        return EXIT_FINDING
    return EXIT_ERROR


def key_line(o: ControlOutcome) -> str:
    m = o.mutated
    if m is None:
        return ""
    if m.diagnostics:
        return str(m.diagnostics[0].message)
    return m.linker_lines[0] if m.linker_lines else ""


def build_report(outcomes: list[ControlOutcome]) -> Report:
    code = exit_code(outcomes)
    doc = {"schema": SCHEMA, "status": "pass" if code == EXIT_OK else "fail",
           "controls": [o.to_dict() for o in outcomes]}
    findings = [
        Finding(rule=o.outcome, level="error", message=f"control {o.name} [{o.linker}] on gate {o.gate}: {o.reason}",
                file=o.file or None)
        for o in outcomes if o.outcome not in (CAUGHT, SKIPPED)
    ]
    cases = [
        Case(suite="linkgate.prove", name=f"{o.name} [{o.linker}]", ok=o.outcome == CAUGHT,
             message="" if o.outcome == CAUGHT else f"{o.outcome}: {o.reason}", details=o.diff,
             duration_s=_dur(o), skipped=o.outcome == SKIPPED)
        for o in outcomes
    ]
    caught = sum(o.outcome == CAUGHT for o in outcomes)
    skips = sum(o.outcome == SKIPPED for o in outcomes)
    return Report(command="prove", document=doc, findings=findings, cases=cases,
                  summary=f"{caught} of {len(outcomes) - skips} (control, linker) pairs caught"
                  + (f", {skips} skipped (the control names other linkers)" if skips else ""),
                  human=render_human, markdown=render_markdown, exit_code=code)


def _dur(o: ControlOutcome) -> float:
    return sum(r.duration_s for r in (o.mutated, o.restored) if r is not None)


def render_human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    for c in report.document["controls"]:
        style = _STYLE.get(c["outcome"], "bold")
        console.print(f"[{style}]{c['outcome']:>15}[/]  [bold]{escape(c['name'])}[/] \\[{c['linker']}] "
                      f"on gate {escape(c['gate'])}" + (f" ({escape(c['file'])})" if c["file"] else ""))
        console.print(f"{'':17}{escape(c['reason'])}")
        for phase in ("mutated", "restored"):
            sub = c[phase]
            if sub is None:
                continue
            label = "with the defect" if phase == "mutated" else "restored"
            console.print(f"{'':17}{label}: {sub['verdict']} ({sub['duration_s']:.1f} s)")
            if phase == "mutated":
                for d in sub["diagnostics"][:2]:
                    console.print(f"{'':19}[red]{d['kind']}[/]: {escape(d['message'])}")
        for n in c["notes"]:
            console.print(f"{'':17}[yellow]note:[/] {escape(n)}")
    ok = report.document["status"] == "pass"
    console.print(f"[{'bold green' if ok else 'bold red'}]{report.document['status'].upper()}[/]: {report.summary}")


def render_markdown(report: Report) -> str:
    out = ["### Negative controls (linkgate prove)", "",
           "| control | gate | linker | with the defect | restored | outcome | time |",
           "|---|---|---|---|---|---|---|"]
    for c in report.document["controls"]:
        m, r = c["mutated"] or {}, c["restored"] or {}
        t = (m.get("duration_s") or 0) + (r.get("duration_s") or 0)
        out.append(f"| {code(c['name'], True)} | {code(c['gate'], True)} | {c['linker']} | {m.get('verdict', '-')} | "
                   f"{r.get('verdict', '-')} | **{c['outcome']}** | {t:.1f} s |")
    seen = set()
    for c in report.document["controls"]:
        if c["name"] in seen or c["outcome"] == SKIPPED:
            continue
        seen.add(c["name"])
        head = f"#### {code(c['name'])}" + (f": mutation of {code(c['file'])}" if c["file"] else "")
        out += ["", head, ""]
        if c["mutation"].strip():
            out += fenced(c["mutation"].rstrip().splitlines(), "diff")
        for k in report.document["controls"]:
            if k["name"] != c["name"]:
                continue
            line = ""
            if k["mutated"] and k["mutated"]["diagnostics"]:
                line = k["mutated"]["diagnostics"][0]["message"]
            elif k["mutated"] and k["mutated"]["linker_output"]:
                line = k["mutated"]["linker_output"][0]
            out.append(f"- {k['linker']}: **{k['outcome']}**" + (" (replayed)" if k.get("replayed") else "")
                       + f": {k['reason']}" + (f"  \n  key linker line: {code(line)}" if line else "")
                       + (f"  \n  why: {k['explanation']}" if k.get("explanation") else ""))
    out += ["", f"**{report.document['status'].upper()}**: {report.summary}"]
    return "\n".join(out) + "\n"

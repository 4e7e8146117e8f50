"""Turn GateResults into a Report: the JSON document, findings, cases, renderers."""

from __future__ import annotations

from typing import Any

from linkgate.errors import EXIT_ERROR, EXIT_FINDING, EXIT_OK
from linkgate.gate.run import COMPILE_FAILED, LINK_FAILED, LINKED, LINKER_OVERRIDDEN, GateResult
from linkgate.report.markdown import code, fenced
from linkgate.report.model import Case, Finding, Level, Report

SCHEMA = "linkgate.run/1"

_STYLE = {LINKED: "bold green", LINK_FAILED: "bold red", COMPILE_FAILED: "bold yellow"}
_SHOWN_LINKER_LINES = 12


def _diverged(r: GateResult) -> bool:
    """The leg's files differ from the first linker's and the gate sets divergence = "fail",
    or it linked GCC LTO bytecode without GCC's plugin and the gate fails lto-skipped."""
    return (any(d.level == "error" for d in r.divergence or ())
            or (r.verdict == LINKED and any(d.kind == "lto-skipped" and d.level == "error" for d in r.diagnostics)))


def exit_code(results: list[GateResult]) -> int:
    if any(r.verdict == LINK_FAILED or _diverged(r) for r in results):
        return EXIT_FINDING
    if any(r.verdict != LINKED for r in results):
        return EXIT_ERROR
    return EXIT_OK


def build_report(results: list[GateResult]) -> Report:
    code = exit_code(results)
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "status": "pass" if code == EXIT_OK else "fail",
        "results": [r.to_dict() for r in results],
    }
    report = Report(
        command="run",
        document=document,
        findings=[f for r in results for f in findings(r)],
        cases=[case(r) for r in results],
        summary=summary_line(results),
        human=render_human,
        markdown=render_markdown,
        exit_code=code,
    )
    return report


def summary_line(results: list[GateResult]) -> str:
    ok = sum(r.ok for r in results)
    fresh = sum(r.ok and not r.proven for r in results)
    text = f"{ok} of {len(results)} (gate, linker) pairs linked"
    if fresh:
        text += f", {fresh} of them NOT proven (nothing linked in this run)"
    diverged = sum(bool(r.divergence) for r in results)
    if diverged:
        text += f", {diverged} with files that differ from the first linker's"
    return text


def headline(r: GateResult) -> str:
    if r.verdict == LINKED:
        if not r.proven:
            return "linked, NOT proven: " + (r.messages[0].splitlines()[0] if r.messages else "nothing linked in this run")
        how = "forced relink of " if r.forced_relink else ""
        names = ", ".join(sorted({a.target + (" (test)" if a.test else "") for a in r.linked}))
        return f"linked ({how}{names})"
    if r.verdict == LINK_FAILED:
        return "link failed: " + ", ".join(r.failed_targets)
    if r.verdict == COMPILE_FAILED:
        return headline_of({"verdict": r.verdict})
    if r.verdict == LINKER_OVERRIDDEN:
        return "linker overridden: " + ", ".join(o["source"] for o in r.overrides)
    return "error: " + (r.messages[0].splitlines()[0] if r.messages else "unknown")


def headline_of(item: dict[str, Any]) -> str:
    if item["verdict"] == COMPILE_FAILED:
        return "did not compile; the link was never attempted (this is not a link verdict)"
    return str(item["verdict"])


def _divergence_findings(r: GateResult) -> list[Finding]:
    return [Finding(rule="divergence", level="error" if d.level == "error" else "warning",
                    message=f"{r.gate} [{r.linker}]: {d.target} differs from its {d.first} link: {d.detail}")
            for d in r.divergence or ()]


def findings(r: GateResult) -> list[Finding]:
    if r.verdict == LINKED:
        # A passing link can still carry warnings (lld's archive-order reports), and an
        # lto-skipped error under divergence-kinds.lto-skipped = "fail".
        return [
            Finding(rule=d.kind, level="error" if d.level == "error" else "warning",
                    message=f"{r.gate} [{r.linker}]: {d.message}",
                    file=_location(d)[0], line=_location(d)[1], hint=d.hint)
            for d in r.diagnostics if d.level == "warning" or d.kind == "lto-skipped"
        ] + _divergence_findings(r)
    if r.verdict == LINKER_OVERRIDDEN:
        # The link's own diagnostics are another linker's: not findings about this one.
        return [Finding(rule=r.verdict, level="error", message=f"{r.gate} [{r.linker}]: {m}")
                for m in r.messages[:len(r.overrides)]]
    out: list[Finding] = []
    for d in r.diagnostics:
        file, line = _location(d)
        out.append(
            Finding(
                rule=d.kind,
                level="warning" if d.level == "warning" else "error",
                message=f"{r.gate} [{r.linker}]: {d.message}",
                file=file,
                line=line,
                hint=d.hint,
            )
        )
    if not out:
        detail = (r.linker_lines or r.messages or [""])[0]
        out.append(
            Finding(
                rule=r.verdict,
                level="error",
                message=f"{r.gate} [{r.linker}]: {headline(r)}" + (f": {detail}" if detail else ""),
            )
        )
    return out


def _location(d: Any) -> tuple[str | None, int | None]:
    """Where an annotation points: the first Rust source line that references the
    symbol when the linker named one, else the build-script line that prints the
    first directive involved, else the build script."""
    from linkgate.diagnose.recipe import source_line

    if d.source:
        path, _, line = d.source.rpartition(":")
        if path and line.isdigit():
            return _relative(path), int(line)
    for r in d.directives:
        if r.build_script and (at := source_line(r.build_script, r)) is not None:
            return _relative(r.build_script), at
    return _relative(d.build_script), None


def _relative(path: str | None) -> str | None:
    """Annotations want repository-relative paths; the working directory is the checkout."""
    if not path:
        return None
    import os

    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def case(r: GateResult) -> Case:
    details = "\n".join(r.linker_lines or r.messages)
    failed_by = _diverged(r)
    if failed_by:
        # A leg that linked and fails the gate (divergence or lto-skipped set to "fail").
        details = "\n".join([*r.messages, *(f"{d.target}: {d.detail} ({d.kind})" for d in r.divergence or ()
                                             if d.level == "error"),
                             *(f"lto-skipped: {d.message}" for d in r.diagnostics
                               if d.kind == "lto-skipped" and d.level == "error")])
    return Case(
        suite="linkgate.run",
        name=f"{r.gate} [{r.linker}]",
        ok=r.ok and r.proven and not failed_by,
        message=headline(r) + ", and the gate fails it: see the details" if failed_by else
        ("" if r.ok else headline(r)),
        details=details,
        duration_s=r.duration_s,
    )


def render_human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    hints = _hints_by_problem(report.document["results"])
    hinted: set[str] = set()
    for item in report.document["results"]:
        r = _Row(item)
        style = _STYLE.get(r.verdict, "bold magenta")
        shown = r.verdict
        if r.verdict == LINKED and not item["proven"]:
            style, shown = "bold yellow", "unproven"
        console.print(
            f"[{style}]{shown:>14}[/]  [bold]{escape(r.gate)}[/] \\[{escape(r.linker)}]  {r.duration:.1f} s",
            highlight=False,
        )
        if r.verdict == COMPILE_FAILED:
            console.print(f"{'':16}[yellow]{headline_of(item)}[/]", highlight=False)
        for a in item["linked"]:
            where = f": {a['path']}" if a["path"] else ""
            console.print(f"{'':16}linked {a['target']} ({a['kind']}){where}", highlight=False, markup=False)
        matrix = item.get("matrix") or {}
        if matrix.get("replayed"):
            console.print(f"{'':16}[dim]relinked {escape(matrix['built_with'])}'s recorded links under this linker "
                          "(linker-matrix = replay: no second compile)[/]", highlight=False)
        if item["forced_relink"]:
            console.print(f"{'':16}[dim]cargo found everything fresh; linkgate deleted the executable and relinked it[/]")
        if item["verdict"] == LINK_FAILED:
            _render_failure(item, console, hints, hinted)
        for m in item["messages"]:
            for ln in m.splitlines()[:20]:
                console.print(f"{'':16}{ln}", highlight=False, markup=False)
        for w in item["warnings"]:
            console.print(f"{'':16}[yellow]warning:[/] {escape(w)}", highlight=False)
        _render_divergence(item.get("divergence") or [], console)
    status = report.document["status"]
    style = "bold green" if status == "pass" else "bold red"
    console.print(f"[{style}]{status.upper()}[/]: {escape(report.summary)}", highlight=False)


def _render_divergence(found: list[dict[str, Any]], console: Any) -> None:
    """One short block per target: what differs from the first linker's file."""
    from linkgate.console import escape

    by_target: dict[str, list[dict[str, Any]]] = {}
    for d in found:
        by_target.setdefault(d["target"], []).append(d)
    for target, items in by_target.items():
        style = "red" if any(d["level"] == "error" for d in items) else "yellow"
        console.print(f"{'':16}[{style}]differs from {escape(items[0]['linkers'][0])}:[/] [bold]{escape(target)}[/]",
                      highlight=False)
        for d in items:
            console.print(f"{'':18}{escape(d['detail'])} [dim]({escape(d['kind'])})[/]", highlight=False)


def _hints_by_problem(results: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each distinct hint, and where it applies: the linkers (``gate [linker]``
    when several gates share it). The same defect under five linkers is one
    problem with one remedy, stated once rather than five times."""
    where: dict[str, list[tuple[str, str]]] = {}
    for item in results:
        for d in item["diagnostics"]:
            if d.get("hint") and (item["gate"], item["linker"]) not in where.setdefault(d["hint"], []):
                where[d["hint"]].append((item["gate"], item["linker"]))
    out = {}
    for hint, pairs in where.items():
        gates = {g for g, _ in pairs}
        out[hint] = [ln for _, ln in pairs] if len(gates) == 1 else [f"{g} [{ln}]" for g, ln in pairs]
    return out


def _render_failure(item: dict[str, Any], console: Any, hints: dict[str, list[str]], shown: set[str]) -> None:
    """What a maintainer needs first: which target, what the linker said, which directive, which script."""
    from linkgate.console import escape

    pad = " " * 16
    for target in item["failed_targets"]:
        console.print(f"{pad}[bold]failed target:[/] {escape(target)}", highlight=False)
    for d in item["diagnostics"]:
        scripts: list[str] = [d["build_script"]] if d.get("build_script") else []
        subject = d.get("demangled") or d.get("symbol") or d.get("library")
        head = f"{pad}[red]{d['kind']}[/]" + (f" [bold]{escape(subject)}[/]" if subject else "")
        console.print(head + f": {escape(d['message'])}", highlight=False)
        if d.get("referenced_from"):
            console.print(f"{pad}  referenced from {escape(d['referenced_from'])}", highlight=False)
        if d.get("source"):
            path, _, line = d["source"].rpartition(":")
            console.print(f"{pad}  at {escape(f'{_relative(path)}:{line}')}", highlight=False)
        for rl in d.get("directives") or []:
            where = f"{rl['output_file']}:{rl['line']}"
            console.print(
                f"{pad}  directive: [cyan]cargo::{escape(rl['key'])}={escape(rl['value'])}[/] [dim]({escape(where)})[/]",
                highlight=False,
            )
            if rl.get("build_script") and rl["build_script"] not in scripts:
                scripts.append(rl["build_script"])
        for script in scripts:
            console.print(f"{pad}  build script: {escape(script)}", highlight=False)
        if d.get("hint") and d["hint"] not in shown:
            shown.add(d["hint"])
            applies = hints.get(d["hint"], [])
            label = f"hint ({', '.join(applies)})" if len(applies) > 1 else "hint"
            console.print(f"{pad}  [cyan]{escape(label)}:[/] {escape(d['hint'])}", highlight=False)
    lines = item["linker_output"]
    if lines:
        by_rustc = bool(item["diagnostics"]) and all(d.get("linker") == "rustc" for d in item["diagnostics"])
        console.print(f"{pad}[dim]{'rustc said (no linker ran):' if by_rustc else 'linker said:'}[/]")
        for ln in lines[:_SHOWN_LINKER_LINES]:
            console.print(f"{pad}  {ln}", highlight=False, markup=False)
        if len(lines) > _SHOWN_LINKER_LINES:
            console.print(f"{pad}  [dim]... {len(lines) - _SHOWN_LINKER_LINES} more lines (--format json)[/]")


class _Row:
    def __init__(self, item: dict[str, Any]) -> None:
        self.verdict: str = item["verdict"]
        self.gate: str = item["gate"]
        self.linker: str = item["linker"]
        self.duration: float = item["duration_s"]


def render_markdown(report: Report) -> str:
    lines = ["### linkgate run", "", "| gate | linker | verdict | linked | time |", "|---|---|---|---|---|"]
    for item in report.document["results"]:
        linked = ", ".join(code(a["target"], True) for a in item["linked"]) or "-"
        if item["forced_relink"]:
            linked += " (forced relink)"
        lines.append(
            f"| {code(item['gate'], True)} | {item['linker']} | **{item['verdict']}** | {linked} | {item['duration_s']:.1f} s |"
        )
    for item in report.document["results"]:
        if item["verdict"] == LINK_FAILED:
            failed = ", ".join(item["failed_targets"])
            what = f"{failed} failed to link" if failed else "a link failed"
            lines += ["", f"<details><summary>{item['gate']} [{item['linker']}]: {what}</summary>", ""]
            for d in item["diagnostics"]:
                lines.append(f"- **{d['kind']}**: {code(d['message'])}")
                lines += ["  - directive " + code(f"cargo::{r['key']}={r['value']}") for r in d.get("directives") or []]
                if d.get("build_script"):
                    lines.append(f"  - build script {code(d['build_script'])}")
            lines += ["", *fenced(item["linker_output"][:40]), "", "</details>"]
    for item in report.document["results"]:
        by_target: dict[str, list[dict[str, Any]]] = {}
        for d in item.get("divergence") or []:
            by_target.setdefault(d["target"], []).append(d)
        for target, found in by_target.items():
            failing = " (fails the gate)" if any(d["level"] == "error" for d in found) else ""
            lines += ["", f"<details><summary>{item['gate']} [{item['linker']}]: {code(target)} differs from "
                          f"{found[0]['linkers'][0]}{failing}</summary>", ""]
            lines += [f"- **{d['kind']}**: {code(d['detail'])}" for d in found]
            lines += ["", "</details>"]
    lines += ["", f"**{report.document['status'].upper()}**: {report.summary}"]
    return "\n".join(lines) + "\n"


def report_from_results(items: list[dict[str, Any]]) -> Report:
    """A Report from result documents (``report merge`` joins legs run elsewhere)."""
    failing = [i for i in items if any(d.get("level") == "error" for d in i.get("divergence") or [])
               or (i["verdict"] == LINKED and any(d.get("kind") == "lto-skipped" and d.get("level") == "error"
                                                  for d in i["diagnostics"]))]
    if failing or any(i["verdict"] == LINK_FAILED for i in items):
        code = EXIT_FINDING
    elif not items or any(i["verdict"] != LINKED for i in items):
        code = EXIT_ERROR
    else:
        code = EXIT_OK
    found: list[Finding] = []
    cases: list[Case] = []
    for i in items:
        where = f"{i['gate']} [{i['linker']}]"
        for d in i["diagnostics"]:
            level: Level = "warning" if d.get("level") == "warning" else "error"
            found.append(Finding(rule=d["kind"], level=level, message=f"{where}: {d['message']}",
                                 file=_relative(d.get("build_script")), hint=d.get("hint")))
        found += [Finding(rule="divergence", level="error" if d.get("level") == "error" else "warning",
                          message=f"{where}: {d['target']} differs from its {d['linkers'][0]} link: {d['detail']}")
                  for d in i.get("divergence") or []]
        if i["verdict"] != LINKED and not i["diagnostics"]:
            detail = (i.get("linker_output") or i.get("messages") or [""])[0]
            found.append(Finding(rule=i["verdict"], level="error",
                                 message=f"{where}: {i['verdict']}" + (f": {detail}" if detail else "")))
        ok = i["verdict"] == LINKED and bool(i["proven"]) and i not in failing
        cases.append(Case(suite="linkgate.run", name=where, ok=ok,
                          message="" if ok else i["verdict"] + (" (the gate fails it)" if i in failing else ""),
                          details="\n".join(i.get("linker_output") or i.get("messages") or []),
                          duration_s=float(i["duration_s"])))
    linked = sum(i["verdict"] == LINKED for i in items)
    diverged = sum(bool(i.get("divergence")) for i in items)
    return Report(
        command="run",
        document={"schema": SCHEMA, "status": "pass" if code == EXIT_OK else "fail", "results": items},
        findings=found, cases=cases,
        summary=f"{linked} of {len(items)} (gate, linker) pairs linked"
                + (f", {diverged} with files that differ from the first linker's" if diverged else ""),
        human=render_human, markdown=render_markdown, exit_code=code,
    )

"""`linkgate surface [GATE]`: what can change a gate's link line, and why."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, repo_option
from linkgate.errors import EXIT_FINDING, UsageError
from linkgate.report import Report, emit
from linkgate.report.markdown import cell, code


def _human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    doc = report.document
    label = " (approximate)" if doc["approximate"] else ""
    console.print(f"[bold]{doc['gate']}[/]: {doc['mode']} surface{label}", highlight=False)
    emits = _emits(doc)
    for p in doc["paths"]:
        console.print(f"  {escape(p['path'])}  [dim]{escape(_short(p['why'], emits))}[/]", highlight=False)
    for e in doc["env"]:
        console.print(f"  ${escape(e['var'])}  [dim]{escape(_short(e['why'], emits))}[/]", highlight=False)
    for note in doc.get("notes", []):
        console.print(f"  [yellow]note:[/] {escape(note)}", highlight=False)
    for f in report.findings:
        style = {"error": "bold red", "warning": "yellow", "note": "cyan"}[f.level]
        console.print(f"[{style}]{f.level}[/] {escape(f.message)}", highlight=False)


def _emits(doc: dict[str, Any]) -> dict[str, str]:
    """What each package's build script emits, as its own row says it (said once, there)."""
    import re

    out: dict[str, str] = {}
    for p in doc["paths"]:
        m = re.match(r"build script of package (\S+) emits (.+)$", p["why"])
        if m:
            out[m[1]] = m[2]
    return out


def _short(why: str, emits: dict[str, str]) -> str:
    """A row without the clause its package's build-script row already states."""
    for package, what in emits.items():
        why = why.replace(f"; the build script of package {package} emits {what}", "")
        why = why.replace(f"package {package}, which emits {what}", f"package {package}")
    return why


def _markdown(report: Report) -> str:
    doc = report.document
    lines = [f"### Surface of {code(doc['gate'])} ({doc['mode']}{', approximate' if doc['approximate'] else ''})", ""]
    lines += ["| path or variable | why |", "|---|---|"]
    lines += [f"| {code(p['path'], True)} | {cell(p['why'])} |" for p in doc["paths"]]
    lines += [f"| {code('$' + e['var'], True)} | {cell(e['why'])} |" for e in doc["env"]]
    lines += [""] + [f"- **{f.level}**: {f.message}" for f in report.findings]
    return "\n".join(lines) + "\n"


def _repo_top(root: Path) -> tuple[list[str], str, Path]:
    from linkgate import proc
    from linkgate.trigger.gitdiff import tracked_files

    top = Path(proc.run(["git", "rev-parse", "--show-toplevel"], cwd=root).stdout.strip())
    rel = os.path.relpath(root.resolve(), top.resolve())
    return tracked_files(top), "" if rel == "." else rel.replace(os.sep, "/") + "/", top


@click.command("surface")
@click.argument("gate", required=False)
@click.option("--build", "do_build", is_flag=True, help="Run the gate first, then read cargo's records.")
@click.option("--static", "static_mode", is_flag=True, help="Scan build-script source; no build needed (approximate).")
@click.option("--check-filter", is_flag=True, help="Report surface paths the gate's filter misses (exit 1) and dead rules.")
@config_option
@repo_option
@format_options
def command(gate: str | None, do_build: bool, static_mode: bool, check_filter: bool,
            config_path: str | None, fmt: str, output: str | None, repo: str | None = None) -> int:
    """List the files and environment variables that can change what GATE links.

    Built mode (default) reads the build-script records in the gate's target
    directory; static mode reads build-script source.
    """
    from linkgate.surface import static as staticscan
    from linkgate.surface import built as surface
    from linkgate.surface.filtercheck import check_filter as run_check
    from linkgate.trigger.gatedef import config_path as defining_file
    from linkgate.trigger.gitdiff import ignored_files
    from linkgate.trigger.gatefilter import gate_filter

    if do_build and static_mode:
        raise UsageError("--build and --static exclude each other")
    cfg = config_mod.load(config_path, root=repo)
    if gate is None and len(cfg.gates) != 1:
        raise UsageError("several gates are configured: name one", hint="gates: " + ", ".join(g.name for g in cfg.gates))
    selected = cfg.gate(gate) if gate else cfg.gates[0]
    if not selected.is_cargo:
        raise UsageError(f"gate {selected.name!r} runs a command, not cargo: linkgate cannot read its surface")
    if do_build:
        from linkgate.gate.run import run_gate

        for linker in selected.linkers:
            run_gate(cfg, selected, linker)
    result = staticscan.static(cfg, selected) if static_mode else surface.built(cfg, selected)
    defined_in = defining_file(cfg)
    if defined_in is not None:
        result.add_path(defined_in, f"defines gate {selected.name}: its cargo arguments, env and linkers; "
                        "should-run answers true for a change to them whatever the filter", config=True)
    document = {**result.to_dict(), "notes": result.notes}
    report = Report("surface", document=document, human=_human, markdown=_markdown)
    if check_filter:
        path_filter = gate_filter(cfg, selected)
        if path_filter is None:
            raise UsageError(f"gate {selected.name!r} has no paths or paths-from: there is no filter to check")
        files, prefix, top = _repo_top(cfg.root)
        plain = [prefix + p.path for p in result.paths if not p.outside and not p.path.endswith("**")]
        report.findings = run_check(result, path_filter, files, prefix, ignored_files(top, plain))
        document["findings"] = [
            {"rule": f.rule, "level": f.level, "message": f.message} for f in report.findings
        ]
        if any(f.rule in ("filter-misses-surface", "surface-path-unknown") and f.level == "error"
               for f in report.findings):
            report.exit_code = EXIT_FINDING
    emit(report, fmt, output)
    return report.exit_code

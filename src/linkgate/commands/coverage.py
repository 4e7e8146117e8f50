"""`linkgate coverage`: which link recipes a recorded run linked, and which none did."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, repo_option
from linkgate.errors import UsageError
from linkgate.report import Finding, Report, emit
from linkgate.report.markdown import code

if TYPE_CHECKING:
    from linkgate.coverage.status import Coverage

_STYLE = {"covered": "green", "indistinct": "yellow", "never-linked": "bold red", "never-selected": "red"}


def _human(report: Report, console: Any) -> None:
    from linkgate.console import escape

    doc = report.document
    runs = f"{doc['runs']} recorded run" + ("s" if doc["runs"] != 1 else "")
    console.print(f"[bold]coverage[/] of {len(doc['recipes'])} link recipes over {runs}"
                  + (f" from {escape(', '.join(doc['runners']))}" if doc["runners"] else ""), highlight=False)
    for r in doc["recipes"]:
        where = f"  [dim]{escape(r['file'])}" + (f":{r['line']}" if r["line"] else "") + "[/]" if r["file"] else ""
        console.print(f"  [{_STYLE[r['status']]}]{r['status']:<14}[/] {escape(r['name'])}{where}", highlight=False)
        for b in r["linked_by"]:
            commit = (b["commit"] or "")[:12]
            console.print(f"      linked by {escape(b['gate'])} {escape('[' + b['linker'] + ']')} on "
                          f"{escape(b['runner'] or 'unknown runner')} at {escape(b['date'])} {escape(commit)}",
                          highlight=False)
        if r["status"] != "covered":
            if r["status"] == "indistinct":
                why = f"{r['indistinct_runs']} linked run(s) printed its directives, but {r['cannot_tell']}"
            elif r["selected_by"]:
                why = f"selected by gate {', '.join(r['selected_by'])}, never linked"
            elif r["selectable_by"]:
                why = f"no gate's env selects it; gate {', '.join(r['selectable_by'])} could"
            else:
                why = "no gate builds for a target and features that select it"
            console.print(f"      [dim]{escape(why)}[/]", highlight=False)


def _markdown(report: Report) -> str:
    doc = report.document
    lines = ["### Link recipe coverage", "", "| recipe | status | where | linked by |", "|---|---|---|---|"]
    for r in doc["recipes"]:
        where = code(f"{r['file']}:{r['line']}" if r["line"] else r["file"], True) if r["file"] else ""
        by = "<br>".join(f"{b['gate']} [{b['linker']}] on {b['runner'] or 'unknown runner'}, {b['date']}"
                         for b in r["linked_by"]).replace("|", "\\|")
        lines.append(f"| {code(r['name'], True)} | {r['status']} | {where} | {by} |")
    return "\n".join(lines) + "\n"


def _findings(cov: Coverage) -> list[Finding]:
    out = []
    for item in cov.gaps:
        if item.status == "indistinct":
            msg = f"link recipe {item.recipe.name!r} cannot be told apart in the recorded runs: {item.cannot_tell}"
        elif item.status == "never-linked":
            msg = f"link recipe {item.recipe.name!r} was never linked by a recorded run"
        else:
            msg = f"link recipe {item.recipe.name!r} is selected by no gate's env, target or features"
        out.append(Finding(item.status, "warning", msg, item.recipe.file, item.recipe.line,
                           hint="add or change a gate so that it selects this recipe, and run it"))
    return out


@click.command("coverage")
@click.option("--suggest", is_flag=True, help="Propose [[recipe]] stanzas from the gates' build scripts.")
@click.option("--comment", is_flag=True, help="Print the text block a workflow comment needs: every gap by name.")
@click.option("--history", "history", type=click.Path(dir_okay=False), default=None,
              help="History database (default: .linkgate/history.sqlite, or $LINKGATE_HISTORY).")
@config_option
@repo_option
@format_options
def command(suggest: bool, comment: bool, history: str | None, config_path: str | None,
            fmt: str, output: str | None, repo: str | None = None) -> int:
    """Say which [[recipe]] entries a recorded run linked, on which runner, and which none did.

    \b
    covered         a run with verdict `linked` had the recipe active
    indistinct      a linked run printed its directives, but another branch prints them too
    never-linked    some gate selects it (or a run had it active), but no run linked it
    never-selected  no gate's env, target or features selects it
    """
    if suggest and comment:
        raise UsageError("--suggest and --comment exclude each other")
    cfg = config_mod.load(config_path, root=repo)
    if suggest:
        return _suggest(cfg, fmt, output)
    if not cfg.recipes:
        raise UsageError(
            f"no [[recipe]] is configured in {cfg.path}",
            hint="run `linkgate coverage --suggest` and add the stanzas it proposes",
        )
    from linkgate.coverage.load import load_coverage

    cov, _ = load_coverage(cfg, history)
    if comment:
        from linkgate.coverage.status import comment_block
        from linkgate.report import write_atomic

        text = comment_block(cov)
        if output:
            write_atomic(output, text)
        else:
            click.echo(text, nl=False)
        return 0
    report = Report("coverage", document=cov.to_dict(), human=_human, markdown=_markdown,
                    findings=_findings(cov))
    emit(report, fmt, output)
    return report.exit_code


def _suggest(cfg: config_mod.Config, fmt: str, output: str | None) -> int:
    from linkgate.coverage.scripts import propose

    proposal = propose(cfg)

    def human(report: Report, console: Any) -> None:
        from linkgate.console import escape

        for line in proposal.none_found():
            console.print(escape(line), highlight=False)
        for script in proposal.scripts:
            for note in script["notes"]:
                console.print(f"# note: {escape(script['file'])}: {escape(note)}", highlight=False)
        console.print(escape(proposal.toml()), highlight=False, end="")

    def markdown(report: Report) -> str:
        from linkgate.report.markdown import fenced

        if not proposal.suggestions:
            return "".join(f"{line}\n\n" for line in proposal.none_found())
        return "\n".join(fenced(proposal.toml().splitlines(), "toml")) + "\n"

    report = Report("coverage-suggest", document=proposal.to_dict(), human=human, markdown=markdown)
    emit(report, fmt, output)
    return 0

"""`linkgate report ...`: pages over the run history (`html`) and one verdict from legs (`merge`)."""

from __future__ import annotations

import click

from linkgate.commands import report_merge
from linkgate.commands.options import check_output, config_option, repo_option


@click.group("report")
def command() -> None:
    """Render reports over the recorded run history, or merge a matrix's legs."""


command.add_command(report_merge.command)


@command.command("html", short_help="Write one self-contained HTML page over the run history.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=check_output,
              help="Write the page here (default: .linkgate/report.html).")
@click.option("--history", "history", type=click.Path(dir_okay=False), default=None,
              help="History database (default: .linkgate/history.sqlite, or $LINKGATE_HISTORY).")
@click.option("--title", default=None, help="Page title (default: linkgate report for <repository>).")
@config_option
@repo_option
def html(output: str | None, history: str | None, title: str | None, config_path: str | None,
         repo: str | None = None) -> int:
    """Write one self-contained HTML page: cost over time, compile vs link, recipe coverage,
    latest verdicts and negative controls. No network, no scripts, no external fonts."""
    from datetime import datetime, timezone
    from pathlib import Path

    from linkgate import config as config_mod
    from linkgate.coverage.load import load_coverage
    from linkgate.coverage.matrix import matrix
    from linkgate.report import write_atomic
    from linkgate.htmlreport.page import render

    cfg = config_mod.load(config_path, root=repo)
    cov, runs = load_coverage(cfg, history)
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    text = render(runs, cov, matrix(cfg.recipes, runs),
                  title=title or f"linkgate report for {cfg.root.name}", generated=generated)
    if output:
        target = Path(output)
    else:
        from linkgate import statedir

        # Not through a symlink a repository committed as .linkgate/report.html:
        # write_atomic follows links, as a user's own -o path should.
        statedir.ensure(cfg.root)
        target = statedir.check_file(cfg.root, "report.html")
    write_atomic(target, text)
    click.echo(f"wrote {target}")
    return 0

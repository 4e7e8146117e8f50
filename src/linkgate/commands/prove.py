"""`linkgate prove`: negative controls."""

from __future__ import annotations

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, history_options, repo_option
from linkgate.progress import Progress
from linkgate.report import emit


@click.command("prove")
@click.argument("gates", nargs=-1)
@click.option("--control", "names", multiple=True, help="Run only this control (repeatable).")
@click.option("--allow-dirty", is_flag=True, help="Mutate files that have uncommitted changes.")
@click.option(
    "--replay", is_flag=True,
    help="Judge a file control by replaying the recorded links when its mutation only removes "
    "link directives the build script prints (checked by running the script alone).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr.")
@config_option
@repo_option
@format_options
@history_options
def command(
    gates: tuple[str, ...],
    names: tuple[str, ...],
    allow_dirty: bool,
    replay: bool,
    quiet: bool,
    config_path: str | None,
    repo: str | None,
    fmt: str,
    output: str | None,
    history_file: str | None,
    no_history: bool,
) -> int:
    """Reintroduce each configured defect, expect the gate to fail, restore, expect a pass.

    Files are journalled under .linkgate/ before they change and restored byte for byte,
    also after Ctrl-C, SIGTERM, or (on the next linkgate invocation) kill -9.
    """
    from linkgate.prove.run import prove
    from linkgate.history.recorder import Recorder
    from linkgate.prove.report import build_report

    cfg = config_mod.load(config_path, root=repo)
    with Recorder(cfg.root, history_file, not no_history) as history, Progress(enabled=not quiet) as progress:
        outcomes = prove(
            cfg, gates, names, allow_dirty=allow_dirty, replay=replay,
            phase=progress.phase, on_build=lambda d, log: progress.update(d, log),
        )
        for o in outcomes:
            progress.note(f"{o.name} [{o.linker}]: {o.outcome}")
        history.add_outcomes(outcomes)
    report = build_report(outcomes)
    emit(report, fmt, output)
    from linkgate.report import annotate as ci

    ci.annotate(report, fmt, output)
    if history.warning:
        click.echo(f"linkgate: warning: {history.warning}", err=True)
    return report.exit_code

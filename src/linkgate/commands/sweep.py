"""`linkgate sweep GATE`: which build-script link directives are load-bearing, under which linker."""

from __future__ import annotations

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, repo_option
from linkgate.errors import UsageError
from linkgate.report import emit


@click.command("sweep")
@click.argument("gate")
@click.option("--linker", "only_linkers", multiple=True, help="Sweep under this linker (repeatable; default: the gate's).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Parallel replays (default: cores).")
@click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr.")
@config_option
@repo_option
@format_options
def command(
    gate: str, only_linkers: tuple[str, ...], jobs: int | None, quiet: bool,
    config_path: str | None, fmt: str, output: str | None, repo: str | None = None,
) -> int:
    """Replay GATE's recorded links without each build-script directive in turn."""
    from linkgate.progress import Progress
    from linkgate.replay.report import build_report
    from linkgate.replay.sweep import sweep

    cfg = config_mod.load(config_path, root=repo)
    selected = cfg.gate(gate)
    for name in only_linkers:
        if name not in selected.linkers:
            from linkgate.tomlsource import did_you_mean

            close = did_you_mean(name, selected.linkers)
            raise UsageError(f"gate {gate!r} has no linker {name!r}",
                             hint=(close + " " if close else "") + "its linkers: " + ", ".join(selected.linkers))
    linkers = [ln for ln in selected.linkers if not only_linkers or ln in only_linkers]
    from linkgate.gate.run import require_linkers

    require_linkers((selected, ln) for ln in linkers)
    with Progress(enabled=not quiet) as progress:
        entries = sweep(cfg, selected, linkers, jobs=jobs, progress=progress.phase)
    report = build_report(selected.name, linkers, entries)
    emit(report, fmt, output)
    return report.exit_code

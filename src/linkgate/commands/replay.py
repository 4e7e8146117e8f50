"""`linkgate replay GATE`: link the gate's last recorded link commands again, without cargo."""

from __future__ import annotations

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, repo_option
from linkgate.errors import UsageError
from linkgate.report import emit


@click.command("replay")
@click.argument("gate")
@click.option("--linker", "only_linkers", multiple=True, help="Replay only this linker's recording (repeatable).")
@config_option
@repo_option
@format_options
def command(gate: str, only_linkers: tuple[str, ...], config_path: str | None, fmt: str, output: str | None,
            repo: str | None = None) -> int:
    """Re-run GATE's recorded links (from its last run) in linker time only."""
    from linkgate.gate.report import build_report
    from linkgate.replay.run import replay_gate

    cfg = config_mod.load(config_path, root=repo)
    selected = cfg.gate(gate)
    for name in only_linkers:
        if name not in selected.linkers:
            from linkgate.tomlsource import did_you_mean

            close = did_you_mean(name, selected.linkers)
            raise UsageError(f"gate {gate!r} has no linker {name!r}",
                             hint=(close + " " if close else "") + "its linkers: " + ", ".join(selected.linkers))
    from linkgate.gate.run import require_linkers

    chosen = [ln for ln in selected.linkers if not only_linkers or ln in only_linkers]
    require_linkers((selected, ln) for ln in chosen)
    results = [replay_gate(cfg, selected, ln) for ln in chosen]
    report = build_report(results)
    emit(report, fmt, output)
    return report.exit_code

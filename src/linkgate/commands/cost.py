"""`linkgate cost [GATE]`: what each gate costs per linker, and the job timeout to set."""

from __future__ import annotations

import click

from linkgate.commands.options import config_option, format_options, positive_finite, repo_option
from linkgate.errors import UsageError
from linkgate.report import emit


@click.command("cost")
@click.argument("gate", required=False)
@click.option("--budget-minutes-per-pr", "budget", type=float, callback=positive_finite, default=None,
              help="Also recommend when to run each gate: every PR, behind a path filter, or on a schedule.")
@click.option("--history", "history_file", type=click.Path(dir_okay=False), default=None,
              help="History database (default: $LINKGATE_HISTORY, else .linkgate/history.sqlite at the repository root).")
@config_option
@repo_option
@format_options
def command(gate: str | None, budget: float | None, history_file: str | None, config_path: str | None,
            fmt: str, output: str | None, repo: str | None = None) -> int:
    """Cold and warm wall time, link and compile time per gate and linker, from the history."""
    from linkgate.cost import COUNTED_VERDICTS, compute, recommend_trigger
    from linkgate.cost.report import build_report
    from linkgate.history.recorder import locate
    from linkgate.history.store import History, warn_skipped

    path = locate(history_file, config_path, repo)
    note = None
    if path.exists():
        with History.open(path, readonly=True) as history:
            samples = history.samples(gate=gate, verdicts=COUNTED_VERDICTS)
            warn_skipped(history)
            if gate is not None and not samples:
                known = sorted({s.gate for s in history.samples()})
                if known:
                    raise UsageError(f"no recorded run of gate {gate!r} in {path}",
                                     hint="gates with recorded runs: " + ", ".join(known))
    else:
        # Reading must not create the file: a typo in --history would leave a stray database.
        samples, note = [], f"no history at {path} yet: `linkgate run` records every run there"
    entries = compute(samples)
    if not entries and note is None:
        note = "no run that reached a link verdict is recorded" + (f" for gate {gate!r}" if gate else "")
    triggers = recommend_trigger(entries, budget) if budget is not None else None
    emit(build_report(entries, triggers, path, note), fmt, output)
    return 0

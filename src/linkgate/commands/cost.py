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
    own = _configured_gates(config_path, repo)
    if path.exists():
        with History.open(path, readonly=True) as history:
            samples = history.samples(gate=gate, verdicts=COUNTED_VERDICTS)
            warn_skipped(history)
            if own is not None and gate is None:
                # A history shared by several configurations (LINKGATE_HISTORY, --history):
                # this configuration's cost is its own gates', named apart from the rest.
                others = sorted({s.gate for s in samples} - own)
                samples = [s for s in samples if s.gate in own]
                if others:
                    import sys

                    sys.stderr.write(f"linkgate: note: left out recorded runs of {len(others)} gate(s) that this "
                                     f"configuration does not define ({', '.join(others[:5])}"
                                     f"{', ...' if len(others) > 5 else ''}); name one as GATE to see it\n")
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


def _configured_gates(config_path: str | None, repo: str | None) -> set[str] | None:
    """The gate names of the configuration in use, or None when there is none to read
    (``cost --history FILE`` outside a configured repository still reports every gate)."""
    from pathlib import Path

    from linkgate import config as config_mod
    from linkgate.errors import ConfigError

    try:
        found = Path(config_path) if config_path else config_mod.find_config(Path(repo) if repo else Path.cwd())
        cfg = config_mod.load(found, root=Path(repo) if repo else None)
    except ConfigError:
        if config_path:
            raise  # named on the command line: its errors are the user's to see
        return None
    return {g.name for g in cfg.gates}

"""Coverage of the configured recipes over the recorded history: the one entry point for
``coverage``, ``report html`` and ``ci github`` (which reuses ``status.comment_block``)."""

from __future__ import annotations

from linkgate.config import Config
from linkgate.coverage.status import Coverage
from linkgate.history.model import RunRecord


def load_coverage(config: Config, history: str | None = None) -> tuple[Coverage, list[RunRecord]]:
    """(coverage, every recorded row). *history* is ``--history``; then ``$LINKGATE_HISTORY``,
    then ``.linkgate/history.sqlite`` next to the configuration. A missing file reads as
    empty and is not created: a typo in ``--history`` must not leave a stray database."""
    from linkgate.gate.recipes import selectable_by, selected_by
    from linkgate.coverage.printed import cannot_tell
    from linkgate.coverage.status import coverage
    from linkgate.history.store import History, history_path, warn_skipped

    path = history_path(config.root, history)
    runs: list[RunRecord] = []
    if path.exists():
        with History.open(path, readonly=True) as store:
            runs = store.runs()
            warn_skipped(store)
    told = {name for r in runs for name in r.indistinct}
    return coverage(
        config.recipes, runs,
        {r.name: selected_by(config, r) for r in config.recipes},
        {r.name: selectable_by(config, r) for r in config.recipes},
        {r.name: cannot_tell(config.root, r) for r in config.recipes if r.name in told},
    ), runs

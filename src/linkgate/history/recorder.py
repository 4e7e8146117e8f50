"""How ``run`` and ``prove`` write their rows: open before building, append after.

Opening first means a foreign or corrupt history file stops the command
(exit 2) before anything is built. A failure while appending (disk full, a
lock held past the busy timeout) is only a warning: the link verdict is what
the caller ran for, and bookkeeping must not turn a pass into a failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from linkgate.errors import HistoryError
from linkgate.history.model import RunRecord

if TYPE_CHECKING:
    from linkgate.gate.run import GateResult
    from linkgate.prove.run import ControlOutcome


class Recorder:
    def __init__(self, root: Path, override: str | None, enabled: bool) -> None:
        from linkgate.history.store import History, history_path

        self.root = root
        self.path: Path | None = history_path(root, override) if enabled else None
        self.warning: str | None = None
        self.added = 0
        self._history = History.open(self.path) if self.path is not None else None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if self._history is not None:
            self._history.close()

    def add_results(self, results: Iterable[GateResult]) -> None:
        from linkgate.history import record

        if self._history is not None:
            self.add(record.from_results(results))

    def add_outcomes(self, outcomes: Iterable[ControlOutcome]) -> None:
        from linkgate.gate.measure import context
        from linkgate.history import record

        if self._history is not None:
            # Controls judged by replay carry results that no run_gate made: no context of their own.
            self.add(record.from_outcomes(outcomes, context(self.root)))

    def add(self, records: Iterable[RunRecord]) -> None:
        if self._history is None:
            return
        try:
            self.added += self._history.add(records)
        except HistoryError as exc:
            self.warning = f"the run was not recorded in the history: {exc.render()}"


def locate(override: str | None, config_path: str | None, repo: str | None = None) -> Path:
    """The history file for commands that only read or import: no configuration
    is needed when ``--history`` or ``$LINKGATE_HISTORY`` names the file. *repo*
    (``--repo``) is where the configuration is looked for instead of the cwd."""
    import os

    from linkgate.history.store import ENV_VAR, history_path

    if override or os.environ.get(ENV_VAR):
        return history_path(Path.cwd(), override)
    from linkgate import config as config_mod

    found = Path(config_path) if config_path else config_mod.find_config(Path(repo) if repo else Path.cwd())
    return history_path(found.resolve().parent, None)

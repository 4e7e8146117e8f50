"""Progress on stderr: a live line in a terminal, plain lines elsewhere.

Plain lines are written only at phase boundaries, so CI logs stay short.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

from linkgate.console import is_interactive


class Progress:
    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.live = enabled and is_interactive()
        self._status: Any = None
        self._label = ""
        self._last = 0.0

    def __enter__(self) -> Progress:
        if self.live:
            from linkgate.console import stderr_console

            self._status = stderr_console().status("starting")
            self._status.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def phase(self, label: str) -> None:
        self._label = label
        if not self.enabled:
            return
        if self._status is not None:
            self._status.update(label)
        else:
            sys.stderr.write(f"linkgate: {label}\n")
            sys.stderr.flush()

    def note(self, text: str) -> None:
        """A line kept in the log in both modes."""
        if not self.enabled:
            return
        if self._status is not None:
            from linkgate.console import stderr_console

            stderr_console().print(text, highlight=False)
        else:
            sys.stderr.write(f"linkgate: {text}\n")
            sys.stderr.flush()

    def update(self, detail: str, log: Any = None) -> None:
        """Called for every cargo message; refreshes the live line at most 10x a second."""
        if self._status is None:
            return
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        if log is not None:
            detail = f"{log.units_done} units compiled, last: {log.last_unit or '-'}"
        self._status.update(f"{self._label}: {detail}")

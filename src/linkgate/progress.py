"""Progress on stderr: a live line in a terminal, plain lines elsewhere.

Plain lines are written only at phase boundaries, so CI logs stay short.
Labels are text, never markup: a gate's linker is written ``[bfd]``, which
rich would otherwise take for a style tag and swallow.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

from linkgate.console import is_interactive


class _Elapsed:
    """The live line's text, rendered on every refresh, so the seconds keep
    counting while cargo is silent (a long link prints nothing for minutes)."""

    def __init__(self) -> None:
        self.text = "starting"
        self.started = time.monotonic()

    def __rich__(self) -> Any:
        from rich.text import Text

        # A Text, not a markup string: the label is shown exactly as written.
        line = Text(self.text)
        line.append(f" ({time.monotonic() - self.started:.0f} s)", style="dim")
        return line


class Progress:
    def __init__(self, enabled: bool = True, console: Any = None) -> None:
        """*console*: a rich Console to draw the live line on (default: stderr when it is a terminal)."""
        self.enabled = enabled
        self.live = enabled and (console is not None or is_interactive())
        self._console = console
        self._status: Any = None
        self._line = _Elapsed()
        self._label = ""
        self._last = 0.0

    def _rich(self) -> Any:
        if self._console is None:
            from linkgate.console import stderr_console

            self._console = stderr_console()
        return self._console

    def __enter__(self) -> Progress:
        if self.live:
            self._status = self._rich().status(self._line)
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
            self._line.text, self._line.started = label, time.monotonic()
            self._status.update(self._line)
        else:
            sys.stderr.write(f"linkgate: {label}\n")
            sys.stderr.flush()

    def note(self, text: str) -> None:
        """A line kept in the log in both modes."""
        if not self.enabled:
            return
        if self._status is not None:
            self._rich().print(text, highlight=False, markup=False)
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
        self._line.text = f"{self._label}: {detail}"
        self._status.update(self._line)

"""Terminal output: rich in a terminal, plain text everywhere else.

Renderers write rich markup (``[bold]...[/]``). In a terminal that goes
through rich; when stdout is a file or a pipe (CI logs, ``--output``) the
markup is stripped by ``PlainConsole`` instead, which saves rich's import
(about 25 ms of every start-up here) and never rewrites text that happens to
look like an emoji code (``:x:``) in a linker message. Anything that is not a
string (a rich Table) is still handed to rich.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from typing import IO, Any

# rich's markup grammar: "[" then a letter, "#", "/" or "@" opens a tag; an odd
# number of backslashes before it makes it literal text.
_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?\])")


def escape(text: str) -> str:
    """Make *text* print literally under rich markup (what rich.markup.escape does)."""
    out = _TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), text)
    if out.endswith("\\") and not out.endswith("\\\\"):
        out += "\\"
    return out


def strip_markup(text: str) -> str:
    """Render markup as plain text the way rich does: drop style tags, keep
    escaped ones, halve backslash runs before tags, and turn a stray ``\\[``
    into ``[``."""
    out, pos = [], 0
    for m in _TAG.finditer(text):
        out.append(text[pos : m.start()].replace("\\[", "["))
        slashes, tag = m.group(1), m.group(2)
        out.append("\\" * (len(slashes) // 2) + (tag if len(slashes) % 2 else ""))
        pos = m.end()
    out.append(text[pos:].replace("\\[", "["))
    return "".join(out)


class PlainConsole:
    """The part of rich.Console that linkgate's renderers use, as plain text."""

    def __init__(self, file: IO[str] | None = None) -> None:
        self._file = file  # None: whatever sys.stdout is at print time
        self._rich: Any = None

    @property
    def file(self) -> IO[str]:
        return self._file if self._file is not None else sys.stdout

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", markup: bool | None = None, **_: Any) -> None:
        if not all(isinstance(o, str) for o in objects):
            if self._rich is None:
                from rich.console import Console

                self._rich = Console(file=self._file, no_color=True, highlight=False, soft_wrap=True, width=120)
            self._rich.print(*objects, sep=sep, end=end, markup=markup)
            return
        text = sep.join(objects)
        self.file.write((text if markup is False else strip_markup(text)) + end)


def _interactive_stdout() -> bool:
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


@lru_cache(maxsize=None)
def stdout_console() -> Any:
    if not _interactive_stdout():
        return PlainConsole()
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@lru_cache(maxsize=None)
def stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def is_interactive() -> bool:
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb" and not os.environ.get("CI")

"""The live progress line shows labels literally and counts seconds."""

from __future__ import annotations

import io
import re
import time

from rich.console import Console

from linkgate.progress import Progress


class _Log:
    units_done = 3
    last_unit = "zsys"


def test_live_line_shows_linker_in_brackets_and_elapsed_time() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=200, color_system=None)
    with Progress(console=console) as progress:
        progress.phase("calls [bfd]: building")
        time.sleep(1.1)
        progress.update("build", _Log())
        progress.note("calls [bfd]: linked (1.1 s) [dim]")
    out = buf.getvalue()
    frames = set(re.findall(r"calls \[bfd\]: building[^\r\n]*?\(\d+ s\)", out))
    assert "calls [bfd]: building: 3 units compiled, last: zsys (1 s)" in frames, frames
    assert "calls [bfd]: linked (1.1 s) [dim]" in out  # notes are text, not markup
    assert "\\[" not in out


def test_plain_mode_writes_phase_lines(capsys) -> None:
    with Progress(enabled=True) as progress:  # stderr is not a terminal under pytest
        progress.phase("calls [bfd]: building")
        progress.update("build", _Log())
    assert capsys.readouterr().err == "linkgate: calls [bfd]: building\n"

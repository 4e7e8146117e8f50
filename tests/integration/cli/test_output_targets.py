"""`-o` onto what is not a plain file: a symlink stays a symlink (the file it
names gets the report), a FIFO stays a FIFO and its reader gets the report.
Writing through a temporary file and renaming it over the path had replaced
the link, the pipe, and as root /dev/stdout and /dev/full, with regular files.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from linkgate.cli import main

LOG = "/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x5): undefined reference to `gone_fn'\n"


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "build.log"
    path.write_text(LOG)
    return path


def test_output_through_a_symlink_writes_the_file_it_names(log: Path, tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    real = tmp_path / "reports" / "explain.json"
    real.write_text("old\n")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    assert main(["explain", str(log), "-f", "json", "-o", str(link)]) == 1
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert [d["symbol"] for d in json.loads(real.read_text())["diagnostics"]] == ["gone_fn"]


def test_output_to_a_fifo_reaches_its_reader_and_leaves_the_fifo(log: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader waits, so opening for writing does not block
    try:
        assert main(["explain", str(log), "-f", "json", "-o", str(fifo)]) == 1
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        chunks = []
        while chunk := os.read(reader, 65536):
            chunks.append(chunk)
    except BlockingIOError:  # nothing was ever written to the pipe
        chunks = []
    finally:
        os.close(reader)
    assert chunks, "the FIFO's reader got nothing"
    assert [d["symbol"] for d in json.loads(b"".join(chunks))["diagnostics"]] == ["gone_fn"]

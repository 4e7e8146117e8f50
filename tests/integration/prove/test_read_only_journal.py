"""A journal left by a killed prove: read-only commands neither recover nor refuse."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from lgtest import sha

LINKGATE = [sys.executable, "-m", "linkgate"]


@pytest.fixture
def killed(fast_repo) -> tuple[Path, str]:
    """A repository whose prove was killed with lib.txt mutated, and lib.txt then
    edited by hand, so the journal cannot be replayed without --force."""
    root = fast_repo(sleep=30)
    lib = root / "lib.txt"
    original = sha(lib)
    proc = subprocess.Popen([*LINKGATE, "prove", "-q"], cwd=root, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while sha(lib) == original:
            assert proc.poll() is None, "prove ended before it mutated lib.txt"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (root / ".linkgate" / "journal.json").is_file()
    lib.write_bytes(lib.read_bytes() + b"\nedited by hand")
    return root, sha(lib)


@pytest.mark.parametrize("argv", [
    ["audit", "--format", "json"],
    ["surface", "fast"],
    ["should-run", "fast", "--base", "HEAD", "--head", "HEAD"],
    ["explain", "lib.txt"],
    ["cost"],
    ["coverage"],
])
def test_read_only_commands_leave_the_journal_and_say_how_to_recover(killed: tuple[Path, str],
                                                                     argv: list[str]) -> None:
    root, edited = killed
    done = subprocess.run([*LINKGATE, *argv], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode != 3, done.stderr
    assert ("linkgate: note: an interrupted prove left a journal (.linkgate/journal.json)" in done.stderr
            and "run `linkgate recover` to restore them" in done.stderr), done.stderr
    assert "restored" not in done.stderr
    assert sha(root / "lib.txt") == edited
    assert (root / ".linkgate" / "journal.json").is_file()


def test_a_command_that_builds_still_recovers_first(killed: tuple[Path, str]) -> None:
    root, _ = killed
    done = subprocess.run([*LINKGATE, "run", "-q"], cwd=root, capture_output=True, text=True, timeout=120)
    # The hand edit makes the journal refuse to overwrite it: the run stops, changing nothing.
    assert done.returncode == 3, done.stderr
    assert (root / ".linkgate" / "journal.json").is_file()

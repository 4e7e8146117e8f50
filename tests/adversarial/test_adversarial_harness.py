"""The harness's bounds bite: a case past its time or its memory fails."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import harness
import pytest


@pytest.mark.timeout(60)
def test_a_case_past_its_time_fails(sandbox: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    outside, repo = sandbox
    monkeypatch.setattr(harness, "CASE_SECONDS", 1)
    monkeypatch.setattr(harness, "main", lambda argv: time.sleep(5) or 0)
    started = time.monotonic()
    with pytest.raises(harness.CaseTooSlow):
        harness.run(["audit"], repo, outside=outside, repo=repo)
    assert time.monotonic() - started < 4


@pytest.mark.timeout(60)
def test_a_case_past_its_memory_fails(sandbox: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    outside, repo = sandbox
    monkeypatch.setattr(harness, "main", lambda argv: len(bytearray(harness.CASE_BYTES + 64 * 1024**2)) and 0)
    with pytest.raises(MemoryError):
        harness.run(["audit"], repo, outside=outside, repo=repo)
    # The bound is lifted after the case: the next one starts from a fresh allowance.
    assert len(bytearray(256 * 1024**2)) == 256 * 1024**2


@pytest.mark.timeout(60)
def test_a_program_linkgate_starts_shares_the_memory_bound(sandbox: tuple[Path, Path],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    outside, repo = sandbox
    eat = "import sys; b = bytearray(int(sys.argv[1])); print(len(b))"

    def child(argv: list[str]) -> int:
        done = subprocess.run(["python3", "-c", eat, str(harness.CASE_BYTES + harness._address_space())],
                              capture_output=True, text=True)
        return 0 if "MemoryError" in done.stderr else 1

    monkeypatch.setattr(harness, "main", child)
    assert harness.run(["audit"], repo, outside=outside, repo=repo).code == 0

"""The repository lock: prove holds it exclusively, run holds it shared."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from lgtest import LINK_SH, git_repo, sha, toml_str

LINKGATE = [sys.executable, "-m", "linkgate"]

# A command gate that announces it is running, then takes its time; it links
# (lgtest.LINK_SH) while lib.txt names NEEDED (as the fast gate of the other prove tests).
_SLOW_SH = ("touch started ran-by-${WHO:-someone}; sleep {sleep}; "
            "grep -q NEEDED lib.txt || { echo '/usr/bin/ld: cannot find -lneeded' >&2; exit 1; }; " + LINK_SH)
GATE = """
[[gate]]
name = "slow"
command = ["sh", "-c", """ + toml_str(_SLOW_SH).replace("{", "{{").replace("}", "}}").replace("{{sleep}}", "{sleep}") + """]

[[gate.control]]
name = "drop-needed"
file = "lib.txt"
delete = "NEEDED"
"""


def make_repo(tmp_path: Path, sleep: float) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "linkgate.toml").write_text(GATE.format(sleep=sleep))
    (root / "lib.txt").write_text("NEEDED -lneeded\n")
    (root / ".gitignore").write_text("started\nran-by-*\n")
    git_repo(root)
    return root


def start(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*LINKGATE, *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_started(root: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not (root / "started").exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_run_refuses_while_prove_holds_the_lock_and_builds_nothing(tmp_path):
    root = make_repo(tmp_path, sleep=3)
    original = sha(root / "lib.txt")
    prove = start(root, "prove", "-q")
    wait_started(root, prove)  # the mutated build is under way
    run = subprocess.run([*LINKGATE, "run", "-q"], cwd=root, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "WHO": "run"})
    assert run.returncode == 4, run
    assert f"another linkgate process (pid {prove.pid}) is mutating files in {root}" in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout == ""
    assert not (root / "ran-by-run").exists(), "the refused run must not build"
    prove.communicate(timeout=120)
    assert prove.returncode == 0
    assert sha(root / "lib.txt") == original


def test_prove_refuses_while_a_run_builds(tmp_path):
    root = make_repo(tmp_path, sleep=3)
    original = sha(root / "lib.txt")
    run = start(root, "run", "-q")
    wait_started(root, run)
    prove = subprocess.run([*LINKGATE, "prove", "-q"], cwd=root, capture_output=True, text=True, timeout=60)
    assert prove.returncode == 4, prove
    assert f"another linkgate process (pid {run.pid}) is building in {root}" in prove.stderr
    assert sha(root / "lib.txt") == original  # nothing was mutated under the run
    assert not (root / ".linkgate" / "journal.json").exists()
    run.communicate(timeout=60)
    assert run.returncode == 0


def test_two_runs_share_the_lock(tmp_path):
    root = make_repo(tmp_path, sleep=1.5)
    first = start(root, "run", "-q")
    wait_started(root, first)
    second = subprocess.run([*LINKGATE, "run", "-q"], cwd=root, capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stderr
    first.communicate(timeout=60)
    assert first.returncode == 0

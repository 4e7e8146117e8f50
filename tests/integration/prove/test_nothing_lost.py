"""Journal and restore under kill -9, SIGINT, concurrency, and refused controls."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lgtest import git, sha

from linkgate.cli import main

LINKGATE = [sys.executable, "-m", "linkgate"]


def start(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*LINKGATE, *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )


def wait_for(path: Path, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.005)


def wait_mutated(root: Path, original: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while sha(root / "lib.txt") == original:
        assert time.monotonic() < deadline, "lib.txt was never mutated"
        time.sleep(0.005)


def test_sigkill_at_random_moments_never_loses_the_file(fast_repo):
    root = fast_repo(sleep=0.15)
    lib = root / "lib.txt"
    original, mode = sha(lib), lib.stat().st_mode
    rng = random.Random(20261130)
    # One uninterrupted run tells how long a whole prove takes here.
    t0 = time.monotonic()
    assert subprocess.run([*LINKGATE, "prove", "-q"], cwd=root, capture_output=True).returncode == 0
    span = time.monotonic() - t0
    interrupted = trial = 0
    # At least 50 kills, and more (up to 200) until 10 of them landed while a
    # journal existed: timing on a loaded machine must not make the test vacuous.
    while trial < 50 or (interrupted < 10 and trial < 200):
        trial += 1
        proc = start(root, "prove", "-q")
        time.sleep(rng.uniform(0, span))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        interrupted += (root / ".linkgate" / "journal.json").exists()
        nxt = ["recover"] if trial % 2 else ["run", "-q", "--format", "json"]
        done = subprocess.run([*LINKGATE, *nxt], cwd=root, capture_output=True, text=True)
        assert sha(lib) == original, f"trial {trial}: {done.stderr}"
        assert lib.stat().st_mode == mode
        assert not (root / ".linkgate" / "journal.json").exists()
        assert not list(root.glob(".lib.txt*")), "a temporary file was left behind"
    assert git(root, "status", "--porcelain") == ""
    assert interrupted >= 10, f"only {interrupted} of {trial} kills landed while a file was mutated"


def test_sigint_mid_run_restores_before_exit(fast_repo):
    root = fast_repo(sleep=3)
    lib = root / "lib.txt"
    original = sha(lib)
    proc = start(root, "prove", "-q")
    wait_mutated(root, original)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert sha(lib) == original
    assert not (root / ".linkgate" / "journal.json").exists()


def test_sigterm_mid_run_restores_before_exit(fast_repo):
    root = fast_repo(sleep=3)
    lib = root / "lib.txt"
    original = sha(lib)
    proc = start(root, "prove", "-q")
    wait_mutated(root, original)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert "interrupted by SIGTERM" in err
    assert sha(lib) == original
    assert not (root / ".linkgate" / "journal.json").exists()


def test_second_concurrent_prove_refuses_and_mutates_nothing(fast_repo):
    root = fast_repo(sleep=2)
    lib = root / "lib.txt"
    original = sha(lib)
    first = start(root, "prove", "-q")
    wait_for(root / ".linkgate" / "journal.json")
    journal_before = (root / ".linkgate" / "journal.json").read_bytes()
    second = subprocess.run([*LINKGATE, "prove", "-q"], cwd=root, capture_output=True, text=True, timeout=30)
    assert second.returncode == 4
    assert f"another linkgate process (pid {first.pid})" in second.stderr
    assert (root / ".linkgate" / "journal.json").read_bytes() == journal_before
    first.communicate(timeout=60)
    assert first.returncode == 0
    assert sha(lib) == original


@pytest.mark.parametrize(
    ("control", "needle", "line"),
    [
        ('file = "../outside.txt"\ndelete = "x"', "escapes the repository", 7),
        ('file = "link.txt"\ndelete = "x"', "symlink leading outside", 7),
        ('file = "lib.txt"\ndelete = "NOT THERE"', "matches no line", 8),
        ('file = "lib.txt"\nreplace = { pattern = "NOPE", with = "x" }', "matches nothing", 8),
        ('file = "lib.txt"\npatch = "bad.diff"', "patch does not apply", 8),
        ('file = "missing.txt"\ndelete = "x"', "does not exist", 7),
    ],
)
def test_refused_controls_exit_2_and_change_nothing(tmp_path, monkeypatch, capsys, control, needle, line):
    root = tmp_path / "repo"
    root.mkdir()
    (tmp_path / "outside.txt").write_text("x\n")
    (root / "link.txt").symlink_to(tmp_path / "outside.txt")
    (root / "lib.txt").write_text("NEEDED\n")
    (root / "bad.diff").write_text("--- a/lib.txt\n+++ b/lib.txt\n@@ -1 +1 @@\n-SOMETHING ELSE\n+NEW\n")
    (root / "linkgate.toml").write_text(
        f'[[gate]]\nname = "g"\ncommand = ["true"]\n\n[[gate.control]]\nname = "c"\n{control}\n'
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    before = {p: sha(p) for p in (root / "lib.txt", tmp_path / "outside.txt")}
    monkeypatch.chdir(root)
    assert main(["prove", "-q"]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert f"linkgate.toml:{line}:" in err
    assert {p: sha(p) for p in before} == before
    assert not (root / ".linkgate" / "journal.json").exists()


def test_patch_control_applies(fast_repo, monkeypatch, capsys):
    root = fast_repo()
    (root / "drop.diff").write_text(
        "--- a/lib.txt\n+++ b/lib.txt\n@@ -1,3 +1,2 @@\n first line\r\n-NEEDED -lneeded\n last line, no newline\n"
        "\\ No newline at end of file\n"
    )
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('delete = "NEEDED"', 'patch = "drop.diff"'))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "patch")
    monkeypatch.chdir(root)
    assert main(["prove", "-q"]) == 0, capsys.readouterr()


def test_dirty_file_is_refused_unless_allowed(fast_repo, monkeypatch, capsys):
    root = fast_repo()
    lib = root / "lib.txt"
    lib.write_bytes(lib.read_bytes() + b"\nlocal edit")
    edited = sha(lib)
    monkeypatch.chdir(root)
    assert main(["prove", "-q"]) == 2
    assert "uncommitted changes" in capsys.readouterr().err
    assert main(["prove", "-q", "--allow-dirty"]) == 0
    assert sha(lib) == edited


def test_recover_refuses_to_overwrite_a_later_edit(fast_repo):
    root = fast_repo(sleep=3)
    lib = root / "lib.txt"
    proc = start(root, "prove", "-q")
    wait_mutated(root, sha(lib))
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    lib.write_text("the user's new work\n")
    done = subprocess.run([*LINKGATE, "recover"], cwd=root, capture_output=True, text=True)
    assert done.returncode == 3 and "not overwriting your edit" in done.stderr
    assert lib.read_text() == "the user's new work\n"
    forced = subprocess.run([*LINKGATE, "recover", "--force"], cwd=root, capture_output=True, text=True)
    assert forced.returncode == 0
    assert b"NEEDED" in lib.read_bytes()

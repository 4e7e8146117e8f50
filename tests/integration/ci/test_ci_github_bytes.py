"""`ci github --write` gives the user's bytes back: line ends, byte-order mark and
final newline kept; two writers at once both land; a kill -9 leaves the old
workflow or the new one, and the temp file it leaves is removed by the next write."""

from __future__ import annotations

import difflib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
CI = '[ci]\ninstall = "git+https://github.com/rtlab/linkgate@3f1c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"\n'


def configure(repo: Path, *names: str) -> None:
    (repo / "linkgate.toml").write_text(CI + "".join(
        f'\n[[gate]]\nname = "{n}"\ncargo = ["build"]\npaths = ["src/**"]\n' for n in names))


def removed_lines(old: bytes, new: bytes) -> list[bytes]:
    """The lines of *old* (each with its own line end) that *new* does not keep in order."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    return [line for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
            if tag in ("replace", "delete") for line in a[i1:i2]]


@pytest.mark.parametrize("trigger", ["every-pr", "paths"])
@pytest.mark.parametrize("shape", ["crlf", "crlf-bom", "crlf-no-final-newline", "lf-bom-no-final-newline"])
def test_line_ends_bom_and_final_newline_are_the_users(repo: Path, shape: str, trigger: str) -> None:
    configure(repo, "g")
    text = (repo / WF).read_bytes()
    if "crlf" in shape:
        text = text.replace(b"\n", b"\r\n")
    if "bom" in shape:
        text = b"\xef\xbb\xbf" + text
    if "no-final-newline" in shape:
        text = text.rstrip(b"\r\n")
    (repo / WF).write_bytes(text)
    assert main(["ci", "github", "g", "--trigger", trigger, "--write"]) == 0
    new = (repo / WF).read_bytes()
    assert new.startswith(b"\xef\xbb\xbf") == ("bom" in shape)
    if "crlf" in shape:
        assert b"\n" not in new.replace(b"\r\n", b"")  # every line, the inserted ones too
    else:
        assert b"\r" not in new
    assert new.endswith(b"\n") == ("no-final-newline" not in shape)
    # Nothing of the user's is lost; only their last line gains the line end it now needs.
    assert removed_lines(text, new) in ([], [text.splitlines(keepends=True)[-1]])
    doc = yaml.safe_load(new.decode("utf-8-sig"))
    assert "g" in doc["jobs"]
    assert main(["ci", "github", "g", "--trigger", trigger, "--write"]) == 0
    assert (repo / WF).read_bytes() == new  # a second write changes nothing


@pytest.mark.parametrize(("content", "message"), [
    (b"on: push\njobs:\n  a:\n    # caf\xe9\n    runs-on: x\n", "ci.yml:4: not UTF-8 (byte 0xE9)"),
    ("on: push\njobs:\n  a:\n    # x\u2028y\n    runs-on: x\n".encode(), "ci.yml:4: U+2028 LINE SEPARATOR"),
    (b"on: push\njobs:\n  a:\n    # x\x85y\n    runs-on: x\n".replace(b"\x85", "\x85".encode()), "ci.yml:4: NEL"),
    (b"on: push\rjobs:\r  a:\r    runs-on: x\r", "ci.yml:1: a carriage return without a line feed"),
])
def test_a_workflow_linkgate_cannot_edit_faithfully_is_refused(repo: Path, capsys: pytest.CaptureFixture[str],
                                                                content: bytes, message: str) -> None:
    configure(repo, "g")
    (repo / WF).write_bytes(content)
    assert main(["ci", "github", "g", "--write"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err
    assert (repo / WF).read_bytes() == content


def test_a_workflow_that_is_a_directory_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(repo, "g")
    (repo / ".github" / "workflows" / "dir.yml").mkdir()
    assert main(["ci", "github", "g", "--workflow", ".github/workflows/dir.yml"]) == 2
    assert ".github/workflows/dir.yml is a directory, not a workflow file" in capsys.readouterr().err


# A writer that stops just before it replaces the workflow: it has read the old text
# and written its temp file. `hold` waits there until the other writer has finished
# or says it waits for the lock; `kill` kills itself with SIGKILL right there.
CHILD = """
import os, signal, sys, time
from pathlib import Path
mode, marker, other_err, argv = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:]
real = os.replace
def replace(src, dst):
    if mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    marker.write_text("ready")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not Path(str(other_err) + ".done").exists() \\
            and "waiting for another" not in (other_err.read_text() if other_err.exists() else ""):
        time.sleep(0.05)
    real(src, dst)
os.replace = replace
from linkgate.cli import main
sys.exit(main(argv))
"""


def child(repo: Path, mode: str, marker: Path, other_err: Path, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, mode, str(marker), str(other_err), *argv], cwd=repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def linkgate(repo: Path, *argv: str, stderr: Path) -> subprocess.CompletedProcess[str]:
    with stderr.open("w") as err:
        done = subprocess.run([sys.executable, "-m", "linkgate", *argv], cwd=repo, stdout=subprocess.PIPE,
                              stderr=err, text=True)
    Path(str(stderr) + ".done").write_text("")
    return done


@pytest.mark.timeout(300)
def test_two_writers_at_once_both_land(repo: Path, tmp_path: Path) -> None:
    configure(repo, "a", "b")
    marker, b_err = tmp_path / "a.ready", tmp_path / "b.err"
    first = child(repo, "hold", marker, b_err, "ci", "github", "a", "--trigger", "paths", "--write")
    deadline = time.monotonic() + 120
    while not marker.exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), first.communicate()
    second = linkgate(repo, "ci", "github", "b", "--trigger", "paths", "--write", stderr=b_err)
    out, err = first.communicate(timeout=120)
    assert (first.returncode, second.returncode) == (0, 0), (err, b_err.read_text())
    assert f"waiting for another `linkgate ci github --write` (pid {first.pid}) in " in b_err.read_text()
    doc = yaml.safe_load((repo / WF).read_text())
    assert {"a", "b"} <= set(doc["jobs"])
    filters = yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])
    assert {"a", "b"} <= set(filters) and {"a", "b"} <= set(doc["jobs"]["changes"]["outputs"])


def temps(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / WF).parent.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.timeout(300)
def test_a_kill_9_before_the_rename_leaves_the_old_workflow_and_the_next_write_removes_its_temp(
        repo: Path, tmp_path: Path) -> None:
    configure(repo, "g")
    old = (repo / WF).read_bytes()
    killed = child(repo, "kill", tmp_path / "m", tmp_path / "e", "ci", "github", "g", "--write")
    killed.communicate(timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert (repo / WF).read_bytes() == old
    left = temps(repo)
    assert len(left) == 1 and left[0].startswith(".ci.yml.linkgate."), left
    # One a linkgate before this one left: tempfile's name, no `linkgate.` in it.
    (repo / WF).parent.joinpath(".ci.yml.k2j4_x9a.tmp").write_text("half")
    # Not ours: a file of the user's that only looks alike is kept.
    (repo / WF).parent.joinpath(".ci.yml.notes.tmp").write_text("mine")
    done = linkgate(repo, "ci", "github", "g", "--write", stderr=tmp_path / "err")
    assert done.returncode == 0, (tmp_path / "err").read_text()
    assert temps(repo) == [".ci.yml.notes.tmp"]
    err = (tmp_path / "err").read_text()
    assert f"removed .github/workflows/{left[0]}, left by an interrupted write" in err
    assert "removed .github/workflows/.ci.yml.k2j4_x9a.tmp" in err
    assert "g" in yaml.safe_load((repo / WF).read_text())["jobs"]


@pytest.mark.timeout(600)
def test_kill_9_at_any_moment_leaves_the_old_or_the_new_workflow(repo: Path, tmp_path: Path) -> None:
    configure(repo, "g")
    old = (repo / WF).read_bytes()
    assert linkgate(repo, "ci", "github", "g", "--write", stderr=tmp_path / "e0").returncode == 0
    new = (repo / WF).read_bytes()
    (repo / WF).write_bytes(old)
    for i in range(12):
        proc = subprocess.Popen([sys.executable, "-m", "linkgate", "ci", "github", "g", "--write"], cwd=repo,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.05 * i)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert (repo / WF).read_bytes() in (old, new), i
        assert linkgate(repo, "ci", "github", "g", "--write", stderr=tmp_path / f"e{i}").returncode == 0
        assert temps(repo) == [] and (repo / WF).read_bytes() == new
        (repo / WF).write_bytes(old)

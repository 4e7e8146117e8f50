"""First-day hygiene: no stray files in git, no late --output failure, no traceback."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from lgtest import LINK_SH, git, git_repo, toml_str

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"
LINKGATE = [sys.executable, "-m", "linkgate"]

FAST = """
[[gate]]
name = "fast"
command = ["sh", "-c", """ + toml_str("grep -q NEEDED lib.txt || { echo '/usr/bin/ld: cannot find -lneeded' >&2; exit 1; }; "
                                      + LINK_SH) + """]

[[gate.control]]
name = "drop-needed"
file = "lib.txt"
delete = "NEEDED"
"""


@pytest.fixture
def fast_repo(tmp_path: Path) -> Path:
    """No .gitignore at all: whatever linkgate leaves must hide itself."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "linkgate.toml").write_text(FAST)
    (root / "lib.txt").write_text("NEEDED -lneeded\n")
    git_repo(root)
    return root


def test_state_dir_never_shows_in_git_status(fast_repo, monkeypatch, capsys):
    monkeypatch.chdir(fast_repo)
    assert main(["prove", "-q"]) == 0, capsys.readouterr()
    assert main(["run", "-q"]) == 0
    assert (fast_repo / ".linkgate" / "lock").exists()
    assert (fast_repo / ".linkgate" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert git(fast_repo, "status", "--porcelain", "--untracked-files=all") == ""
    git(fast_repo, "add", "-A")
    assert git(fast_repo, "diff", "--cached", "--name-only") == ""


@pytest.mark.parametrize("verb", [["run"], ["prove"], ["changed", "--base", "HEAD"]])
def test_output_into_a_missing_directory_is_refused_before_building(tmp_path, verb):
    root = tmp_path / "ccsys"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    done = subprocess.run([*LINKGATE, *verb, "-q" if verb[0] != "changed" else "--head=HEAD",
                           "--format", "json", "--output", "/missing/dir/x.json"],
                          cwd=root, capture_output=True, text=True)
    assert done.returncode == 2, done
    assert done.stderr.splitlines()[0] == (
        "linkgate: error: --output /missing/dir/x.json: directory /missing/dir does not exist"
    )
    assert "Traceback" not in done.stderr
    assert not (root / "target").exists(), "nothing may be built before the output is known to be writable"


def test_output_into_a_read_only_directory_is_refused(fast_repo, tmp_path, monkeypatch, capsys):
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o555)
    # Permission bits do not stop root (CI runs as root): the immutable
    # attribute does, for root too.
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(ro)], check=True)
    try:
        monkeypatch.chdir(fast_repo)
        assert main(["run", "-q", "--output", str(ro / "x.json")]) == 2
        assert "is not writable" in capsys.readouterr().err
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(ro)], check=True)


def test_output_that_is_a_directory_is_refused(fast_repo, monkeypatch, capsys):
    monkeypatch.chdir(fast_repo)
    (fast_repo / "reports").mkdir()
    assert main(["run", "-q", "--output", "reports"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "'reports' is a directory" in err, err
    assert not (fast_repo / ".linkgate").exists(), "refused while parsing, before the run took its lock"


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_reports_get_the_mode_the_umask_gives(fast_repo, monkeypatch, capsys, umask, mode):
    monkeypatch.chdir(fast_repo)
    old = os.umask(umask)
    try:
        assert main(["run", "-q", "--format", "json", "--output", "report.json"]) == 0, capsys.readouterr()
    finally:
        os.umask(old)
    assert stat.S_IMODE((fast_repo / "report.json").stat().st_mode) == mode


def test_rewriting_a_report_keeps_its_mode(fast_repo, monkeypatch, capsys):
    monkeypatch.chdir(fast_repo)
    report = fast_repo / "report.xml"
    report.write_text("old")
    report.chmod(0o640)
    assert main(["run", "-q", "--format", "junit", "--output", "report.xml"]) == 0, capsys.readouterr()
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert "<testsuite" in report.read_text()


def _inject_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    import linkgate.commands.changed as changed

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug\nwith a second line")

    monkeypatch.setattr(changed, "build_report", broken)


def test_unexpected_exception_is_one_line_and_a_crash_log(fast_repo, monkeypatch, capsys):
    _inject_bug(monkeypatch)
    monkeypatch.delenv("LINKGATE_DEBUG", raising=False)
    (fast_repo / "sub").mkdir()
    monkeypatch.chdir(fast_repo / "sub")
    assert main(["changed", "--base", "HEAD"]) == 3
    err = capsys.readouterr().err
    assert err == "linkgate: error: internal error: KeyError: 'a bug\\nwith a second line', see `../.linkgate/crash.log`\n"
    log = (fast_repo / ".linkgate" / "crash.log").read_text()
    assert "Traceback (most recent call last)" in log and "KeyError" in log and "build_report" in log
    assert git(fast_repo, "status", "--porcelain") == ""


def test_linkgate_debug_reraises(fast_repo, monkeypatch):
    _inject_bug(monkeypatch)
    monkeypatch.setenv("LINKGATE_DEBUG", "1")
    monkeypatch.chdir(fast_repo)
    with pytest.raises(KeyError):
        main(["changed", "--base", "HEAD"])


@pytest.mark.parametrize(("verb", "code", "prefix"), [
    (["changed", "--base", "main"], 2, "linkgate: error: "),
    # should-run cannot tell what changed: the gate runs, and the line says why.
    (["should-run", "g", "--base", "main"], 0, "linkgate: should-run g: cannot tell what changed, so the gate runs: "),
])
def test_outside_git_is_one_line(tmp_path, monkeypatch, capsys, verb, code, prefix):
    (tmp_path / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["x/**"]\n')
    monkeypatch.chdir(tmp_path)
    assert main(verb) == code
    err = capsys.readouterr().err
    assert err == f"{prefix}{tmp_path} is not inside a git repository; run linkgate in a checkout or pass --repo DIR\n"


@pytest.mark.parametrize(("verb", "code"), [(["changed"], 2), (["should-run", "fast"], 0)])
def test_unknown_base_is_one_line(fast_repo, monkeypatch, capsys, verb, code):
    monkeypatch.chdir(fast_repo)
    cfg = fast_repo / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('name = "fast"\n', 'name = "fast"\npaths = ["lib.txt"]\n'))
    assert main([*verb, "--base", "no-such-branch"]) == code
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert "git does not know 'no-such-branch'" in err

"""Event values are written by whoever pushed: should-run checks each one, passes
it to git after --end-of-options, and on anything it cannot use answers true
(the gate runs) with one line saying why; never false, never a file written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import git

from linkgate.cli import main

CONFIG = """
[[gate]]
name = "xla-link"
cargo = ["test", "--no-run"]
paths = ["build.rs"]
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """main with build.rs; topic changes only README.md, so an honest answer is false."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for name, text in {"linkgate.toml": CONFIG, "build.rs": "fn main() {}\n", "README.md": "a\n"}.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "topic")
    (repo / "README.md").write_text("b\n")
    git(repo, "commit", "-qam", "docs")
    return repo


def sha(root: Path, rev: str) -> str:
    return git(root, "rev-parse", rev).strip()


def ask(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        event: str, payload: object, *args: str, **env: str) -> tuple[int, str, str]:
    monkeypatch.chdir(root)
    for var in ("GITHUB_BASE_REF", "GITHUB_REF", "GITHUB_OUTPUT"):
        monkeypatch.delenv(var, raising=False)
    path = tmp_path / "event.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", event)
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    rc = main(["should-run", "xla-link", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_an_honest_event_says_false(root, tmp_path, monkeypatch, capsys):
    payload = {"pull_request": {"number": 1, "base": {"sha": sha(root, "main")}, "head": {"sha": sha(root, "topic")}}}
    assert ask(root, tmp_path, monkeypatch, capsys, "pull_request", payload)[:2] == (0, "false\n")


def hostile_payloads(root: Path, trap: Path) -> list[tuple[str, object, tuple[str, ...]]]:
    opt = f"--output={trap}"
    main_sha, topic_sha = sha(root, "main"), sha(root, "topic")
    pr = {"number": 1, "base": {"sha": main_sha}, "head": {"sha": topic_sha}}
    return [
        ("push", {"ref": "refs/heads/main", "before": opt, "repository": {"default_branch": "main"}}, ()),
        ("push", {"ref": "refs/heads/main", "before": "HEAD~1", "repository": {"default_branch": "main"}}, ()),
        ("push", {"ref": "refs/heads/topic", "before": main_sha, "repository": {"default_branch": opt}}, ()),
        ("push", {"ref": "refs/heads/topic", "before": main_sha, "repository": {"default_branch": "ma..in"}}, ()),
        ("push", {"ref": f"refs/heads/x\n{opt}", "before": main_sha}, ()),
        ("pull_request", {"pull_request": {**pr, "base": {"sha": opt}}}, ()),
        ("pull_request", {"pull_request": {**pr, "base": {"sha": main_sha[:12]}}}, ()),
        ("pull_request", {"pull_request": {**pr, "head": {"sha": opt}}}, ()),
        ("pull_request_target", {"pull_request": {**pr, "base": {"sha": "main"}}}, ()),
        ("merge_group", {"merge_group": {"base_sha": opt, "head_sha": topic_sha}}, ()),
        ("merge_group", {"merge_group": {"base_sha": main_sha, "head_sha": opt}}, ()),
        ("pull_request", {"pull_request": pr}, ("--base", opt)),
        ("pull_request", {"pull_request": pr}, ("--head", opt)),
        ("pull_request", {"pull_request": pr}, ("--base", "main\nx")),
        ("push", "[" * 200_000 + "]" * 200_000, ()),
        ("push", "{not json", ()),
        ("pull_request", {"pull_request": {"number": 1}}, ()),
    ]


@pytest.mark.parametrize("case", range(17))
def test_a_hostile_value_runs_the_gate_and_writes_nothing(root, tmp_path, monkeypatch, capsys, case):
    trap = tmp_path / "trap"
    event, payload, args = hostile_payloads(root, trap)[case]
    before = git(root, "status", "--porcelain", "--ignored")
    rc, out, err = ask(root, tmp_path, monkeypatch, capsys, event, payload, *args)
    assert (rc, out) == (0, "true\n"), err
    assert len(err.splitlines()) == 1 and "cannot tell what changed, so the gate runs" in err
    assert "Traceback" not in err and not trap.exists()
    assert git(root, "status", "--porcelain", "--ignored") == before


def test_a_hostile_github_base_ref_runs_the_gate(root, tmp_path, monkeypatch, capsys):
    trap = tmp_path / "trap"
    rc, out, err = ask(root, tmp_path, monkeypatch, capsys, "pull_request", {"pull_request": {}},
                       GITHUB_BASE_REF=f"--output={trap}")
    assert (rc, out) == (0, "true\n") and "GITHUB_BASE_REF" in err and not trap.exists()


def test_an_unknown_gate_is_still_a_usage_error(root, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(root)
    assert main(["should-run", "nope", "--base", "main"]) == 2

"""`should-run` without --base: the comparison comes from the GitHub event, as
dorny/paths-filter takes it, with a synthetic payload in $GITHUB_EVENT_PATH."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from gitrepo import git

from linkgate.cli import main

CONFIG = """
[[gate]]
name = "xla-link"
cargo = ["test", "--no-run"]
paths = ["build.rs", "scripts/iree/**"]
"""
NULL = "0" * 40


def commit(root: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        git(root, "add", name)
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"linkgate.toml": CONFIG, "build.rs": "fn main() {}\n", "README.md": "hi\n"}, "base")
    return repo


def should_run(root: Path, tmp_path: Path, monkeypatch, capsys, event: str, payload: dict | None,
               *args: str) -> tuple[str, str, str]:
    """(stdout answer, stderr, the GITHUB_OUTPUT line) for one event."""
    monkeypatch.chdir(root)
    for var in ("GITHUB_BASE_REF", "GITHUB_REF"):
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "github_output"
    out.write_text("")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    monkeypatch.setenv("GITHUB_EVENT_NAME", event)
    if payload is None:
        monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    else:
        path = tmp_path / "event.json"
        path.write_text(json.dumps(payload))
        monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    # The step of docs/commands/ci.md, unchanged: `linkgate should-run xla-link`.
    assert main(["should-run", "xla-link", *args]) == 0
    captured = capsys.readouterr()
    return captured.out.strip(), captured.err, out.read_text()


def push(before: str, ref: str = "refs/heads/main") -> dict:
    return {"ref": ref, "before": before, "after": "f" * 40, "repository": {"default_branch": "main"}}


@pytest.mark.parametrize(("files", "expected"), [
    ({"build.rs": "fn main() { println!(\"cargo:rustc-link-lib=z\"); }\n"}, "true"),
    ({"scripts/iree/setup.sh": "echo\n"}, "true"),
    ({"README.md": "docs only\n"}, "false"),
])
def test_push_to_the_default_branch_compares_with_before(root, tmp_path, monkeypatch, capsys, files, expected):
    before = git(root, "rev-parse", "HEAD").strip()
    commit(root, files, "pushed")
    answer, err, output = should_run(root, tmp_path, monkeypatch, capsys, "push", push(before))
    assert answer == expected
    assert output == f"xla-link={expected}\n"
    assert f"push to main: changes since {before[:12]}" in err
    # The log says what decided it: the file and the rule, or how many files none matched.
    path = next(iter(files))
    assert (f"{path} matches (rule " in err) if expected == "true" else ("none of 1 changed file(s)" in err)


def test_push_compares_with_before_not_with_the_last_commit(root, tmp_path, monkeypatch, capsys):
    before = git(root, "rev-parse", "HEAD").strip()
    commit(root, {"build.rs": "fn main() { }\n"}, "relevant")
    commit(root, {"README.md": "later\n"}, "docs")  # two commits in one push
    answer, _, _ = should_run(root, tmp_path, monkeypatch, capsys, "push", push(before))
    assert answer == "true"
    answer, _, _ = should_run(root, tmp_path, monkeypatch, capsys, "push",
                              push(git(root, "rev-parse", "HEAD~1").strip()))
    assert answer == "false"


@pytest.mark.parametrize(("files", "expected"), [
    ({"scripts/iree/build.sh": "x\n"}, "true"),
    ({"src/lib.rs": "// x\n"}, "false"),
])
def test_new_branch_push_compares_with_the_merge_base_of_the_default_branch(
    root, tmp_path, monkeypatch, capsys, files, expected
):
    git(root, "checkout", "-qb", "topic")
    commit(root, files, "topic work")
    git(root, "checkout", "-q", "main")
    commit(root, {"build.rs": "// main moved on after the fork\n"}, "main later")
    git(root, "checkout", "-q", "topic")
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "push", push(NULL, "refs/heads/topic"))
    assert answer == expected  # main's later build.rs change is not the branch's
    assert "first push of topic: changes since the merge base with main" in err


def test_initial_push_of_the_default_branch_counts_every_file(root, tmp_path, monkeypatch, capsys):
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "push", push(NULL))
    assert answer == "true"
    assert "every file counts as added" in err


def test_push_to_another_branch_compares_with_the_default_branch_as_paths_filter_does(
    root, tmp_path, monkeypatch, capsys
):
    git(root, "checkout", "-qb", "topic")
    commit(root, {"build.rs": "// on the branch\n"}, "first push")
    before = git(root, "rev-parse", "HEAD").strip()
    commit(root, {"README.md": "second push\n"}, "second push")
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "push", push(before, "refs/heads/topic"))
    # paths-filter's base defaults to the default branch; `before` counts only
    # for a push to the base branch itself.
    assert answer == "true"
    assert "push to topic: changes since the merge base with main" in err


@pytest.mark.parametrize(("files", "expected"), [({"build.rs": "// q\n"}, "true"), ({"a.txt": "q\n"}, "false")])
def test_merge_group_compares_with_its_base_sha(root, tmp_path, monkeypatch, capsys, files, expected):
    base = git(root, "rev-parse", "HEAD").strip()
    head = commit(root, files, "queued")
    payload = {"merge_group": {"base_sha": base, "head_sha": head, "head_ref": "refs/heads/gh-readonly-queue/main/x"}}
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "merge_group", payload)
    assert answer == expected
    assert f"merge queue: changes since its base {base[:12]}" in err


@pytest.mark.parametrize(("files", "expected"), [({"build.rs": "// pr\n"}, "true"), ({"docs/x.md": "x\n"}, "false")])
def test_pull_request_compares_with_its_base(root, tmp_path, monkeypatch, capsys, files, expected):
    base = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-qb", "topic")
    commit(root, files, "pr")
    payload = {"number": 7, "pull_request": {"number": 7, "base": {"sha": base, "ref": "main"}},
               "repository": {"default_branch": "main"}}
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "pull_request", payload)
    assert answer == expected
    assert "pull request #7" in err


@pytest.mark.parametrize("event", ["schedule", "workflow_dispatch"])
def test_schedule_and_dispatch_always_run_and_say_why(root, tmp_path, monkeypatch, capsys, event):
    answer, err, output = should_run(root, tmp_path, monkeypatch, capsys, event, {"schedule": "0 3 * * *"})
    assert answer == "true" and output == "xla-link=true\n"
    assert f"a {event} event: the gate always runs" in err


def test_base_overrides_the_event(root, tmp_path, monkeypatch, capsys):
    before = git(root, "rev-parse", "HEAD").strip()
    commit(root, {"README.md": "x\n"}, "docs")
    commit(root, {"build.rs": "// y\n"}, "relevant")
    answer, _, _ = should_run(root, tmp_path, monkeypatch, capsys, "push", push(before), "--base", "HEAD~1")
    assert answer == "true"
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "schedule", {}, "--base", "HEAD")
    assert answer == "false"
    assert "--base HEAD" in err


def test_push_before_unknown_to_a_shallow_clone_runs_the_gate_with_one_line(root, tmp_path, monkeypatch, capsys):
    answer, err, output = should_run(root, tmp_path, monkeypatch, capsys, "push", push("1" * 40))
    assert (answer, output) == ("true", "xla-link=true\n")
    lines = err.splitlines()
    assert len(lines) == 1 and "git does not know '1111111111111111111111111111111111111111'" in lines[0]
    assert "cannot tell what changed, so the gate runs" in lines[0] and "fetch-depth: 0" in lines[0]


@pytest.mark.parametrize(("files", "expected"), [({"build.rs": "// z\n"}, "true"), ({"README.md": "z\n"}, "false")])
def test_shallow_checkout_fetches_the_before_commit(root, tmp_path, monkeypatch, capsys, files, expected):
    """actions/checkout's default is one commit; the before commit is fetched
    from origin as paths-filter does (a local origin: no network)."""
    before = git(root, "rev-parse", "HEAD").strip()
    commit(root, files, "pushed")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{root}", str(clone))
    missing = subprocess.run(["git", "-C", str(clone), "cat-file", "-e", before], capture_output=True)
    assert missing.returncode != 0, "the clone must not have the before commit yet"
    answer, err, _ = should_run(clone, tmp_path, monkeypatch, capsys, "push", push(before))
    assert answer == expected, err


@pytest.mark.parametrize(("files", "expected"), [({"build.rs": "// t\n"}, "true"), ({"docs/y.md": "y\n"}, "false")])
def test_pull_request_target_judges_the_pull_request_head_not_the_checkout(
    root, tmp_path, monkeypatch, capsys, files, expected
):
    base = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-qb", "topic")
    head = commit(root, files, "pr")
    git(root, "checkout", "-q", "main")  # pull_request_target checks out the base branch
    payload = {"pull_request": {"number": 9, "base": {"sha": base}, "head": {"sha": head}}}
    answer, _, _ = should_run(root, tmp_path, monkeypatch, capsys, "pull_request_target", payload)
    assert answer == expected


@pytest.mark.parametrize("number", [None, "7", True])
def test_pull_request_without_a_number_says_no_placeholder(root, tmp_path, monkeypatch, capsys, number):
    base = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-qb", "topic")
    commit(root, {"build.rs": "// pr\n"}, "pr")
    pr: dict = {"base": {"sha": base, "ref": "main"}}
    if number is not None:
        pr["number"] = number
    payload = {"pull_request": pr, "repository": {"default_branch": "main"}}
    answer, err, _ = should_run(root, tmp_path, monkeypatch, capsys, "pull_request", payload)
    assert answer == "true"
    assert "#" not in err
    assert f"pull request: changes since its base {base[:12]}" in err

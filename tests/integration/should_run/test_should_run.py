"""`should-run` and `changed` on real git repositories with a topic branch."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from gitrepo import git

from linkgate.cli import main

GATE = """
[[gate]]
name = "xla-link"
cargo = ["test", "--no-run"]
paths = ["build.rs", "scripts/iree/**"]
"""

WORKFLOW = """
name: ci
on: [pull_request]
jobs:
  changes:
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            shared: &shared
              - Cargo.lock
            xla_link:
              - *shared
              - 'src/lib/core/build.rs'
              - added|modified: 'vendor/**'
"""

FROM_WORKFLOW = """
[[gate]]
name = "xla"
cargo = ["test", "--no-run"]
paths-from = { workflow = ".github/workflows/ci.yml", filter = "xla_link" }
"""


def run_should(root: Path, gate: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[int, str]:
    out = tmp_path / "github_output"
    out.write_text("earlier=1\n")
    monkeypatch.chdir(root)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    rc = main(["should-run", gate, "--base", "main"])
    return rc, out.read_text()


@pytest.mark.parametrize(
    ("branch", "expected"),
    [
        ({"scripts/iree/pin.sh": "v2"}, "true"),
        ({"build.rs": "// changed"}, "true"),
        ({"docs/a.md": "words"}, "false"),
        ({"scripts/iree/old.sh": None}, "true"),  # a deleted file is a change too
    ],
)
def test_should_run_writes_github_output(
    repo: Callable[..., Path], branch: dict[str, str | None], expected: str,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    root = repo({"build.rs": "fn main() {}", "scripts/iree/old.sh": "x", "docs/a.md": "a"}, branch, GATE)
    rc, written = run_should(root, "xla-link", monkeypatch, tmp_path)
    assert rc == 0
    assert capsys.readouterr().out == expected + "\n"
    assert written == f"earlier=1\nxla-link={expected}\n"


def test_rename_is_delete_plus_add(
    repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repo({"old/name.rs": "fn x() {}\n" * 20}, {}, GATE)
    (root / "new").mkdir()
    git(root, "mv", "old/name.rs", "new/name.rs")
    git(root, "commit", "-qm", "rename")
    monkeypatch.chdir(root)
    assert main(["changed", "--base", "main", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "linkgate.changed/1"
    assert sorted((f["path"], f["status"]) for f in doc["files"]) == [
        ("new/name.rs", "added"),
        ("old/name.rs", "deleted"),
    ]


@pytest.mark.parametrize(
    ("branch", "expected"),
    [
        ({"Cargo.lock": "v2"}, "true"),  # through the YAML anchor
        ({"src/lib/core/build.rs": "y"}, "true"),
        ({"vendor/pin.txt": "v2"}, "true"),  # modified
        ({"vendor/pin.txt": None}, "false"),  # deleted: not a listed change type
        ({"README.md": "x"}, "false"),
    ],
)
def test_should_run_from_workflow_filter(
    repo: Callable[..., Path], branch: dict[str, str | None], expected: str,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    files = {
        ".github/workflows/ci.yml": WORKFLOW, "Cargo.lock": "v1", "src/lib/core/build.rs": "x",
        "vendor/pin.txt": "v1", "README.md": "r",
    }
    root = repo(files, branch, FROM_WORKFLOW)
    rc, written = run_should(root, "xla", monkeypatch, tmp_path)
    assert (rc, capsys.readouterr().out, written) == (0, expected + "\n", f"earlier=1\nxla={expected}\n")


def test_unknown_filter_names_the_ones_found(
    repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repo({".github/workflows/ci.yml": WORKFLOW}, {"a": "b"}, FROM_WORKFLOW.replace("xla_link", "xla-link"))
    monkeypatch.chdir(root)
    assert main(["should-run", "xla", "--base", "main"]) == 2
    err = capsys.readouterr().err
    assert "no dorny/paths-filter step" in err and "'xla-link'" in err and "shared, xla_link" in err


def test_unknown_base_runs_the_gate_and_says_why_in_one_line(
    repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repo({"a": "1"}, {"a": "2"}, GATE)
    monkeypatch.chdir(root)
    assert main(["should-run", "xla-link", "--base", "nosuchbranch"]) == 0
    out, err = capsys.readouterr()
    assert out == "true\n"
    assert len(err.splitlines()) == 1 and "git fetch" in err and "cannot tell what changed" in err


def test_changed_in_a_shallow_clone_without_a_merge_base_says_why_every_file_is_added(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "main")
    for name in ("a.rs", "b.rs"):
        (upstream / name).write_text(name)
        git(upstream, "add", name)
        git(upstream, "commit", "-qm", name)
    git(upstream, "checkout", "-qb", "topic")
    (upstream / "c.rs").write_text("c")
    git(upstream, "add", "c.rs")
    git(upstream, "commit", "-qm", "c")
    git(upstream, "checkout", "-q", "main")
    (upstream / "d.rs").write_text("d")
    git(upstream, "add", "d.rs")
    git(upstream, "commit", "-qm", "d")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "-b", "topic", f"file://{upstream}", str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    monkeypatch.chdir(clone)
    assert main(["changed", "--base", "origin/main", "--format", "json"]) == 0
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert sorted(f["path"] for f in doc["files"]) == ["a.rs", "b.rs", "c.rs"]  # every tracked file, added
    assert "no merge base of origin/main and HEAD" in doc["note"] and "fetch-depth: 0" in doc["note"]
    assert out.err.startswith("linkgate: note: git finds no merge base")
    # With the history fetched, the real change.
    git(clone, "fetch", "-q", "--unshallow", "origin", "main:refs/remotes/origin/main")
    assert main(["changed", "--base", "origin/main", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert [f["path"] for f in json.loads(out.out)["files"]] == ["c.rs"] and out.err == ""

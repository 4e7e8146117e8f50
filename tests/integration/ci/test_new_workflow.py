"""`ci github --write` into a workflow that does not exist yet creates it: pull requests and
pushes to the default branch, the gate's job (and its paths filter), lint-clean."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lgtest import git
from workflow_lint import actionlint, zizmor

from linkgate.cli import main

SPEC = "git+https://github.com/example/linkgate@0123456789abcdef0123456789abcdef01234567"
NEW = Path(".github/workflows/link.yml")


@pytest.mark.parametrize("trigger", ["every-pr", "paths"])
def test_write_creates_the_workflow(repo: Path, capsys: pytest.CaptureFixture[str], trigger: str) -> None:
    git(repo, "branch", "-m", "trunk")  # the default branch is named whatever the repository names it
    assert not (repo / NEW).exists()
    assert main(["ci", "github", "xla-link", "--workflow", str(NEW), "--trigger", trigger, "--install", SPEC,
                 "--write"]) == 0
    err = capsys.readouterr().err
    assert "link.yml does not exist, so it is a new workflow; this repository has ci.yml" in err
    doc = yaml.safe_load((repo / NEW).read_text())
    assert doc[True] == {"pull_request": None, "push": {"branches": ["trunk"]}}  # PyYAML reads `on` as True
    assert "xla-link" in doc["jobs"]
    if trigger == "paths":
        assert "changes" in doc["jobs"] and doc["jobs"]["xla-link"]["needs"] == "changes"
    assert actionlint(repo, repo / NEW) == []
    assert zizmor(repo / NEW) == []
    assert main(["ci", "github", "xla-link", "--workflow", str(NEW), "--trigger", trigger, "--install", SPEC,
                 "--check"]) == 0


def test_check_of_a_missing_workflow_says_it_differs(repo: Path) -> None:
    assert main(["ci", "github", "xla-link", "--workflow", str(NEW), "--install", SPEC, "--check"]) == 1
    assert not (repo / NEW).exists()

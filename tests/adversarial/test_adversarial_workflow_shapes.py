"""Workflows and actionlint configurations `ci github --write` cannot splice into: one message
naming the file (and line), nothing written, never an internal error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from harness import run
from lgtest import git_repo

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ci" / "repo"
WF = Path(".github/workflows/ci.yml")


@pytest.fixture
def ci_repo(sandbox: tuple[Path, Path]) -> tuple[Path, Path]:
    outside, repo = sandbox
    repo.rmdir()
    shutil.copytree(FIXTURE, repo)
    git_repo(repo)
    return outside, repo


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("text", "said"), [
    ("{name: ci, on: [pull_request], jobs: {check: {runs-on: ubuntu-latest, steps: [{run: cargo check}]}}}\n",
     "ci.yml:1: the workflow's top level is written in flow style"),
    ("name: ci\non: [pull_request]\njobs: {check: {runs-on: ubuntu-latest, steps: [{run: cargo check}]}}\n",
     "ci.yml:3: the workflow's jobs are written in flow style"),
])
def test_a_flow_style_workflow_is_refused(ci_repo: tuple[Path, Path], text: str, said: str) -> None:
    outside, repo = ci_repo
    (repo / WF).write_text(text)
    result = run(["ci", "github", "xla-link", "--write", "--repository", "rtlab/rtcore"], repo, outside=outside, repo=repo)
    assert result.code == 2 and said in result.err, result.err
    assert (repo / WF).read_text() == text


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("text", "said"), [
    ("self-hosted-runner: [\n", "actionlint.yaml:2: not valid YAML"),
    ("- a\n- b\n", "actionlint.yaml: the top level is not a mapping"),
    ("self-hosted-runner: 7\n", "actionlint.yaml: self-hosted-runner is not a mapping"),
    ("self-hosted-runner:\n  labels: 5\n", "actionlint.yaml: self-hosted-runner.labels is not a list"),
    ("self-hosted-runner:\n  labels: {a: 1}\n", "actionlint.yaml: self-hosted-runner.labels is not a list"),
])
def test_an_actionlint_config_of_another_shape_is_refused(ci_repo: tuple[Path, Path], text: str,
                                                           said: str) -> None:
    outside, repo = ci_repo
    cfg = repo / ".github" / "actionlint.yaml"
    cfg.write_text(text)
    before = (repo / WF).read_text()
    result = run(["ci", "github", "xla-link", "--write", "--repository", "rtlab/rtcore"], repo, outside=outside, repo=repo)
    assert result.code == 2 and said in result.err, result.err
    assert cfg.read_text() == text and (repo / WF).read_text() == before

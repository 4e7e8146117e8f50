"""linkgate needs Python 3.11+: every job `ci github` writes sets one up first (pinned), unless
`[ci] setup-python = false` says the runners have it (ubuntu-22.04's python3 is 3.10)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from workflow_lint import actionlint

from linkgate.ci import pins
from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
SPEC = "git+https://github.com/example/linkgate@0123456789abcdef0123456789abcdef01234567"


def step_names(job: dict) -> list[str]:
    return [s.get("name") or s.get("uses", "") for s in job["steps"]]


@pytest.mark.parametrize("matrix", [False, True])
def test_every_job_sets_up_python_before_installing_linkgate(repo: Path, matrix: bool) -> None:
    assert main(["ci", "github", "xla-link", "--write", "--install", SPEC, *(["--matrix"] if matrix else [])]) == 0
    jobs = yaml.safe_load((repo / WF).read_text())["jobs"]
    installing = [j for j in jobs.values() if "Install linkgate" in step_names(j)]
    assert len(installing) == (3 if matrix else 1)
    for job in installing:
        names = step_names(job)
        at = names.index("Python for linkgate (3.11 or newer)")
        assert at == names.index("Install linkgate") - 1
        (step,) = [s for s in job["steps"] if s.get("name") == "Python for linkgate (3.11 or newer)"]
        assert step["uses"] == pins.uses("actions/setup-python") and step["with"] == {"python-version": "3.11"}
    assert actionlint(repo, repo / WF) == []


def test_setup_python_false_trusts_the_runners_python(repo: Path) -> None:
    # The fixture's linkgate.toml ends with its [ci] table: the key lands in it.
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text() + "setup-python = false\n")
    assert main(["ci", "github", "xla-link", "--write", "--install", SPEC]) == 0
    job = yaml.safe_load((repo / WF).read_text())["jobs"]["xla-link"]
    assert "Python for linkgate (3.11 or newer)" not in step_names(job)


def test_setup_python_must_be_a_boolean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text() + 'setup-python = "no"\n')
    assert main(["ci", "github", "xla-link", "--install", SPEC]) == 2
    assert "ci.setup-python" in capsys.readouterr().err

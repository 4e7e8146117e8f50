"""The GitHub Actions snippet of docs/commands/ci.md is a job a user pastes: it must pass the
same linters as the jobs `ci github` writes."""

from __future__ import annotations

import re
from pathlib import Path

from workflow_lint import actionlint, zizmor

PAGE = Path(__file__).resolve().parents[3] / "docs" / "commands" / "ci.md"


def snippet() -> str:
    text = PAGE.read_text()
    section = text[text.index("## By hand, in a GitHub Actions workflow"):]
    found = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert found, "the section lost its yaml block"
    return found.group(1)


def test_by_hand_job_passes_actionlint_and_zizmor(tmp_path: Path) -> None:
    wf = tmp_path / ".github" / "workflows" / "ci.yml"
    wf.parent.mkdir(parents=True)
    wf.write_text("on: [pull_request, push]\npermissions: {}\njobs:\n" + snippet())
    # The snippet's self-hosted label, declared as a user would.
    (tmp_path / ".github" / "actionlint.yaml").write_text("self-hosted-runner:\n  labels: [gb10]\n")
    assert actionlint(tmp_path, wf) == []
    assert zizmor(wf) == []

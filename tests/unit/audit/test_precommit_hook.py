from __future__ import annotations

import re
from pathlib import Path

import yaml

HOOKS = Path(__file__).resolve().parents[3] / ".pre-commit-hooks.yaml"


def test_hook_runs_the_audit_on_workflow_changes_only() -> None:
    [hook] = yaml.safe_load(HOOKS.read_text())
    assert hook["id"] == "linkgate-audit"
    assert hook["entry"] == "linkgate audit"
    assert hook["pass_filenames"] is False
    files = re.compile(hook["files"])
    assert files.search(".github/workflows/ci.yml") and files.search(".github/workflows/release.yaml")
    assert not files.search("src/ci.yml") and not files.search(".github/dependabot.yml")

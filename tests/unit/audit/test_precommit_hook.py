from __future__ import annotations

import re
from pathlib import Path

import pytest
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


def test_hook_needs_no_registry_and_no_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's entry on the runtime fixture with an empty CARGO_HOME (nothing cached) and
    cargo told it is offline: the filter check still runs on the workspace's own build scripts."""
    import json
    import shlex
    import shutil

    from linkgate.cli import main

    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    [hook] = yaml.safe_load(HOOKS.read_text())
    repo = tmp_path / "repo"
    shutil.copytree(HOOKS.parent / "tests/fixtures/audit/runtime", repo)
    home = tmp_path / "cargo-home"
    home.mkdir()
    monkeypatch.setenv("CARGO_HOME", str(home))
    monkeypatch.setenv("CARGO_NET_OFFLINE", "true")
    monkeypatch.chdir(repo)
    out = tmp_path / "audit.json"
    argv = shlex.split(hook["entry"])[1:] + ["--format", "json", "--output", str(out)]
    assert main(argv) == 1
    doc = json.loads(out.read_text())
    assert [f["subject"] for f in doc["findings"] if f["rule"] == "filter-misses-surface"] == ["link: runtime-core"]
    assert not [f for f in doc["findings"] if f["rule"] == "unresolved"]
    assert not list(home.glob("registry/index/*")), "nothing was fetched"

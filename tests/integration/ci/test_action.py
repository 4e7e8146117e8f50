"""The composite action's steps, run by bash as the runner would run them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lgtest import git, git_repo
from workflow_lint import actionlint, zizmor

ACTION = Path(__file__).resolve().parents[3] / "action.yml"


def step(name: str) -> dict[str, object]:
    steps = yaml.safe_load(ACTION.read_text())["runs"]["steps"]
    return next(s for s in steps if s.get("name") == name)


def run_step(name: str, cwd: Path, env: dict[str, str], tmp_path: Path) -> tuple[str, dict[str, str]]:
    s = step(name)
    out_file = tmp_path / f"output-{len(list(tmp_path.glob('output-*')))}"
    out_file.write_text("")
    full = {**os.environ, **env, "GITHUB_OUTPUT": str(out_file), "RUNNER_TEMP": str(tmp_path),
            "LINKGATE_BIN": str(Path(sys.executable).parent)}
    done = subprocess.run(["bash", "-e", "-c", str(s["run"])], cwd=cwd, env=full, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    outputs = dict(line.split("=", 1) for line in out_file.read_text().splitlines() if "=" in line)
    return done.stdout, outputs


@pytest.fixture
def repo(demo_workspace: Path) -> Path:
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["default"]\npaths = ["build.rs", "native/**"]'))
    git_repo(demo_workspace)
    return demo_workspace


def test_a_change_outside_the_surface_links_nothing(repo: Path, tmp_path: Path) -> None:
    (repo / "NOTES.md").write_text("docs\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "docs")
    out, outputs = run_step("Which gates must run", repo, {"LINKGATE_GATES": "", "LINKGATE_BASE": "HEAD~1"}, tmp_path)
    assert outputs == {"ran": ""}
    assert "smoke: no file of its causal surface changed" in out


def test_a_change_in_the_surface_links_the_gate(repo: Path, tmp_path: Path) -> None:
    (repo / "native" / "core.c").write_text((repo / "native" / "core.c").read_text() + "\n/* touched */\n")
    git(repo, "commit", "-qam", "touch")
    _, outputs = run_step("Which gates must run", repo, {"LINKGATE_GATES": "", "LINKGATE_BASE": "HEAD~1"}, tmp_path)
    assert outputs == {"ran": "smoke"}
    out, _ = run_step("Link", repo, {"LINKGATE_RAN": "smoke", "LINKGATE_FORMAT": "human"}, tmp_path)
    assert "linked" in out and "smoke" in out


def test_a_workflow_using_the_action_lints_clean(tmp_path: Path) -> None:
    wf = tmp_path / ".github" / "workflows" / "link.yml"
    wf.parent.mkdir(parents=True)
    wf.write_text(
        "name: link\non:\n  pull_request:\n  push:\n    branches: [main]\npermissions: {}\njobs:\n"
        "  link:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n    steps:\n"
        "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
        "        with:\n          persist-credentials: false\n          fetch-depth: 0\n"
        "      - uses: ./\n        with:\n          gates: smoke\n")
    (tmp_path / "action.yml").write_text(ACTION.read_text())
    assert actionlint(tmp_path, wf) == []
    assert zizmor(wf, tmp_path / "action.yml") == []

"""Class: generated CI. Hostile configuration values reach `ci github`: it
refuses a value by key (exit 2) or prints a job that carries no expression
linkgate did not write and parses back to the values given."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from harness import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ci" / "repo"
CI = '[ci]\ninstall = "git+https://github.com/rtlab/linkgate@3f1c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"\n\n'
BASE = CI + '[[gate]]\nname = "g"\ncargo = ["build"]\n'


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    outside = tmp_path_factory.mktemp("ci")
    (outside / "sentinel.txt").write_text("x")
    repo = outside / "repo"
    shutil.copytree(FIXTURE, repo)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    (repo / "linkgate.toml").write_text(BASE)
    plain = run(["ci", "github", "g"], repo, outside=outside, repo=repo)
    assert plain.code == 0, plain.err
    body = "\n".join(ln for ln in plain.out.splitlines() if not ln.lstrip().startswith("#"))
    return outside, repo, body.count("${{")


PIECES = st.sampled_from([
    "x", "${{ github.event.pull_request.title }}", "${{", "}}", "'", '\\"', "$(id)", "`id`", "\\n", "#", ": ", "- ",
    "*a", "&a", "!t", "|", ">", "%", "@", "ü", "\\t", "{", "}", "[", "]", "$HOME", "\\\\",
])
KEYS = st.sampled_from(["env", "provision", "provision-env", "runner", "target-dir", "why"])


@pytest.mark.timeout(600)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(key=KEYS, pieces=st.lists(PIECES, min_size=1, max_size=4))
def test_generated_values_are_refused_or_carried_without_expressions(world, key, pieces):
    outside, repo, own = world
    value = "".join(pieces)
    line = {"env": f'env = {{ A = "{value}" }}', "provision": f'provision = ["{value}"]',
            "provision-env": f'provision-env = ["{value}"]', "runner": f'runner = ["{value}"]',
            "target-dir": f'target-dir = "{value}"', "why": f'why = "{value}"'}[key]
    (repo / "linkgate.toml").write_text(BASE + line + "\n")
    result = run(["ci", "github", "g"], repo, outside=outside, repo=repo)
    assert result.code in (0, 2), result.err
    if result.code == 2:
        return
    # A comment (the gate's why) is no expression: YAML drops it before GitHub reads anything.
    body = "\n".join(ln for ln in result.out.splitlines() if not ln.lstrip().startswith("#"))
    assert body.count("${{") == own, (key, value)
    job = yaml.safe_load(body)
    assert isinstance(job, dict) and json.dumps(job)

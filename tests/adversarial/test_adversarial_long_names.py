"""Names no file system takes (a component past NAME_MAX, 255 bytes here) wherever a path
comes from a workflow, a configuration or a flag: one message or a note, never an internal
error, nothing outside the repository touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import run

from lgtest import git_repo

LONG = "a" * 300
WORKFLOW = "name: ci\non: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {}\n"


def repo_with(repo: Path, step: str) -> None:
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW.format(step))
    git_repo(repo)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("step", [
    f"bash scripts/{LONG}.sh",
    f"make -C {LONG} test",
    f"cargo test --manifest-path {LONG}/Cargo.toml",
    f"cd {LONG} && cargo test",
    f"just -f {LONG}/justfile test",
    f"npm --prefix {LONG} run build",
    f"cargo make --makefile {LONG}.toml ci",
    f"source {LONG}/env.sh && cargo build",
])
def test_audit_reads_past_a_name_too_long(sandbox: tuple[Path, Path], step: str) -> None:
    outside, repo = sandbox
    repo_with(repo, step)
    result = run(["audit", "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert result.code in (0, 1)


@pytest.mark.timeout(60)
def test_a_control_file_name_too_long_is_a_config_error(sandbox: tuple[Path, Path]) -> None:
    outside, repo = sandbox
    (repo / "linkgate.toml").write_text(f'[[gate]]\nname = "g"\ncargo = ["build"]\n[[gate.control]]\nname = "c"\n'
                                        f'file = "{LONG}.rs"\ndelete = "x"\n')
    git_repo(repo)
    result = run(["prove"], repo, outside=outside, repo=repo)
    assert result.code == 2
    assert "control.c.file" in result.err and "cannot be read: File name too long" in result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("verb", [["explain", "-"], ["changed", "--base", "HEAD"]])
def test_an_output_name_too_long_is_refused_before_anything_runs(sandbox: tuple[Path, Path], verb: list[str]) -> None:
    outside, repo = sandbox
    (repo / "README").write_text("x\n")
    git_repo(repo)
    result = run([*verb, "-o", str(repo / f"{LONG}.json")], repo, outside=outside, repo=repo)
    assert result.code == 2
    assert "the file name is longer than this file system allows" in result.err


@pytest.mark.timeout(60)
def test_a_log_name_too_long_is_one_message(sandbox: tuple[Path, Path]) -> None:
    outside, repo = sandbox
    result = run(["explain", str(repo / f"{LONG}.log")], repo, outside=outside, repo=repo)
    assert result.code == 2 and "File name too long" in result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("verb", [["cost"], ["report", "html"]])
def test_a_history_name_too_long_is_one_message(sandbox: tuple[Path, Path], verb: list[str]) -> None:
    outside, repo = sandbox
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n')
    git_repo(repo)
    result = run([*verb, "--history", str(repo / f"{LONG}.sqlite")], repo, outside=outside, repo=repo)
    assert result.code == 2
    assert "File name too long" in result.err

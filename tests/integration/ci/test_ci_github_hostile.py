"""`ci github` with hostile configuration values and arguments: an expression is
refused by key, nothing lands outside the repository, and everything it does
write passes actionlint and zizmor and carries the values byte for byte."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
import yaml
from lgtest import git
from workflow_lint import actionlint, zizmor

from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
HOSTED = 'runner = ["self-hosted", "gb10", "cuda"]\n'


def digests(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


def set_gate(repo: Path, extra: str, *, hosted: bool = True) -> None:
    cfg = (repo / "linkgate.toml").read_text()
    if hosted:
        cfg = cfg.replace(HOSTED, "")
    head, sep, rest = cfg.partition("[[gate.control]]")
    (repo / "linkgate.toml").write_text(head.rstrip("\n") + "\n" + extra + "\n\n" + sep + rest)


EXPRESSIONS = [
    ('provision = ["echo ${{ github.event.pull_request.title }}"]', "gate.xla-link.provision[0]"),
    ('provision-env = ["bash env.sh ${{ github.head_ref }}"]', "gate.xla-link.provision-env[0]"),
    ('env = { RT_CUDA_ARCHITECTURES = "${{ github.event.issue.body }}" }', "gate.xla-link.env.RT_CUDA_ARCHITECTURES"),
    ('runner = ["ubuntu-latest", "${{ github.actor }}"]', "gate.xla-link.runner[1]"),
    ('paths = ["src/${{ github.head_ref }}/**"]', "gate.xla-link.paths[0]"),
    ('target-dir = "t/${{ github.head_ref }}"', "gate.xla-link.target-dir"),
]


def replace_key(repo: Path, line: str) -> None:
    key = line.split(" = ", 1)[0]
    cfg = (repo / "linkgate.toml").read_text()
    kept = [ln for ln in cfg.splitlines() if not ln.startswith(f"{key} = ")]
    (repo / "linkgate.toml").write_text("\n".join(kept) + "\n")
    set_gate(repo, line, hosted=key != "runner")


@pytest.mark.parametrize(("line", "key"), EXPRESSIONS)
@pytest.mark.parametrize("trigger", ["every-pr", "paths"])
def test_an_expression_in_a_copied_value_is_refused_by_key(repo, capsys, line, key, trigger):
    replace_key(repo, line)
    before = digests(repo)
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--write"]) == 2
    err = capsys.readouterr().err
    assert key in err and "${{" in err and "linkgate.toml" in err and "Traceback" not in err
    assert digests(repo) == before


@pytest.mark.parametrize(("line", "key"), [
    ('provision-env = ["bash env.sh\\nrm -rf ~"]', "gate.xla-link.provision-env[0]"),
    ('target-dir = "a\\nb"', "gate.xla-link.target-dir"),
])
def test_a_line_break_that_would_end_a_value_is_refused(repo, capsys, line, key):
    replace_key(repo, line)
    assert main(["ci", "github", "xla-link", "--write"]) == 2
    assert key in capsys.readouterr().err


HOSTILE_BUT_PLAIN = r'''provision = ["echo 'quoted' \"double\" $HOME # not a comment\nprintf '%s\\n' \"a: b\" && true", "*alias &anchor !tag"]
env = { RT_CUDA_ARCHITECTURES = "121", QUOTES = "it's \"x\" ${HOME} $(id) `id`", MULTI = "line one\nline two: {x}" }
target-dir = "target/it's here"'''


@pytest.mark.parametrize("matrix", [False, True])
@pytest.mark.parametrize("trigger", ["every-pr", "paths", "schedule:17 3 * * *"])
def test_plain_hostile_values_pass_the_linters_and_arrive_byte_for_byte(repo, trigger, matrix):
    cfg = (repo / "linkgate.toml").read_text()
    (repo / "linkgate.toml").write_text(cfg.replace('env = { RT_CUDA_ARCHITECTURES = "121" }\n', "")
                                        .replace('provision = ["bash scripts/iree/setup-cuda.sh"]\n', ""))
    set_gate(repo, HOSTILE_BUT_PLAIN)
    args = ["ci", "github", "xla-link", "--trigger", trigger, "--write"] + (["--matrix"] if matrix else [])
    assert main(args) == 0
    written = repo / (".github/workflows/linkgate-xla-link.yml" if trigger.startswith("schedule") else str(WF))
    assert actionlint(repo, written) == []
    assert zizmor(written) == []
    jobs = yaml.safe_load(written.read_text())["jobs"]
    job = jobs["xla-link"]
    assert job["env"]["QUOTES"] == "it's \"x\" ${HOME} $(id) `id`"
    assert job["env"]["MULTI"] == "line one\nline two: {x}"
    runs = [s["run"] for s in job["steps"] if "run" in s]
    assert "echo 'quoted' \"double\" $HOME # not a comment\nprintf '%s\\n' \"a: b\" && true\n" in runs
    assert "*alias &anchor !tag\n" in runs


@pytest.mark.parametrize("value", ["o/n' || true || '", "o/n\nx", "owner", "-o/n", "o/n/x", "o/..", "o o/n", "o/n)"])
def test_repository_must_be_owner_slash_name(repo, capsys, value):
    before = digests(repo)
    assert main(["ci", "github", "xla-link", "--repository", value, "--write"]) == 2
    assert "owner/name" in capsys.readouterr().err
    assert digests(repo) == before


def test_a_remote_that_is_not_owner_slash_name_is_not_trusted(repo, capsys):
    git(repo, "remote", "set-url", "origin", "git@github.com:o/n'||true||'.git")
    assert main(["ci", "github", "xla-link", "--write"]) == 2
    assert "--repository owner/name" in capsys.readouterr().err
    assert main(["ci", "github", "xla-link", "--repository", "rtlab/rt.core_2-x", "--write"]) == 0
    assert "github.repository == 'rtlab/rt.core_2-x'" in (repo / WF).read_text()


def test_workflow_outside_the_repository_is_refused(repo, tmp_path, capsys):
    outside = tmp_path / "x.yml"
    outside.write_text((repo / WF).read_text())
    before = outside.read_bytes()
    assert main(["ci", "github", "xla-link", "--workflow", "../x.yml", "--write"]) == 2
    assert "outside the repository" in capsys.readouterr().err
    assert outside.read_bytes() == before


@pytest.mark.parametrize("trigger", ["every-pr", "schedule:17 3 * * *"])
def test_a_committed_symlink_out_of_the_repository_is_refused(repo, tmp_path, capsys, trigger):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "ci.yml").write_text((repo / WF).read_text())
    (outside / "linkgate-xla-link.yml").write_text("name: x\n")
    before = digests(outside)
    if trigger == "every-pr":
        (repo / WF).unlink()
        os.symlink(outside / "ci.yml", repo / WF)
    else:
        os.symlink(outside / "linkgate-xla-link.yml", repo / ".github" / "workflows" / "linkgate-xla-link.yml")
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--write"]) == 2
    assert "outside the repository" in capsys.readouterr().err
    assert digests(outside) == before


@pytest.mark.parametrize(("line", "expected"), [
    ("", "target/linkgate/xla-link"),
    ('target-dir = "build/link-cache"', "build/link-cache"),
    ('target-dir = "/ci/cache/xla"', "/ci/cache/xla"),
])
def test_the_hosted_cache_step_caches_the_directory_the_gate_builds_in(repo, line, expected):
    set_gate(repo, line)
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    job = yaml.safe_load((repo / WF).read_text())["jobs"]["xla-link"]
    [cache] = [s for s in job["steps"] if s.get("uses", "").startswith("actions/cache@")]
    assert cache["with"]["path"] == expected

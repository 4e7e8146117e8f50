"""go-task, pixi and mise tasks are read as the lines they run; `pixi exec`, `pixi run cargo`
and `mise exec ... --` run their command in the tool's environment."""

from __future__ import annotations

import json
from pathlib import Path

from lgtest import audit_files, git_repo

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: task ci -- --release
      - run: pixi run build
      - run: pixi run --environment dev cargo test --features b
      - run: pixi exec cargo check --features a
      - run: mise run lint
      - run: mise exec rust@1.80 -- cargo build --features a,b
      - run: task missing
      - run: mise run from-a-file
"""

TASKFILE = """\
version: '3'
vars:
  FEATURES: a
includes:
  docs: ./docs/Taskfile.yml
tasks:
  ci:
    deps: [fmt]
    cmds:
      - cargo build --features {{.FEATURES}} {{.CLI_ARGS}}
      - task: test
  fmt:
    cmds:
      - cargo fmt --check
  test:
    dir: crates/core
    cmds:
      - cmd: cargo test --features {{.UNSET}}
"""

PIXI = """\
[project]
name = "p"
[tasks]
build = { cmd = ["cargo", "build", "--features", "b"], depends-on = ["prep"] }
prep = "cargo fetch"
"""

MISE = """\
[tasks.lint]
depends = ["build"]
run = ["cargo clippy --features a", "cargo doc --features b"]
[tasks]
build = "cargo build"
"""


def test_task_pixi_and_mise_tasks_are_read(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["crates/core"]\nresolver = "2"\n')
    core = tmp_path / "crates" / "core"
    (core / "src").mkdir(parents=True)
    (core / "Cargo.toml").write_text('[package]\nname = "core"\nversion = "0.1.0"\nedition = "2021"\n'
                                     '[features]\na = []\nb = []\n')
    (core / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / "Taskfile.yml").write_text(TASKFILE)
    (tmp_path / "pixi.toml").write_text(PIXI)
    (tmp_path / "mise.toml").write_text(MISE)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    got = [(f"{i['file']}:{i['line']}", i["argv"][1:], i["cwd"]) for i in doc["invocations"]]
    assert got == [
        ("Taskfile.yml:14", ["fmt", "--check"], ""),
        ("Taskfile.yml:10", ["build", "--features", "a", "--release"], ""),
        ("Taskfile.yml:18", ["test", "--features", "{{.UNSET}}"], "crates/core"),
        ("pixi.toml:5", ["fetch"], ""),
        ("pixi.toml:4", ["build", "--features", "b"], ""),
        (".github/workflows/ci.yml:8", ["test", "--features", "b"], ""),
        (".github/workflows/ci.yml:9", ["check", "--features", "a"], ""),
        ("mise.toml:5", ["build"], ""),
        ("mise.toml:3", ["clippy", "--features", "a"], ""),
        ("mise.toml:3", ["doc", "--features", "b"], ""),
        (".github/workflows/ci.yml:11", ["build", "--features", "a,b"], ""),
    ], got
    kinds = {f["file"]: f["kind"] for f in doc["coverage"]["files"]}
    assert (kinds["Taskfile.yml"], kinds["pixi.toml"], kinds["mise.toml"]) == ("go-task tasks", "pixi tasks", "mise tasks")
    notes = [f["message"] for f in doc["findings"] if f["rule"] == "unresolved"]
    assert any("`includes` are not followed" in n for n in notes), notes
    assert any("no task 'missing'" in n for n in notes), notes
    assert any("no task 'from-a-file'" in n for n in notes), notes


def test_a_fan_of_task_dependencies_is_bounded(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    # t0 depends on t1 twice-over, t1 on t2 ...: 2**40 runs if nothing bounds them.
    tasks = "".join(f"  t{i}:\n    deps: [t{i + 1}, t{i + 1}]\n    cmds: [cargo build]\n" for i in range(40))
    (tmp_path / "Taskfile.yml").write_text("version: '3'\ntasks:\n" + tasks + "  t40:\n    cmds: [cargo test]\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(
        "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: task t0\n")
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert 0 < len(doc["invocations"]) <= 5_000
    assert any("past 5,000 lines" in f["message"] for f in doc["findings"])


def test_mise_tasks_from_included_files_run_in_the_project_root(tmp_path: Path) -> None:
    doc = audit_files(tmp_path,  "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n" "      - run: mise run --force 'ci:lint'\n", {
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n' '[features]\nx = []\n',
        "src/main.rs": "fn main() {}\n",
        ".mise/config.toml":  '[tools]\nrust = "stable"\n\n[task_config]\nincludes = [".mise/tasks.toml", ".mise/tasks"]\n',
        ".mise/tasks.toml":  '["ci:test"]\ndescription = "tests"\nrun = "cargo test --features x"\n\n' '["ci:lint"]\ndepends = ["ci:test"]\nrun = ["cargo clippy"]\n',
    })
    assert [(f"{i['file']}:{i['line']}", i["argv"][1:], i["cwd"]) for i in doc["invocations"]] == [
        (".mise/tasks.toml:3", ["test", "--features", "x"], ""),
        (".mise/tasks.toml:7", ["clippy"], ""),
    ]

"""Commands run by `xargs` and `find -exec` are read: the command they run, with what xargs reads
or find finds as a word linkgate cannot know (a gap naming it), never a silent miss."""

from __future__ import annotations

import json
from pathlib import Path

from lgtest import git_repo

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: ls examples | sed 's/[.]rs$//' | xargs -n1 -P 2 cargo run --release --example
      - run: ls examples | xargs -I NAME cargo build --example NAME --features gpu
      - run: find . -name Cargo.toml -not -path ./Cargo.toml -exec cargo check --manifest-path {} \\;
      - run: echo a b | xargs
      - run: git ls-files | xargs -0 -r --max-args=4 echo
"""


def test_xargs_and_find_exec_run_their_command_with_unknown_items(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[features]\ngpu = []\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text("")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "a.rs").write_text("fn main() {}\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    items, paths = "$(items xargs reads from its input)", "$(paths find finds)"
    assert [(i["line"], i["argv"], i["exercise"], i["feature_sets"]) for i in doc["invocations"]] == [
        (6, ["cargo", "run", "--release", "--example", items], "linked", ["default"]),
        (7, ["cargo", "build", "--example", items, "--features", "gpu"], "linked", ["gpu"]),
        (8, ["cargo", "check", "--manifest-path", paths], "checked", ["default"]),
    ]
    gaps = {s["line"]: (s["status"], [g["why"] for g in s["gaps"]])
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]}
    assert gaps[6] == ("partly read", [f"cannot evaluate {items}"])
    assert gaps[8] == ("partly read", [f"cannot evaluate {paths}"])
    assert gaps[9] == ("read", []) and gaps[10] == ("read", [])


NET = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: "parallel cargo test --features ::: a b"
      - run: script -q -e -c "cargo build --release" /dev/null
      - run: |
          echo "cargo test"
          sudo apt-get install -y cargo
          rustup component add cargo
          ldd $(cargo test --no-run --message-format=json | jq -r .executable)
"""


def test_a_program_that_may_run_cargo_from_its_arguments_is_a_gap_never_a_silent_miss(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(NET)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    gaps = {s["line"]: [(g["why"], g["may_run_cargo"]) for g in s["gaps"]]
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]}
    assert gaps[6] == [("`parallel` runs a command linkgate does not read, and `cargo` is among its arguments", True)]
    assert gaps[7] == [("`script` runs a command linkgate does not read, and `cargo` is among its arguments", True)]
    # Printing, installing and a substitution the reader evaluates itself are no such gap.
    assert gaps[8] == []
    assert [i["argv"][:3] for i in doc["invocations"]] == [["cargo", "test", "--no-run"]]

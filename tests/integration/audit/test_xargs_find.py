"""Commands run by `xargs` and `find -exec` are read: the command they run, with what xargs reads
or find finds as a word linkgate cannot know (a gap naming it), never a silent miss."""

from __future__ import annotations

from pathlib import Path

from lgtest import audit_files

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


def test_xargs_and_find_exec_run_their_command_with_unknown_items(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {
        "Cargo.toml":  '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[features]\ngpu = []\n',
        "src/lib.rs": "",
        "examples/a.rs": "fn main() {}\n",
    })
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


def test_a_program_that_may_run_cargo_from_its_arguments_is_a_gap_never_a_silent_miss(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, NET, {
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/main.rs": "fn main() {}\n",
    })
    gaps = {s["line"]: [(g["why"], g["may_run_cargo"]) for g in s["gaps"]]
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]}
    assert gaps[6] == [("`parallel` runs a command linkgate does not read, and `cargo` is among its arguments", True)]
    assert gaps[7] == [("`script` runs a command linkgate does not read, and `cargo` is among its arguments", True)]
    # Printing, installing and a substitution the reader evaluates itself are no such gap.
    assert gaps[8] == []
    assert [i["argv"][:3] for i in doc["invocations"]] == [["cargo", "test", "--no-run"]]

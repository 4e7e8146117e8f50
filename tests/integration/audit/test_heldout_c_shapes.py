"""Shapes the first run on heldout-c missed (bench/audit_truth/heldout-c/FIRST_RUN.md): a quoted
empty string is an argument (`--features ""`), cargo-minimal-versions and cargo-careful run the
subcommand they are given, cargo-apk links the library it packs, cargo-docs-rs only documents."""

from __future__ import annotations

from pathlib import Path

from lgtest import audit_files

WORKFLOW = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: cargo test --no-default-features --features "" --all-targets
      - shell: pwsh
        run: cargo test --no-default-features --features '' --all-targets
      - run: |
          cargo minimal-versions check --direct --workspace
          cargo minimal-versions test --direct --features a
          cargo careful test --features a
          cargo apk build --lib
          cargo docs-rs
"""


def test_empty_quoted_words_and_plugins_that_run_a_subcommand(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {
        "Cargo.toml":  '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[lib]\ncrate-type = ["cdylib", "rlib"]\n' '[features]\ndefault = ["a"]\na = []\n',
        "src/lib.rs": "",
    })
    got = [(i["line"], i["subcommand"], i["exercise"], i["feature_sets"]) for i in doc["invocations"]]
    assert got == [
        (6, "test", "tested", ["no default features"]),
        (8, "test", "tested", ["no default features"]),
        (10, "check", "checked", ["default"]),
        (11, "test", "tested", ["a"]),
        (12, "test", "tested", ["a"]),
        (13, "apk build", "linked", ["default"]),
        # cargo-docs-rs takes its features from [package.metadata.docs.rs]: not read, so unnamed.
        (14, "docs-rs", "checked", ["the features of [package.metadata.docs.rs]"]),
    ], got
    assert not [f for f in doc["findings"] if f["rule"] == "unresolved"]


OUTSIDE = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: cargo check
      - run: |
          cd /tmp
          cargo init --bin probe
          cd probe
          cargo build
      - run: |
          cd /github/workspace
          cargo check --features a
"""


def test_a_build_in_an_absolute_directory_outside_the_checkout_credits_nothing(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, OUTSIDE, {
        "Cargo.toml":  '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[features]\na = []\n',
        "src/main.rs": "fn main() {}\n",
    })
    by_line = {i["line"]: i["feature_sets"] for i in doc["invocations"]}
    assert by_line[11] == ["default in /tmp/probe/ (not in the repository)"]
    # The project built in /tmp is not this repository: p's default set is only checked.
    assert [(f["rule"], f["subject"]) for f in doc["findings"] if f["rule"] == "never-linked"] == [
        ("never-linked", "default"), ("never-linked", "a")]


CMAKE = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: cd cpp && cmake -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build
"""


def test_cmake_with_only_a_build_directory_configures_the_working_directory(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, CMAKE, {
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": "",
        "cpp/CMakeLists.txt": "add_custom_target(rs ALL COMMAND cargo build --release)\n",
    })
    gaps = [g for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"] for g in s["gaps"]]
    assert [(g["why"], [m["line"] for m in g["mentions"]]) for g in gaps] == [
        ("builds the CMake project cpp/CMakeLists.txt, which linkgate does not read", [1])]

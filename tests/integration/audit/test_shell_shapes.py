"""One fixture repository per shell shape CI uses (tests/fixtures/audit/shapes/),
audited end to end, with every expected invocation written out by hand:
(program, subcommand, arguments, feature sets, working directory, file:line,
conditional, matrix combination)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def audit(tmp_path: Path, shape: str) -> tuple[int, dict[str, Any]]:
    repo = tmp_path / shape
    shutil.copytree(SHAPES / shape, repo)
    out = tmp_path / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    return rc, json.loads(out.read_text())


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (i["program"], i["subcommand"], tuple(i["argv"][1:]), i["feature_sets"], i["cwd"],
         f"{i['file']}:{i['line']}", i["conditional"], i["matrix"])
        for i in doc["invocations"]
    ]


def unresolved(doc: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["file"], f["line"], f["message"]) for f in doc["findings"] if f["rule"] == "unresolved"]


def test_script_arguments_name_the_program_and_the_target(tmp_path: Path) -> None:
    # ci.yml: `ci/test.bash cargo ${{ matrix.target }}`; the script runs `$1 test --target $2`
    # and `CROSS=$1; $CROSS test --target $TARGET ... "${3:-static}"`.
    _, doc = audit(tmp_path, "positional")
    x86, i686 = {"target": "x86_64-unknown-linux-gnu"}, {"target": "i686-unknown-linux-gnu"}
    assert rows(doc) == [
        ("cargo", "test", ("test", "--target", "x86_64-unknown-linux-gnu"), ["default"], "",
         "ci/test.bash:8", False, x86),
        ("cargo", "test", ("test", "--target", "x86_64-unknown-linux-gnu", "--release", "--features", "static"),
         ["static"], "", "ci/test.bash:9", False, x86),
        ("cargo", "test", ("test", "--target", "i686-unknown-linux-gnu"), ["default"], "",
         "ci/test.bash:8", False, i686),
        ("cargo", "test", ("test", "--target", "i686-unknown-linux-gnu", "--release", "--features", "static"),
         ["static"], "", "ci/test.bash:9", False, i686),
    ]
    assert doc["invocations"][0]["via"] == [
        ".github/workflows/ci.yml:11 ci/test.bash cargo x86_64-unknown-linux-gnu", "ci/test.bash:8"]
    assert unresolved(doc) == []


def test_a_function_runs_once_per_call_with_its_arguments(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "function")
    assert rows(doc) == [
        ("cargo", "build", ("build", "--release", "--target", "x86_64-unknown-linux-gnu"), ["default"], "",
         "ci/build-all.sh:8", False, {}),
        ("cargo", "build", ("build", "--release", "--target", "aarch64-unknown-linux-gnu", "--features", "neon"),
         ["neon"], "", "ci/build-all.sh:8", False, {}),
        ("cargo", "build", ("build", "--release", "--target", "wasm32-unknown-unknown", "--no-default-features",
                            "--features", "web"), ["web (no default)"], "", "ci/build-all.sh:8", False, {}),
        # A wrapper whose body is "$@": the cargo word is written at the call, so that is its line.
        ("cargo", "test", ("test", "--features", "neon"), ["neon"], "", "ci/build-all.sh:20", False, {}),
        ("cargo", "clippy", ("clippy",), ["default"], "", "ci/build-all.sh:21", False, {}),
    ]
    # Each call site is named on the way to the body's cargo line.
    assert [i["via"][1] for i in doc["invocations"]] == [
        "ci/build-all.sh:11 build_for x86_64-unknown-linux-gnu",
        "ci/build-all.sh:12 build_for aarch64-unknown-linux-gnu --features neon",
        "ci/build-all.sh:13 build_for wasm32-unknown-unknown --no-default-features --features web",
        "ci/build-all.sh:20 run cargo test --features neon",
        "ci/build-all.sh:21 run cargo clippy",
    ]


def test_if_on_a_matrix_value_takes_one_branch_per_combination(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "if-matrix")
    assert rows(doc) == [
        ("cargo", "test", ("test", "--features", "vendored"), ["vendored"], "", f"{WF}:19", False,
         {"library": "openssl"}),
        ("cargo", "test", ("test", "--features", "unstable_boringssl"), ["unstable_boringssl"], "", f"{WF}:19",
         False, {"library": "boringssl"}),
        ("cargo", "test", ("test", "--features", "vendored,libressl"), ["libressl,vendored"], "", f"{WF}:19",
         False, {"library": "libressl"}),
    ]
    assert unresolved(doc) == []


def test_case_decides_on_matrix_values_and_keeps_undecided_branches_apart(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "case")
    assert rows(doc) == [
        ("cargo", "test", ("test", "--features", "linux-native"), ["linux-native"], "", f"{WF}:15", False,
         {"os": "ubuntu-latest"}),
        ("cargo", "test", ("test", "--features", "metal"), ["metal"], "", f"{WF}:18", False,
         {"os": "macos-latest"}),
        ("cargo", "check", ("check",), ["default"], "", f"{WF}:21", False, {"os": "windows-latest"}),
        # `$(uname -m)` is known only on the runner: each branch is its own
        # conditional alternative, never one command with both feature sets.
        ("cargo", "build", ("build", "--release", "--features", "avx2"), ["avx2"], "", f"{WF}:30", True, {}),
        ("cargo", "build", ("build", "--release", "--features", "neon"), ["neon"], "", f"{WF}:31", True, {}),
    ]
    assert doc["invocations"][3]["conditions"] == [f"{WF}:29 case $(uname -m) matches x86_64"]


def test_step_and_job_if_apply_per_combination(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "step-if")
    us, un = {"os": "ubuntu-latest", "rust": "stable"}, {"os": "ubuntu-latest", "rust": "nightly"}
    ms, mn = {"os": "macos-latest", "rust": "stable"}, {"os": "macos-latest", "rust": "nightly"}
    doc_step = ("cargo", "doc", ("doc",), ["default"], "", f"{WF}:19", True)
    build = ("cargo", "build", ("build", "--release"), ["default"], "", f"{WF}:17", False)
    miri = ("cargo", "miri", ("+nightly", "miri", "test"), ["default"], "", f"{WF}:13", False)
    assert rows(doc) == [
        ("cargo", "test", ("test", "--no-run", "--features", "linux"), ["linux"], "", f"{WF}:15", False, us),
        (*build, us),
        (*doc_step, us),  # `github.event_name == 'push'` cannot be known: listed, conditional
        (*miri, un),
        (*build, un),
        (*doc_step, un),
        (*doc_step, ms),  # macOS: runner.os is not Linux, so no release build there
        (*miri, mn),
        (*doc_step, mn),
        # A plain `false` in the matrix is the boolean GitHub reads; a quoted 'false' is a
        # non-empty string, so truthy, and not equal to false.
        ("cargo", "test", ("test", "--features", "a"), ["a"], "", f"{WF}:39", False, {"target": "a", "run-tests": "true"}),
        ("cargo", "check", ("check", "--features", "b"), ["b"], "", f"{WF}:41", False,
         {"target": "b", "run-tests": "false"}),
        ("cargo", "test", ("test", "--features", "c"), ["c"], "", f"{WF}:39", False,
         {"target": "c", "run-tests": "false"}),
    ]
    assert doc["invocations"][2]["conditions"] == [f"{WF}:18 if: github.event_name == 'push'"]


def test_subshells_and_pipes_scope_cd_and_variables(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "subshell")
    assert rows(doc) == [
        ("cargo", "test", ("test", "--no-run"), ["default"], "crates/engine", f"{WF}:9", False, {}),
        ("cargo", "build", ("build", "-p", "app"), ["default"], "", f"{WF}:10", False, {}),
        ("cargo", "build", ("build", "--features", "cli"), ["cli"], "tools", f"{WF}:11", False, {}),
        # FEATURES was set only inside ( ... ): empty here, as in bash.
        ("cargo", "check", ("check", "--features", ""), ["default"], "", f"{WF}:13", False, {}),
        # The line of the command, not of its env prefix one line above.
        ("cargo", "bench", ("bench", "--no-run"), ["default"], "", f"{WF}:15", False, {}),
    ]


def test_cross_runs_cargo_per_target(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "cross")
    assert rows(doc) == [
        ("cross", "test", ("test", "--target", target, "--features", "vendored"), ["vendored"], "", f"{WF}:12",
         False, {"target": target})
        for target in ("aarch64-unknown-linux-gnu", "armv7-unknown-linux-gnueabihf")
    ]
    assert [i["links"] for i in doc["invocations"]] == [True, True]


def test_wasm_pack_test_and_build_link_for_wasm(tmp_path: Path) -> None:
    _, doc = audit(tmp_path, "wasm-pack")
    assert rows(doc) == [
        ("wasm-pack", "test", ("test", "--headless", "--chrome", "crates/web", "--", "--features", "browser"),
         ["browser"], "", f"{WF}:9", False, {}),
        ("wasm-pack", "build", ("build", "--target", "web", "crates/web"), ["default"], "", f"{WF}:10", False, {}),
    ]
    inv = doc["invocations"]
    assert [(i["links"], i["profile"], i["target_triples"]) for i in inv] == [
        (True, "dev", ["wasm32-unknown-unknown"]), (True, "release", ["wasm32-unknown-unknown"])]


def test_configure_and_make_that_never_reach_cargo_say_nothing(tmp_path: Path) -> None:
    rc, doc = audit(tmp_path, "configure-make")
    assert doc["invocations"] == []
    assert doc["findings"] == []
    assert rc == 0


@pytest.mark.parametrize("shape", ["positional", "function", "if-matrix", "subshell", "cross", "wasm-pack"])
def test_no_shape_leaves_a_note(tmp_path: Path, shape: str) -> None:
    assert unresolved(audit(tmp_path, shape)[1]) == []


@pytest.mark.parametrize(("line", "script"), [
    ("bash build.sh", "build.sh"), ("sh build", "build"), ("source env.sh && cargo build --features $F", "env.sh"),
    (". ./env.sh && cargo build --features $F", "env.sh"), ("cd ci && bash build.sh", "ci/build.sh"),
])
def test_a_script_given_to_the_shell_without_a_slash_is_read_from_the_working_directory(
        tmp_path: Path, line: str, script: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "ci").mkdir()
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
                                     '[features]\nfast = []\n')
    body = "F=fast\n" if script.startswith(("env", "ci/env")) else "cargo build --features fast\n"
    (repo / script).write_text("#!/bin/bash\n" + body)
    (repo / WF).write_text("on: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                           f"      - run: {line}\n")
    out = tmp_path / "audit.json"
    assert main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)]) in (0, 1)
    doc = json.loads(out.read_text())
    assert [(i["program"], i["subcommand"], i["feature_sets"]) for i in doc["invocations"]] == [
        ("cargo", "build", ["fast"])], (doc["invocations"], unresolved(doc))
    assert unresolved(doc) == []

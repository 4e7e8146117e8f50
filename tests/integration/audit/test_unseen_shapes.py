"""Shapes the first run on unseen repositories missed (bench/audit_truth/heldout/FIRST_RUN.md),
one fixture each under tests/fixtures/audit/shapes/: each is read, or named unread with its
reason and the lines where a program that runs cargo is written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lgtest import audit_shape

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def steps(doc: dict[str, Any]) -> list[tuple[str, int, str, list[tuple[str, str, bool]]]]:
    return [(job["job"], s["line"], s["status"], [(f"{g['file']}:{g['line']}", g["why"], g["may_run_cargo"])
                                                  for g in s["gaps"]])
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]]


def mentions(doc: dict[str, Any]) -> list[tuple[str, int]]:
    return [(m["file"], m["line"]) for wf in doc["coverage"]["workflows"] for job in wf["jobs"]
            for s in job["steps"] for g in s["gaps"] for m in g["mentions"]]


def test_action_inputs_the_action_runs_as_shell_scripts_are_read_as_run_steps(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "action-inputs")
    assert [(i["job"], i["line"], i["argv"], i["feature_sets"], i["matrix"]) for i in doc["invocations"]] == [
        # nick-fields/retry's `command:`, once per matrix combination.
        ("retry", 16, ["cargo", "+stable", "test", "--locked"], ["default"], {"rust": "stable"}),
        ("retry", 16, ["cargo", "+beta", "test", "--locked"], ["default"], {"rust": "beta"}),
        # vmactions' `prepare:` (rustup's `. ~/.cargo/env` is no unread script) and `run:`, with the job's env.
        ("freebsd", 41, ["cargo", "clippy", "--features", "bsd"], ["bsd"], {}),
        ("freebsd", 42, ["cargo", "build", "--release", "--features", "bsd"], ["bsd"], {}),
        ("openbsd", 51, ["cargo", "test", "--features", "bsd"], ["bsd"], {}),  # cross-platform-actions `run:`
        ("arch", 64, ["cargo", "check", "--features", "arm"], ["arm"], {}),  # run-on-arch `run:`
        ("arch", 65, ["cargo", "test", "--features", "arm"], ["arm"], {}),
        ("container", 74, ["cargo", "check", "--features", "extra"], ["extra"], {}),  # docker-run-action
    ]
    assert steps(doc) == [
        ("arch", 55, "read", []), ("arch", 56, "read", []), ("container", 69, "read", []),
        ("container", 70, "read", []), ("freebsd", 30, "read", []), ("freebsd", 31, "read", []),
        ("openbsd", 46, "read", []), ("openbsd", 47, "read", []), ("retry", 11, "read", []), ("retry", 12, "read", []),
        # `shell: python`: the retry action runs a Python script; named, with the line that writes cargo.
        ("retry", 17, "unread", [(f"{WF}:17", "a Python script linkgate does not read", True)]),
    ]
    assert mentions(doc) == [(WF, 24)]
    # `extra` is only checked as far as linkgate can read; the Python script could link it.
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["subject"], never["unless"]) == (
        "warning", "extra", [f"{WF}:17 (uses: nick-fields/retry@v3 shell: python, a Python script linkgate does "
                             "not read)"])


def test_workspace_scripts_of_yarn_npm_and_pnpm_run_in_each_workspace_package(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "js-workspaces")
    assert [(i["job"], f"{i['file']}:{i['line']}", i["argv"][1:], i["feature_sets_by_package"], i["cwd"])
            for i in doc["invocations"]] == [
        # `yarn build --target T`: the root's `workspaces foreach -A --no-private run build`, the
        # extra words passed on; @m/b is private, packages/old is excluded by `!packages/old`, and
        # packages/c's build is a TypeScript program (below).
        ("yarn", "packages/a/package.json:4", ["build", "--platform", "--release", "--features", "simd", "--target",
                                               "x86_64-unknown-linux-gnu"], ["m-a: simd"], "packages/a"),
        # `yarn workspace NAME run build`: that package's script, private or not.
        ("yarn", "packages/b/package.json:5", ["build", "--release", "--features", "gpu"], ["m-b: gpu"], "packages/b"),
        # `npm run build --workspaces`: every workspace package.
        ("npm", "packages/a/package.json:4", ["build", "--platform", "--release", "--features", "simd"],
         ["m-a: simd"], "packages/a"),
        ("npm", "packages/b/package.json:5", ["build", "--release", "--features", "gpu"], ["m-b: gpu"], "packages/b"),
        # `npm run build -w DIR`.
        ("npm", "packages/a/package.json:4", ["build", "--platform", "--release", "--features", "simd"],
         ["m-a: simd"], "packages/a"),
        # `pnpm -r --filter NAME run build` (pnpm-workspace.yaml).
        ("pnpm", "packages/a/package.json:4", ["build", "--platform", "--release", "--features", "simd"],
         ["m-a: simd"], "packages/a"),
        ("pnpm", f"{WF}:24", ["check", "--workspace", "--features", "fast"], ["m-a: fast", "m-b: fast", "m-c: fast"], ""),
        # `run: ${{ matrix.build }}`: GitHub substitutes the text, so TARGET_CC=clang is a prefix assignment.
        ("matrix", "packages/b/package.json:5", ["build", "--release", "--features", "gpu"], ["m-b: gpu"],
         "packages/b"),
    ]
    tsx = ("packages/c/package.json:4", "a TypeScript program linkgate does not read", True)
    assert [(job, line, status, gaps) for job, line, status, gaps in steps(doc) if status != "read"] == [
        ("npm", 17, "partly read", [tsx]),
        ("yarn", 9, "partly read", [tsx]),
        # A TypeScript program that writes no cargo: named, and no `unless`.
        ("yarn", 11, "partly read", [("package.json:7", "a TypeScript program linkgate does not read", False)]),
        ("yarn", 12, "partly read", [(f"{WF}:12", "no workspace '@m/old' in the workspaces of package.json; "
                                      "`yarn build` there not followed", True)]),
    ]
    # The napi CLI's API in build.ts is named, line by line.
    assert sorted(set(mentions(doc))) == [("packages/c/build.ts", 1), ("packages/c/build.ts", 3),
                                          ("packages/c/build.ts", 5)]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert never["level"] == "warning" and never["subject"] == "fast"
    assert never["unless"][0] == ("packages/c/package.json:4 (tsx ./build.ts --release --target "
                                  "x86_64-unknown-linux-gnu, a TypeScript program linkgate does not read)")
    assert not any("tools/x/check.ts" in u or "package.json:7" in u for u in never["unless"])


def test_cargo_make_rust_script_tasks_are_named_unread_and_file_scripts_are_followed(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "cargo-make-scripts")
    assert [(f"{i['file']}:{i['line']}", i["argv"][1:], i["feature_sets"]) for i in doc["invocations"]] == [
        # `script = { file = "ci/test.sh" }` is run; `--env FEATURES=tls -- TASK` sets FEATURES.
        ("ci/test.sh:3", ["test", "--features", "tls"], ["tls"]),
        # `run_task = [{ name = ... }]`, with `-e FEATURES=gui`.
        ("ci/test.sh:3", ["test", "--features", "gui"], ["gui"]),
        (f"{WF}:13", ["check", "--features", "simd"], ["simd"]),
    ]
    rust = ("Makefile.toml:3", "a Rust program linkgate does not read", True)
    inline = (f"{WF}:10", "Makefile.toml:7: task 'inline-rust' is a Rust (rust-script) script (script_runner = "
              "'@rust') linkgate does not read; the cargo commands it runs are not audited", True)
    assert steps(doc) == [("tasks", 8, "read", []), ("tasks", 9, "partly read", [rust]),
                          ("tasks", 10, "partly read", [inline]), ("tasks", 11, "read", []),
                          ("tasks", 12, "read", []), ("tasks", 13, "read", [])]
    # The rust-script file is scanned for the programs that run cargo.
    assert mentions(doc) == [("scripts/build_binary.rs", 1), ("scripts/build_binary.rs", 7)]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["subject"], [u.split(" ")[0] for u in never["unless"]]) == (
        "warning", "simd", ["Makefile.toml:3", f"{WF}:10"])


def test_a_cmake_build_names_the_project_files_that_run_cargo(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "cmake-cargo")
    why = "builds the CMake project ffi/CMakeLists.txt, which linkgate does not read"
    # The configure step records the source of `build`; the build step runs the project's commands.
    assert steps(doc) == [("cmake", 8, "read", []), ("cmake", 9, "read", []),
                          ("cmake", 10, "partly read", [(f"{WF}:10", why, True)]), ("cmake", 11, "read", [])]
    # The included .cmake file and the add_subdirectory'd CMakeLists.txt, comments left out.
    assert mentions(doc) == [("ffi/cmake/rust.cmake", 6), ("ffi/tests/CMakeLists.txt", 2)]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["unless"]) == ("warning", [f"{WF}:10 (cmake --build build, {why})"])


def test_a_cmake_build_of_a_project_without_cargo_is_no_gap(tmp_path: Path) -> None:
    repo = tmp_path / "plain"
    shutil.copytree(SHAPES / "cmake-cargo", repo)
    (repo / "ffi" / "cmake" / "rust.cmake").write_text("add_library(shim STATIC shim.c)\n")
    (repo / "ffi" / "tests" / "CMakeLists.txt").write_text("add_executable(t t.c)\n")
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc = json.loads(out.read_text())
    assert [g["may_run_cargo"] for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]
            for g in s["gaps"]] == [False]
    assert [(f["rule"], f["level"]) for f in doc["findings"]] == [("never-linked", "error")]


def test_scripts_run_by_an_interpreter_or_sourced_are_read_with_or_without_a_slash(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "scripts-called")
    assert [(i["job"], f"{i['file']}:{i['line']}", i["feature_sets"]) for i in doc["invocations"]] == [
        ("scripts", "ci/test.sh:3", ["a"]),  # bash ci/test.sh
        ("scripts", "build.sh:1", ["b"]),  # sh build.sh: no slash, the working directory's file
        ("scripts", f"{WF}:13", ["c"]),  # `. env.sh` exports FEATURES
        ("scripts", "ci/test.sh:3", ["a"]),  # cd ci && sh test.sh
        ("tools", f"{WF}:26", ["tools"]),
        ("tools", f"{WF}:27", ["c"]),  # xargo: cargo's arguments, a sysroot built first
    ]
    foreign = (f"{WF}:25", "checked out from example/ci-tools at run time: tools/ci/run_task.sh is not in the "
               "repository, so the cargo commands it runs are not audited", True)
    assert [s for s in steps(doc) if s[2] != "read"] == [("tools", 25, "partly read", [foreign])]
    assert {f["file"] for f in doc["coverage"]["files"]} == {"build.sh", "ci/test.sh", "env.sh"}
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["subject"], [u.split(" ")[0] for u in never["unless"]]) == (
        "warning", "tools", [f"{WF}:25"])


def test_powershell_braced_assignments_string_sums_and_expression_statements(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "pwsh-assign")
    assert [(i["line"], i["argv"][1:]) for i in doc["invocations"]] == [
        # `${features} = ...`, `${env:X} = ...`, `$all = $features + ",gpu"`; `$all` and a string
        # alone are expression statements: written out, no command.
        (15, ["build", "--features", "simd,gpu", "--target", "x86_64-pc-windows-msvc"]),
        (18, ["test", "--features", "$year"]),
        (19, ["check", "--features", "year"]),
    ]
    why = "cannot evaluate $year (set by the PowerShell expression `(Get-Date).Year` at .github/workflows/ci.yml:17)"
    assert steps(doc) == [("windows", 8, "read", []), ("windows", 9, "read", []),
                          ("windows", 16, "partly read", [(f"{WF}:18", why, True)]), ("windows", 19, "read", [])]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["subject"]) == ("warning", "year")


def test_a_nix_build_names_the_flake_lines_that_build_rust(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "nix-flake")
    why = "builds the Nix derivations of flake.nix, which linkgate does not read"
    assert steps(doc) == [("nix", 8, "read", []), ("nix", 9, "partly read", [(f"{WF}:9", why, True)]),
                          ("nix", 10, "partly read", [(f"{WF}:10", why, True)]), ("nix", 11, "read", [])]
    assert sorted(set(mentions(doc))) == [("flake.nix", 6)]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], [u.split(" ")[0] for u in never["unless"]]) == ("warning", [f"{WF}:9", f"{WF}:10"])

"""Shapes met on CIs linkgate had never seen (issue 26), one fixture each under
tests/fixtures/audit/shapes/, audited end to end: subcommand meaning, task runners,
launchers, earlier action names, docker images, matrices from job outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def audit(tmp_path: Path, shape: str) -> dict[str, Any]:
    repo = tmp_path / shape
    shutil.copytree(SHAPES / shape, repo)
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(i["line"], i["program"], i["subcommand"], i["exercise"], i["feature_sets_by_package"], i["cwd"])
            for i in doc["invocations"]]


def test_aliases_fuzz_minimisers_crates_io_installs_and_package(tmp_path: Path) -> None:
    doc = audit(tmp_path, "subcommands")
    assert rows(doc) == [
        (10, "cargo", "test", "tested", ["engine: default"], ""),
        (11, "cargo", "build", "linked", ["engine: gpu"], ""),  # `b`
        (12, "cargo", "check", "checked", ["engine: simd"], ""),  # `c`
        (13, "cargo", "nextest run", "tested", ["engine: simd"], ""),  # nextest's `r`
        (14, "cargo", "fuzz cmin", "linked", ["engine-fuzz-links: default"], ""),
        # A crates.io tool, whatever precedes `install`: this repository is not linked.
        (15, "cargo", "install", None, ["engine: default"], ""),
        (16, "cargo", "install", "linked", ["engine: gpu"], ""),  # --path .
        (17, "cargo", "package", "compiled", ["engine: extra"], ""),
        (18, "cargo", "check", "checked", ["engine-fuzz: default"], ""),
    ]
    found = [(f["rule"], f["level"], f["line"], f["subject"]) for f in doc["findings"]]
    assert found == [
        # `package -F extra` compiles the lib with `extra`; nothing links it.
        ("never-linked", "error", 17, "extra"),
        # The fuzz package has its own workspace; CI only checks it.
        ("never-linked", "error", 18, "default"),
        # `+${{ env.msrv }}` is unknown, but an install of a crates.io tool cannot link
        # this repository: a note, and no `unless` on the findings above.
        ("unresolved", "note", 15, "${{ env.msrv }}"),
    ]


def test_cargo_make_extend_env_conditions_and_task_env_and_just_builtins(tmp_path: Path) -> None:
    doc = audit(tmp_path, "task-files")
    assert [(i["job"], f"{i['file']}:{i['line']}", i["argv"][1:], i["feature_sets"]) for i in doc["invocations"]] == [
        # Makefile.toml extends Makefile.ci.toml (a `{ path }` table in a list), which extends
        # make/base.toml (a string); `[env]`'s condition holds (CARGO_FEATURES is not set).
        ("make", "Makefile.ci.toml:4", ["check", "--features", "cuda"], ["cuda"]),
        # `[tasks.nextest.env]`.
        ("make", "make/base.toml:2", ["nextest", "run", "--features", "metal"], ["metal"]),
        # A `platforms` condition is not decided here: the value stays unknown.
        ("make", "make/extra.toml:2", ["clippy", "--features", "${ON_CI}"], ["${ON_CI}"]),
        # The job sets CARGO_FEATURES: the condition fails and the job's value is used.
        ("make-simd", "Makefile.ci.toml:4", ["check", "--features", "simd"], ["simd"]),
        # env_var_or_default('MSRV', "") is empty, join(justfile_directory(), ...) absolute,
        # quote() a shell word, env_var('FEATURES') the job's value.
        ("just", "justfile:6", ["check", "--target-dir", "/github/workspace/target", "--features", "gpu"], ["gpu"]),
        ("just-msrv", "justfile:6",
         ["+1.80", "check", "--target-dir", "/github/workspace/target", "--features", "{{env_var('FEATURES')}}"],
         ["{{env_var('FEATURES')}}"]),
    ]
    assert doc["invocations"][4]["subcommand"] == "check"
    assert [(f["rule"], f["subject"]) for f in doc["findings"]] == [
        ("never-linked", "cuda"), ("never-linked", "simd"), ("never-linked", "gpu"),
        ("unresolved", "{{env_var('FEATURES')}}"), ("unresolved", "${ON_CI}"),
    ]

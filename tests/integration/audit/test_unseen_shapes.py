"""Shapes the first run on unseen repositories missed (bench/audit_truth/heldout/FIRST_RUN.md),
one fixture each under tests/fixtures/audit/shapes/: each is read, or named unread with its
reason and the lines where a program that runs cargo is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lgtest import audit_shape

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

"""Read coverage and no guessing (tests/fixtures/audit/shapes/): every step classified
read / partly read / unread with its reason; a word that is no cargo subcommand is a
note, never a record; a finding resting on an absence that an unread step could
contradict is a warning naming that step (JSON `unless`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from lgtest import audit_shape

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def audit(tmp_path: Path, shape: str) -> dict[str, Any]:
    return audit_shape(tmp_path, shape)


def steps(doc: dict[str, Any]) -> list[tuple[str, int, str, list[tuple[str, str, bool]]]]:
    return [(job["job"], s["line"], s["status"], [(f"{g['file']}:{g['line']}", g["why"], g["may_run_cargo"])
                                                  for g in s["gaps"]])
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]]


def test_an_unread_xtask_makes_never_linked_a_warning_that_names_it(tmp_path: Path) -> None:
    doc = audit(tmp_path, "xtask-unless")
    never = [f for f in doc["findings"] if f["rule"] == "never-linked"]
    assert [(f["level"], f["subject"], f["unless"]) for f in never] == [
        ("warning", "all features", [f"{WF}:16 (cargo xtask test, a Rust program linkgate cannot read)"]),
    ]
    assert f"unless {WF}:16 (cargo xtask test, a Rust program linkgate cannot read) links it" in never[0]["message"]
    assert steps(doc)[-1] == ("test", 16, "partly read", [(f"{WF}:16", "a Rust program linkgate cannot read", True)])
    # The textual scan points at the line of the xtask that writes cargo.
    gap = doc["coverage"]["workflows"][0]["jobs"][1]["steps"][1]["gaps"][0]
    assert [(m["file"], m["line"]) for m in gap["mentions"]] == [("xtask/src/main.rs", 5)]
    assert doc["coverage"]["totals"] == {"read": 3, "partly read": 1, "unread": 0, "steps": 4}


def test_never_linked_stays_an_error_when_everything_was_read(tmp_path: Path) -> None:
    repo = tmp_path / "read"
    shutil.copytree(SHAPES / "xtask-unless", repo)
    wf = repo / WF
    wf.write_text(wf.read_text().replace("cargo xtask test", "cargo test -p xtask"))
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc = json.loads(out.read_text())
    assert [(f["rule"], f["level"], f["unless"]) for f in doc["findings"]] == [("never-linked", "error", [])]
    assert doc["coverage"]["totals"] == {"read": 4, "partly read": 0, "unread": 0, "steps": 4}


def test_a_word_that_is_no_cargo_subcommand_is_a_note_never_a_record(tmp_path: Path) -> None:
    doc = audit(tmp_path, "no-guessing")
    assert [(i["subcommand"], i["line"]) for i in doc["invocations"]] == [("check", 10), ("sort", 16)]
    notes = [(f["line"], f["subject"]) for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == [(13, "$(cat .subcommand)"), (14, "test --release"), (15, "frobnicate")]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert never["level"] == "warning" and [u.split(" ")[0] for u in never["unless"]] == [
        f"{WF}:13", f"{WF}:14", f"{WF}:15"]


def test_programs_linkgate_does_not_read_are_named_with_the_lines_that_write_cargo(tmp_path: Path) -> None:
    doc = audit(tmp_path, "unread")
    assert steps(doc) == [
        ("check", 9, "read", []),
        ("check", 10, "read", []),
        # A Python script is read (workflows.pyscript); its run inside a loop over values found at
        # run time is the part not read, named at its own line.
        ("check", 11, "partly read", [("scripts/build_wheels.py:9", "a command the Python script runs is not read: "
                                       "it runs in the loop at line 8, which linkgate does not evaluate", True)]),
        # It runs nothing: read.
        ("check", 12, "read", []),
        # Run by path, but a nushell program: never read as bash.
        ("check", 13, "partly read", [(f"{WF}:13", "a nushell program linkgate does not read", True)]),
        ("check", 14, "unread", [(f"{WF}:15", "a Python script linkgate does not read", True)]),
        ("check", 18, "unread", [(f"{WF}:18", "a local JavaScript action linkgate does not read", True)]),
        ("check", 19, "unread", [(f"{WF}:19", "an action linkgate does not know", False)]),
    ]
    mentions = [(m["file"], m["line"]) for wf in doc["coverage"]["workflows"] for job in wf["jobs"]
                for s in job["steps"] for g in s["gaps"] for m in g["mentions"]]
    assert mentions == [("scripts/release.nu", 3), (WF, 17),
                        (".github/actions/build/action.yml", 5)]
    assert [i["subcommand"] for i in doc["invocations"]] == ["check"]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert never["level"] == "warning" and len(never["unless"]) == 4
    assert sorted((f["file"], f["line"]) for f in doc["findings"] if f["rule"] == "unresolved") == [
        (WF, 13), (WF, 15), (WF, 18), ("scripts/build_wheels.py", 9)]


def test_coverage_flag_prints_each_step_per_workflow_and_job(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "x"
    shutil.copytree(SHAPES / "xtask-unless", repo)
    main(["audit", "--repo", str(repo), "--coverage"])
    out = capsys.readouterr().out
    assert ".github/workflows/ci.yml\n  job check\n    read line 9: uses: actions/checkout@v4" in out
    assert "    partly read line 16: run: cargo xtask test\n" in out
    assert "xtask/src/main.rs:5: let status = Command::new(\"cargo\")" in out
    assert "read coverage: 3 read, 1 partly read, 0 unread of 4 steps" in out
    main(["audit", "--repo", str(repo)])
    assert "read coverage" not in capsys.readouterr().out


def test_files_reached_are_classified_once_each(tmp_path: Path) -> None:
    unread = audit(tmp_path, "unread")["coverage"]
    assert [(f["file"], f["kind"], f["status"]) for f in unread["files"]] == [
        (".github/actions/build/action.yml", "action", "unread"),
        ("scripts/build_wheels.py", "script", "partly read"),
        ("scripts/changelog.py", "script", "read"),
        # Opened to learn its language from the shebang, never read as bash.
        ("scripts/release.nu", "script", "unread"),
    ]
    tasks = audit(tmp_path / "t", "task-files")["coverage"]
    assert [(f["file"], f["kind"], f["status"], f["reasons"]) for f in tasks["files"]] == [
        ("Makefile.ci.toml", "cargo-make tasks", "read", []),
        ("Makefile.toml", "cargo-make tasks", "read", []),
        ("justfile", "justfile", "partly read", ["line 6: cannot evaluate {{env_var('FEATURES')}}"]),
        ("make/base.toml", "cargo-make tasks", "read", []),
        ("make/extra.toml", "cargo-make tasks", "partly read", ["line 2: cannot evaluate ${ON_CI}"]),
    ]
    assert tasks["file_totals"] == {"read": 3, "partly read": 2, "unread": 0}
    docker = audit(tmp_path / "d", "docker-image")["coverage"]
    # Its ENTRYPOINT is followed by `docker run`; its RUN lines, run by the build, are not read.
    assert [(f["file"], f["status"]) for f in docker["files"]] == [
        ("docker/Dockerfile", "partly read"), ("scripts/entrypoint.sh", "read")]


def test_a_command_gate_may_link_but_a_gate_linkgate_run_refuses_cannot(tmp_path: Path) -> None:
    repo = tmp_path / "gates"
    shutil.copytree(SHAPES.parent / "gates", repo)
    wf = repo / WF
    wf.write_text(wf.read_text().replace("linkgate run bz-link", "linkgate run make-link"))
    out = tmp_path / "a.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    never = [f for f in json.loads(out.read_text())["findings"] if f["rule"] == "never-linked"]
    # `make link` is a command linkgate does not read: it could link `static`.
    assert [(f["level"], f["unless"]) for f in never] == [
        ("warning", [f"{WF}:17 (linkgate run, gate 'make-link' runs `make link`, not cargo: what it links is "
                     "not audited)"])]
    wf.write_text(wf.read_text().replace("linkgate run make-link", "linkgate run no-such-gate"))
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    never = [f for f in json.loads(out.read_text())["findings"] if f["rule"] == "never-linked"]
    # `linkgate run` refuses a gate name it does not have: it links nothing.
    assert [(f["level"], f["unless"]) for f in never] == [("error", [])]


def test_markdown_summary_states_the_read_coverage(tmp_path: Path) -> None:
    repo = tmp_path / "x"
    shutil.copytree(SHAPES / "xtask-unless", repo)
    md = tmp_path / "audit.md"
    main(["audit", "--repo", str(repo), "--format", "markdown", "--output", str(md)])
    assert ("Read coverage: 3 of 4 steps read, 1 partly read, 0 unread (`linkgate audit --coverage` lists them)."
            in md.read_text().splitlines())

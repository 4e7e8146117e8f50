"""The PowerShell reader's pipeline chains and assignments (workflows/pwsh.py)."""

from __future__ import annotations

from linkgate.workflows.pwsh import to_bash


def test_pipeline_chains_keep_their_operators_and_rows() -> None:
    out = to_bash("cargo fetch && cargo build --release\ncd crates/x || exit 1\ncargo test")
    assert out.text.split("\n") == ["cargo fetch && cargo build --release", "cd crates/x || exit 1", "cargo test"]
    assert out.problems == []


def test_a_chain_part_that_cannot_be_read_is_a_problem_not_dropped() -> None:
    out = to_bash("cargo build && ./ci/test.ps1 -Features cuda")
    assert out.text == ""
    assert [(row, cause) for row, cause, _ in out.problems] == [(0, "PowerShell script")]
    # The part not read may be the one without cargo: the note names the whole chain.
    later = to_bash("cargo build && (Get-Date)")
    assert later.text == "" and [cause for _, cause, _ in later.problems] == ["PowerShell expression"]
    assert "`cargo build && (Get-Date)`" in later.problems[0][2]
    dangling = to_bash("cargo build &&")
    assert [cause for _, cause, _ in dangling.problems] == ["PowerShell pipeline chain"]


def test_an_assignment_from_a_command_that_may_run_cargo_is_a_problem() -> None:
    out = to_bash("$meta = cargo metadata --format-version 1\n$when = (Get-Date)\n$features = 'cuda'")
    assert [(row, cause) for row, cause, _ in out.problems] == [(0, "PowerShell expression")]
    assert out.text.split("\n")[2] == "features=cuda"


def test_redirections_are_where_output_goes_not_arguments() -> None:
    out = to_bash("cargo --version > Cargo.version\ncargo build 2>&1 | Tee-Object log\ncargo test *> $null\n"
                  "cargo doc >>docs.log")
    assert out.text.split("\n") == ["cargo --version", "cargo build", "cargo test >/dev/null", "cargo doc"]

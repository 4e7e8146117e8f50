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


def test_braced_assignments_string_sums_and_expression_statements_run_nothing() -> None:
    from linkgate.workflows import pwsh

    done = pwsh.to_bash('${x} = "a"\n${env:T} = \'b\'\n$y = $x + ",c"\n$y\n"text $y"\n$z = (Get-Date).Year\n'
                        '$x + (cargo metadata)\n')
    assert done.text.split("\n")[:5] == ['x="a"', "export T=b", 'y="${x}"",c"', "", ""]
    # An unread value is an unknown variable naming its line, never a command.
    assert done.text.split("\n")[5] == "z=${LG_PWSH_5_0}"
    assert done.unknowns == [(5, "LG_PWSH_5_0", "$z", "(Get-Date).Year")]
    assert "pwsh-expression)" not in done.text
    assert [(row, cause) for row, cause, _ in done.problems] == [(6, "PowerShell expression")]

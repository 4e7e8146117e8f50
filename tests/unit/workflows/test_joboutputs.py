"""Matrices from a job's output: the literal the producing job writes, or left as written."""

from __future__ import annotations

from pathlib import Path

from linkgate.workflows.joboutputs import resolve
from linkgate.workflows.read import read_workflows

PLAN = """on: pull_request
jobs:
  plan:
    runs-on: ubuntu-latest
    outputs:
      t: ${{{{ steps.s.outputs.t }}}}
    steps:
      - id: s
        run: |
{write}
  use:
    needs: plan
    runs-on: ubuntu-latest
    strategy:
      matrix:
        target: ${{{{ fromJSON(needs.plan.outputs.t) }}}}
    steps:
      - run: cargo build --target ${{{{ matrix.target }}}}
"""


def matrix_of(tmp_path: Path, write: str) -> object:
    (tmp_path / ".github" / "workflows").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(PLAN.format(write="          " + write))
    workflows, broken = read_workflows(tmp_path)
    assert broken == []
    wf = workflows[0]
    return resolve(wf, wf.jobs[1])


def test_a_literal_written_to_github_output_is_the_axis(tmp_path: Path) -> None:
    assert matrix_of(tmp_path, """echo 't=["a","b"]' >> "$GITHUB_OUTPUT\"""") == {"target": ["a", "b"]}


def test_the_deprecated_set_output_command_writes_it_too(tmp_path: Path) -> None:
    assert matrix_of(tmp_path, """echo '::set-output name=t::["x"]'""") == {"target": ["x"]}


def test_a_computed_value_stays_as_written(tmp_path: Path) -> None:
    written = "${{ fromJSON(needs.plan.outputs.t) }}"
    assert matrix_of(tmp_path, """echo "t=$(jq -c . targets.json)" >> $GITHUB_OUTPUT""") == {"target": written}
    # Written twice (on two branches, say): which one is not known.
    twice = """if [ -n "$X" ]; then
            echo 't=["a"]' >> $GITHUB_OUTPUT
          else
""" \
            """            echo 't=["b"]' >> $GITHUB_OUTPUT
          fi"""
    assert matrix_of(tmp_path, twice) == {"target": written}

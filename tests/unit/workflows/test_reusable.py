"""Binding a reusable workflow's `inputs` from its caller, evaluating a matrix of inputs, and
the caller's triggers for the called jobs."""

from __future__ import annotations

from pathlib import Path

from linkgate.workflows import ghexpr, matrix, reusable
from linkgate.workflows.expr import ExprContext
from linkgate.workflows.model import CallSite, parse_workflow
from linkgate.workflows.triggers import trigger_for
from linkgate.workflows.yamlnodes import load_text

CALLED = """\
on:
  workflow_call:
    inputs:
      all: {type: boolean, default: true}
      jobs: {type: number, default: 2}
      profile: {type: string, default: dev}
      quiet: {type: boolean}
      level: {type: number}
      name: {type: string}
jobs:
  t:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        f: ${{ inputs.all && fromJSON('[true, false]') || fromJSON('[true]') }}
        target: [a, b]
        include:
          - target: a
            f: true
            extra: yes
    steps:
      - run: cargo test
"""


def _wf(text: str, rel: str = ".github/workflows/t.yml"):  # type: ignore[no-untyped-def]
    return parse_workflow(Path(rel), rel, load_text(text))


def test_given_values_then_defaults_then_the_types_zero() -> None:
    wf = _wf(CALLED)
    given = load_text("all: false\njobs: '8'\nprofile: ${{ matrix.p }}\n")
    bound = reusable.bind(reusable.declared(wf), given, ExprContext(matrix={"p": "release"}))
    assert bound == {"all": False, "jobs": 8, "profile": "release", "quiet": False, "level": 0, "name": ""}
    assert not isinstance(bound, ghexpr.OpenMap)
    assert reusable.bind(reusable.declared(wf), {}, ExprContext()) == {
        "all": True, "jobs": 2, "profile": "dev", "quiet": False, "level": 0, "name": ""}


def test_a_value_that_cannot_be_computed_leaves_that_input_unknown() -> None:
    wf = _wf(CALLED)
    given = load_text("all: ${{ github.event.inputs.all }}\nprofile: x-${{ secrets.P }}\n")
    bound = reusable.bind(reusable.declared(wf), given, ExprContext())
    assert isinstance(bound, ghexpr.OpenMap)
    assert "all" not in bound and "profile" not in bound and bound["jobs"] == 2
    ctx = ExprContext(inputs=bound)
    assert ghexpr.evaluate("inputs.all", ctx.contexts()) == ghexpr.UNKNOWN
    assert ghexpr.evaluate("inputs.jobs", ctx.contexts()) == 2.0


def test_a_required_input_not_given_is_unknown_and_a_string_for_a_boolean_is_read_as_github_does() -> None:
    decl = load_text("a: {type: boolean, required: true}\nb: {type: boolean}\nc: {type: number}\n")
    bound = reusable.bind(decl, load_text("b: 'true'\nc: ${{ 1 }}\n"), ExprContext())
    assert isinstance(bound, ghexpr.OpenMap) and dict(bound) == {"b": True, "c": 1}


def test_a_matrix_axis_decided_by_a_boolean_input_and_includes_that_match_its_booleans() -> None:
    wf = _wf(CALLED)
    job = wf.jobs[0]
    on = reusable.matrix(job.matrix, ExprContext(inputs={"all": True}))
    assert on["f"] == [True, False]
    assert matrix.expand(on) == [
        # The include's plain `true` is the axis's boolean true: it extends, it adds no combination.
        {"f": True, "target": "a", "extra": "yes"}, {"f": True, "target": "b"},
        {"f": False, "target": "a"}, {"f": False, "target": "b"},
    ]
    off = reusable.matrix(job.matrix, ExprContext(inputs={"all": False}))
    assert matrix.expand(off) == [{"f": True, "target": "a", "extra": "yes"}, {"f": True, "target": "b"}]
    # Inputs unknown: the axis stays an expression, so the matrix is unknown, as before.
    assert matrix.expand(reusable.matrix(job.matrix, ExprContext())) is None


def test_the_inputs_of_a_reusable_workflows_own_runs() -> None:
    dispatch = _wf("on:\n  workflow_dispatch:\n    inputs:\n      all: {type: boolean, default: true}\n"
                   "      mode: {type: choice, options: [a, b], required: true}\n  workflow_call:\n"
                   "jobs:\n  t:\n    runs-on: x\n    steps: []\n")
    bound = reusable.direct_inputs(dispatch)
    assert isinstance(bound, ghexpr.OpenMap) and dict(bound) == {"all": True}
    push = _wf("on:\n  push:\n  workflow_call:\njobs:\n  t:\n    runs-on: x\n    steps: []\n")
    assert reusable.direct_inputs(push) == {}  # a push run has no inputs: `inputs.x` is null
    both = _wf("on: [push, workflow_dispatch, workflow_call]\njobs:\n  t:\n    runs-on: x\n    steps: []\n")
    assert reusable.direct_inputs(both) is None


def test_local_and_remote_targets() -> None:
    assert reusable.local_target("./.github/workflows/t.yml") == ".github/workflows/t.yml"
    assert reusable.local_target("./.github/workflows/../../../x.yml") == "../x.yml"
    assert not reusable.is_workflow_path("../x.yml") and not reusable.is_workflow_path("ci/t.yml")
    assert reusable.local_target("o/r/.github/workflows/t.yml@v1") is None
    assert reusable.is_remote("o/r/.github/workflows/t.yml@v1")
    assert not reusable.is_remote("o/r/.github/workflows/t.yml")


CALLER = """\
on:
  pull_request:
    paths: ['src/**']
  schedule:
    - cron: '0 0 * * *'
jobs:
  call:
    if: github.event_name == 'schedule'
    uses: ./.github/workflows/t.yml
"""


def test_the_called_jobs_run_on_the_callers_events_narrowed_by_the_callers_if(tmp_path: Path) -> None:
    caller = _wf(CALLER, ".github/workflows/ci.yml")
    called = _wf(CALLED)
    job = called.jobs[0]
    site = CallSite(caller, caller.jobs[0], 9, None)
    assert trigger_for(tmp_path, called, job, job.steps[0]).events == ("workflow_call",)
    trigger = trigger_for(tmp_path, called, job, job.steps[0], (site,))
    assert trigger.events == ("schedule",) and not trigger.pr_visible
    assert trigger.native_paths == ("src/**",)

from __future__ import annotations

from pathlib import Path

from linkgate.workflows.model import parse_workflow
from linkgate.workflows.triggers import trigger_for
from linkgate.workflows.yamlnodes import load_text

WORKFLOW = """\
on:
  push:
    tags: ['v*']
  pull_request:
    paths: ['src/**']
  schedule:
    - cron: '0 0 * * *'
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      link: ${{ steps.filter.outputs.link }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            link:
              - 'build.rs'
              - added|modified: 'src/**'
  link:
    needs: changes
    if: needs.changes.outputs.link == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  nightly:
    if: github.event_name == 'schedule' || github.event_name == 'push'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  not-nightly:
    if: github.event_name != 'schedule'
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: .github/filters.yml
      - if: steps.f.outputs.core == 'true'
        run: cargo build
"""


def test_triggers_events_narrowing_and_paths_filters(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "filters.yml").write_text("core:\n  - 'crates/**'\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(WORKFLOW))
    jobs = {j.id: j for j in wf.jobs}

    link = trigger_for(tmp_path, wf, jobs["link"], jobs["link"].steps[0])
    assert link.events == ("push-tags", "pull_request", "schedule")
    assert link.pr_visible and link.native_paths == ("src/**",)
    assert link.paths_filter is not None
    # The filter's own line: `link:` in the step's filters text, not the step.
    assert (link.paths_filter.job, link.paths_filter.filter, link.paths_filter.line) == ("changes", "link", 19)
    # on.pull_request.paths skips the whole workflow: a filter too, at its `paths:` line.
    assert [(f.filter, f.kind, f.line) for f in link.filters] == [
        ("link", "paths-filter", 19), ("on.pull_request.paths", "paths", 5)]
    assert [str(r) for r in link.paths_filter.rules or ()] == ["build.rs", "added|modified: src/**"]
    assert link.paths_filter.quantifier == "every"

    nightly = trigger_for(tmp_path, wf, jobs["nightly"], jobs["nightly"].steps[0])
    assert nightly.events == ("push-tags", "schedule") and not nightly.pr_visible

    other = trigger_for(tmp_path, wf, jobs["not-nightly"], jobs["not-nightly"].steps[1])
    assert other.events == ("push-tags", "pull_request")
    assert other.paths_filter is not None
    assert [str(r) for r in other.paths_filter.rules or ()] == ["crates/**"]


def test_a_push_to_other_branches_does_not_guard_the_default_branch(tmp_path: Path) -> None:
    def events(on: str) -> tuple[str, ...]:
        text = f"on:\n{on}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo build\n"
        wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
        return trigger_for(tmp_path, wf, wf.jobs[0], wf.jobs[0].steps[0]).events

    assert events("  push:\n    branches: [fix/some-branch]") == ("push-branches",)
    assert events("  push:\n    branches: ['release/**', main]") == ("push",)
    assert events("  push:\n    branches: ['*']") == ("push",)  # `*` matches main
    assert events("  push:\n    branches-ignore: [main, master]") == ("push-branches",)
    assert events("  push:\n    branches-ignore: ['dependabot/**']") == ("push",)
    # The checkout's own branch counts as a default branch too.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/trunk\n")
    assert events("  push:\n    branches: [trunk]") == ("push",)
    # So does origin's HEAD, which a clone on a feature branch still knows (a `dev` default branch).
    assert events("  push:\n    branches: [dev]") == ("push-branches",)
    (tmp_path / ".git" / "refs" / "remotes" / "origin").mkdir(parents=True)
    (tmp_path / ".git" / "refs" / "remotes" / "origin" / "HEAD").write_text("ref: refs/remotes/origin/dev\n")
    assert events("  push:\n    branches: [dev]") == ("push",)


def test_several_filters_combine_as_the_condition_writes_them(tmp_path: Path) -> None:
    text = """\
on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      a: ${{ steps.f.outputs.a }}
      b: ${{ steps.f.outputs.b }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            a: ['a/**']
            b: ['b/**']
  either:
    needs: changes
    if: needs.changes.outputs.a == 'true' || needs.changes.outputs.b == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  both:
    needs: changes
    if: ${{ needs.changes.outputs.a == 'true' && needs.changes.outputs.b == 'true' }}
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  or-other:
    needs: changes
    if: needs.changes.outputs.a == 'true' || inputs.force
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
"""
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    jobs = {j.id: j for j in wf.jobs}
    either, both, other = (trigger_for(tmp_path, wf, jobs[n], jobs[n].steps[0]) for n in ("either", "both", "or-other"))
    assert [(f.filter, f.line) for f in either.filters] == [("a", 13), ("b", 14)]
    assert [either.runs_when_only(p) for p in ("a/x", "b/x", "c/x")] == [True, True, False]
    assert [both.runs_when_only(p) for p in ("a/x", "b/x", "c/x")] == [False, False, False]
    # An input linkgate cannot know may run the job anyway: no path is said to be missed.
    assert [other.runs_when_only(p) for p in ("a/x", "c/x")] == [True, None]


def test_a_filter_named_in_index_syntax_is_found(tmp_path: Path) -> None:
    """`ci github` writes `outputs['my.gate']` for a gate whose name is no identifier;
    `outputs.my.gate` is the property `gate` of `outputs.my`, no filter at all."""
    text = """\
on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      my.gate: ${{ steps.filter.outputs['my.gate'] }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            my.gate: ['native/**']
  index:
    needs: changes
    if: needs.changes.outputs['my.gate'] == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  dotted:
    needs: changes
    if: needs.changes.outputs.my.gate == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
"""
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    jobs = {j.id: j for j in wf.jobs}
    index = trigger_for(tmp_path, wf, jobs["index"], jobs["index"].steps[0])
    assert index.paths_filter is not None and index.paths_filter.filter == "my.gate"
    assert [str(r) for r in index.paths_filter.rules or ()] == ["native/**"]
    assert index.runs_when_only("native/x.c") is True and index.runs_when_only("src/lib.rs") is False
    dotted = trigger_for(tmp_path, wf, jobs["dotted"], jobs["dotted"].steps[0])
    assert dotted.paths_filter is None


def test_a_job_only_for_tags_or_dispatch_is_not_gated_by_the_push_paths(tmp_path: Path) -> None:
    text = """on:
  push:
    branches: [main]
    tags: ['v*']
    paths: ['.github/**']
  workflow_dispatch:
jobs:
  nightly:
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  release:
    if: github.event_name == 'workflow_dispatch' || startsWith(github.ref, 'refs/tags/v')
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
"""
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    nightly, release = (trigger_for(tmp_path, wf, j, j.steps[0]) for j in wf.jobs)
    assert nightly.events == ("push", "workflow_dispatch") and nightly.filters
    # GitHub evaluates no paths filter for a tag push or a dispatch: nothing gates this job.
    assert release.events == ("push-tags", "workflow_dispatch") and release.filters == ()
    assert not release.pr_visible

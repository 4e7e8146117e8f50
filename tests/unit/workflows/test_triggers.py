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
    assert (link.paths_filter.job, link.paths_filter.filter, link.paths_filter.line) == ("changes", "link", 14)
    assert [str(r) for r in link.paths_filter.rules or ()] == ["build.rs", "added|modified: src/**"]
    assert link.paths_filter.quantifier == "every"

    nightly = trigger_for(tmp_path, wf, jobs["nightly"], jobs["nightly"].steps[0])
    assert nightly.events == ("push-tags", "schedule") and not nightly.pr_visible

    other = trigger_for(tmp_path, wf, jobs["not-nightly"], jobs["not-nightly"].steps[1])
    assert other.events == ("push-tags", "pull_request")
    assert other.paths_filter is not None
    assert [str(r) for r in other.paths_filter.rules or ()] == ["crates/**"]

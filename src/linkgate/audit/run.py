"""Run the audit: read the workflows, classify every cargo invocation, find, rank.

Data flows one way: ``linkgate.workflows`` (read, expand, find invocations)
-> ``audit.classify`` -> ``audit.findings`` and ``audit.surfacecheck`` ->
``audit.rank``. Rendering is ``linkgate.commands.audit``'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from linkgate import repofs
from linkgate.audit import findings, rank
from linkgate.audit.classify import TriggerCache, classify
from linkgate.audit.model import AuditResult
from linkgate.errors import RefusedFile
from linkgate.workflows import coverage
from linkgate.workflows.gates import GateSource
from linkgate.workflows.coverage import CoverageLog, StepCoverage
from linkgate.workflows.invocations import Library, scan_workflow
from linkgate.workflows.model import CallSite, Workflow
from linkgate.workflows.read import read_workflows
from linkgate.workflows.triggers import trigger_for


def run_audit(repo: Path) -> AuditResult:
    result = AuditResult()
    workflows, result.unreadable = read_workflows(repo)
    result.workflows = sorted([wf.rel for wf in workflows] + [u.rel for u in result.unreadable])
    triggers: TriggerCache = {}
    gates = GateSource(repo)
    library = Library({wf.rel: wf for wf in workflows},
                      # Refused (outside the repository, not a regular file): what it runs is unknown.
                      # Invalid or too large: GitHub refuses it too, so it runs nothing.
                      {u.rel: (u.message if u.refused else f"not valid: {u.message}", u.refused)
                       for u in result.unreadable})
    # A reusable workflow's steps are reached through each of its callers: one entry each, merged.
    log = CoverageLog()
    chains: dict[tuple[str, str, int], dict[tuple[tuple[str, str], ...], tuple[CallSite, ...]]] = {}
    noted: set[tuple[str, str]] = set()
    for wf in workflows:
        scan = scan_workflow(repo, wf, gates=gates, library=library)
        for problem in scan.problems:
            # One note per (file, cause), as within a scan: a reusable workflow's line is met
            # through each of its callers.
            cause = (problem[0], scan.causes.get(problem, problem[2]))
            if cause not in noted:
                noted.add(cause)
                result.problems.append(problem)
                result.causes[problem] = scan.causes.get(problem, problem[2])
        for inv in scan.invocations:
            classified = classify(repo, inv, triggers)
            if classified is not None:
                result.classified.append(classified)
        for item in scan.coverage.steps.values():
            log.add(item)
        for key, reached in scan.chains.items():
            chains.setdefault(key, {}).update(reached)
    _coverage(repo, library, log.steps.values(), chains, triggers, result)
    _other_ci(repo, result)
    found = findings.rules(repo, result)
    filtered = [c for c in result.classified if c.links and c.trigger.filters]
    if filtered:
        # Imported here: it may run cargo metadata, which audits without filters never need.
        from linkgate.audit import surfacecheck

        found += surfacecheck.misses(repo, filtered, result.notes)
    result.findings = rank.ranked(found)
    return result


def _coverage(repo: Path, library: Library, steps: Iterable[StepCoverage],
              chains: dict[tuple[str, str, int], dict[tuple[tuple[str, str], ...], tuple[CallSite, ...]]],
              triggers: TriggerCache, result: AuditResult) -> None:
    """Keep the read coverage, and each gap that may hide cargo with whether a pull request runs
    it (through any of the callers that reach it)."""
    for item in steps:
        result.coverage.append(item)
        if not any(g.cargo for g in item.gaps):
            continue
        wf = library.workflows[item.workflow]
        job = next(j for j in wf.jobs if j.id == item.job)
        step = job.steps[item.step] if item.kind != "workflow" else None
        visible = False
        for chain_key, callers in chains.get((item.workflow, item.job, item.step), {(): ()}).items():
            own = wf if callers else _direct(wf, library)
            key = (wf.rel, job.id, item.step if step else -1, chain_key)
            if key not in triggers:
                triggers[key] = trigger_for(repo, own, job, step, callers)
            visible = visible or triggers[key].pr_visible
        for gap in item.gaps:
            if gap.cargo:
                result.cargo_gaps.append((gap, visible))


def _other_ci(repo: Path, result: AuditResult) -> None:
    """Another CI system's configuration that runs cargo: a note, and a gap that may link any set
    on a pull request (those systems build pull requests too), so an absence is not a fact."""

    def read(rel: str) -> str | None:
        try:
            return repofs.read_text(rel, inside=repo, shown=rel, errors="replace")
        except (RefusedFile, OSError):
            return None

    for gap in coverage.other_ci(read):
        result.cargo_gaps.append((gap, True))
        message = (f"{gap.file} is {gap.what} that runs cargo ({gap.file}:{gap.line}); linkgate reads GitHub's "
                   "workflows only, so what its jobs link is not audited")
        problem = (gap.file, gap.line, message)
        result.problems.append(problem)
        result.causes[problem] = f"file {gap.file}"


def _direct(wf: Workflow, library: Library) -> Workflow:
    """*wf* as its own triggers run it: a reusable workflow a local job calls without `workflow_call`."""
    if wf.rel in library.called and "workflow_call" in wf.on:
        return replace(wf, on={k: v for k, v in wf.on.items() if k != "workflow_call"})
    return wf

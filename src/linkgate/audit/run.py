"""Run the audit: read the workflows, classify every cargo invocation, find, rank.

Data flows one way: ``linkgate.workflows`` (read, expand, find invocations)
-> ``audit.classify`` -> ``audit.findings`` and ``audit.surfacecheck`` ->
``audit.rank``. Rendering is ``linkgate.commands.audit``'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from linkgate.audit import findings, rank
from linkgate.audit.classify import TriggerCache, classify
from linkgate.audit.model import AuditResult
from linkgate.workflows.gates import GateSource
from linkgate.workflows.coverage import StepCoverage
from linkgate.workflows.invocations import scan_workflow
from linkgate.workflows.model import Workflow
from linkgate.workflows.read import read_workflows
from linkgate.workflows.triggers import trigger_for


def run_audit(repo: Path) -> AuditResult:
    result = AuditResult()
    workflows, result.unreadable = read_workflows(repo)
    result.workflows = sorted([wf.rel for wf in workflows] + [u.rel for u in result.unreadable])
    triggers: TriggerCache = {}
    gates = GateSource(repo)
    for wf in workflows:
        scan = scan_workflow(repo, wf, gates=gates)
        result.problems.extend(scan.problems)
        result.causes.update(scan.causes)
        for inv in scan.invocations:
            classified = classify(repo, inv, triggers)
            if classified is not None:
                result.classified.append(classified)
        _coverage(repo, wf, scan.coverage.steps.values(), triggers, result)
    found = findings.rules(repo, result)
    filtered = [c for c in result.classified if c.links and c.trigger.filters]
    if filtered:
        # Imported here: it may run cargo metadata, which audits without filters never need.
        from linkgate.audit import surfacecheck

        found += surfacecheck.misses(repo, filtered, result.notes)
    result.findings = rank.ranked(found)
    return result


def _coverage(repo: Path, wf: Workflow, steps: Iterable[StepCoverage], triggers: TriggerCache,
              result: AuditResult) -> None:
    """Keep *wf*'s read coverage, and each gap that may hide cargo with whether a pull request runs it."""
    jobs = {job.id: job for job in wf.jobs}
    for item in steps:
        result.coverage.append(item)
        if not any(g.cargo for g in item.gaps):
            continue
        job = jobs[item.job]
        key = (wf.rel, job.id, item.step)
        if key not in triggers:
            triggers[key] = trigger_for(repo, wf, job, job.steps[item.step])
        for gap in item.gaps:
            if gap.cargo:
                result.cargo_gaps.append((gap, triggers[key].pr_visible))

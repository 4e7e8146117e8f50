"""Run the audit: read the workflows, classify every cargo invocation, find, rank.

Data flows one way: ``linkgate.workflows`` (read, expand, find invocations)
-> ``audit.classify`` -> ``audit.findings`` and ``audit.surfacecheck`` ->
``audit.rank``. Rendering is ``linkgate.commands.audit``'s.
"""

from __future__ import annotations

from pathlib import Path

from linkgate.audit import findings, rank
from linkgate.audit.classify import TriggerCache, classify
from linkgate.audit.model import AuditResult
from linkgate.workflows.gates import GateSource
from linkgate.workflows.invocations import scan_workflow
from linkgate.workflows.read import read_workflows


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
    found = findings.rules(repo, result)
    filtered = [c for c in result.classified if c.links and c.trigger.filters]
    if filtered:
        # Imported here: it may run cargo metadata, which audits without filters never need.
        from linkgate.audit import surfacecheck

        found += surfacecheck.misses(repo, filtered, result.notes)
    result.findings = rank.ranked(found)
    return result

"""The audit's read coverage as data: per workflow and job, each step's status, with totals.

``workflows.coverage`` classifies the steps while reading them; this module only
orders them for the reports (JSON ``coverage``, ``audit --coverage``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from linkgate.workflows.coverage import STATUSES, Gap, StepCoverage, files


def gap_json(g: Gap) -> dict[str, Any]:
    return {"file": g.file, "line": g.line, "what": g.what, "why": g.why, "may_run_cargo": g.cargo,
            "mentions": [{"file": m.file, "line": m.line, "text": m.text} for m in g.mentions]}


def coverage_json(steps: Iterable[StepCoverage]) -> dict[str, Any]:
    items = sorted(steps, key=lambda s: (s.workflow, s.job, s.step))
    totals = {status: sum(1 for s in items if s.status == status) for status in STATUSES}
    workflows: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for s in items:
        workflows.setdefault(s.workflow, {}).setdefault(s.job, []).append({
            "step": s.step + 1, "line": s.line, "label": s.label, "kind": s.kind, "status": s.status,
            "gaps": [gap_json(g) for g in s.gaps], "followed": list(s.followed),
        })
    reached = files(items)
    return {
        "totals": {**totals, "steps": len(items)},
        "files": [{"file": rel, "kind": kind, "status": status, "reasons": list(reasons)}
                  for rel, kind, status, reasons in reached],
        "file_totals": {status: sum(1 for f in reached if f[2] == status) for status in STATUSES},
        "workflows": [{"workflow": wf, "jobs": [{"job": job, "steps": rows} for job, rows in jobs.items()]}
                      for wf, jobs in workflows.items()],
    }

"""Can each job linkgate wrote run? Its `if:` evaluated the way GitHub would, over
every paths filter of the workflow saying "changed".

The chain is followed as GitHub follows it: each dorny/paths-filter step's
filter keys become that step's outputs (`"true"`), each job's `outputs:`
expressions are evaluated over its steps, and each gate job's `if:` over its
`needs`. The expression evaluator is linkgate's own (workflows/ghexpr.py),
which implements docs.github.com's grammar, index syntax included.
"""

from __future__ import annotations

from typing import Any

import yaml

from linkgate.workflows import ghexpr


def _expr(text: str) -> str:
    text = text.strip()
    return text[3:-2].strip() if text.startswith("${{") and text.endswith("}}") else text


def _filter_steps(job: dict[str, Any]) -> dict[str, Any]:
    steps: dict[str, Any] = {}
    for step in job.get("steps") or []:
        if str(step.get("uses", "")).startswith("dorny/paths-filter@") and step.get("id"):
            keys = yaml.safe_load(step["with"]["filters"]) or {}
            steps[step["id"]] = {"outputs": {str(k): "true" for k in keys}}
    return steps


def job_outputs(job: dict[str, Any]) -> dict[str, Any]:
    steps = _filter_steps(job)
    return {str(name): ghexpr.evaluate(_expr(str(value)), {"steps": steps})
            for name, value in (job.get("outputs") or {}).items()}


def gate_jobs_that_cannot_run(doc: dict[str, Any], repository: str = "rtlab/rtcore") -> dict[str, Any]:
    """{job id: what its `if:` gave} for each linkgate job whose condition is not true."""
    jobs = doc["jobs"]
    bad: dict[str, Any] = {}
    for jid, job in jobs.items():
        if not str(job.get("name", "")).startswith("link gate") or "if" not in job:
            continue
        needs = job.get("needs") or []
        needs = [needs] if isinstance(needs, str) else needs
        contexts = {"github": {"repository": repository, "event_name": "pull_request"},
                    "needs": {n: {"outputs": job_outputs(jobs[n]), "result": "success"} for n in needs}}
        value = ghexpr.evaluate(_expr(str(job["if"])), contexts)
        if ghexpr.truth(value) is not True:
            bad[jid] = (job["if"], value)
    return bad

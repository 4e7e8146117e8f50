"""When does a job run? Events from ``on:``, narrowed by ``if:``, and the
dorny/paths-filter output that gates it, if any.

A paths filter is found through either route GitHub users write:
- a job ``if:`` reading ``needs.<job>.outputs.<name>``, where that job maps
  the output to ``steps.<id>.outputs.<filter>`` of a dorny/paths-filter step;
- a step ``if:`` reading ``steps.<id>.outputs.<filter>`` in the same job.
Filters given inline (``with.filters`` as YAML text) or as a file in the
repository are read; the ``predicate-quantifier`` input is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate.trigger.pathfilter import Rule
from linkgate.workflows.model import Job, Step, Workflow

# Events after which someone looks at the result before (or right after) merging.
# workflow_call is counted too: the caller's trigger is not visible from here.
PR_VISIBLE = {"pull_request", "pull_request_target", "merge_group", "push", "workflow_call"}
_EVENT_EQ = re.compile(r"github\.event_name\s*(==|!=)\s*'([\w-]+)'")
_NEEDS_OUTPUT = re.compile(r"needs\.([\w-]+)\.outputs\.([\w-]+)")
_STEP_OUTPUT = re.compile(r"steps\.([\w-]+)\.outputs\.([\w-]+)")


@dataclass(frozen=True)
class PathsFilter:
    job: str
    step: str
    filter: str
    file: str
    line: int
    rules: tuple[Rule, ...] | None
    quantifier: str

    def to_json(self) -> dict[str, Any]:
        return {
            "job": self.job, "step": self.step, "filter": self.filter, "file": self.file,
            "line": self.line, "rules": [str(r) for r in self.rules] if self.rules is not None else None,
            "predicate_quantifier": self.quantifier,
        }


@dataclass(frozen=True)
class Trigger:
    events: tuple[str, ...]
    paths_filter: PathsFilter | None
    native_paths: tuple[str, ...]
    condition: str | None

    @property
    def pr_visible(self) -> bool:
        return any(e in PR_VISIBLE for e in self.events)

    def to_json(self) -> dict[str, Any]:
        return {
            "events": list(self.events),
            "paths_filter": self.paths_filter.to_json() if self.paths_filter else None,
            "paths": list(self.native_paths),
            "if": self.condition,
        }


def trigger_for(repo: Path, wf: Workflow, job: Job, step: Step) -> Trigger:
    events = _events(wf)
    conditions = [c for c in (job.if_, step.if_) if c]
    for condition in conditions:
        events = _narrow(events, condition)
    pf = None
    if step.if_:
        pf = _step_filter(repo, wf, job, step.if_)
    if pf is None and job.if_:
        pf = _needs_filter(repo, wf, job.if_)
    native: list[str] = []
    for cfg in wf.on.values():
        if isinstance(cfg, dict) and isinstance(cfg.get("paths"), list):
            native.extend(str(p) for p in cfg["paths"])
    return Trigger(tuple(events), pf, tuple(native), " && ".join(conditions) or None)


def _events(wf: Workflow) -> list[str]:
    events = []
    for name, cfg in wf.on.items():
        if name == "push" and isinstance(cfg, dict) and cfg.get("tags") is not None and cfg.get("branches") is None:
            # Pushing a tag is how releases are cut; no pull request sees it.
            events.append("push-tags")
        else:
            events.append(name)
    return events


def _narrow(events: list[str], condition: str) -> list[str]:
    """Apply ``github.event_name == 'x'`` / ``!= 'x'`` where they decide alone.

    ``a == 'x' || a == 'y'`` restricts to x and y; ``== 'x' || other`` does
    not restrict (``other`` may hold on any event); ``!=`` counts only
    without ``||``."""
    branches = condition.split("||")
    if all(any(op == "==" for op, _ in _EVENT_EQ.findall(b)) for b in branches):
        wanted = {name for op, name in _EVENT_EQ.findall(condition) if op == "=="}
        return [e for e in events if e in wanted or (e == "push-tags" and "push" in wanted)]
    if len(branches) == 1:
        unwanted = {name for op, name in _EVENT_EQ.findall(condition) if op == "!="}
        return [e for e in events if e not in unwanted]
    return events


def _needs_filter(repo: Path, wf: Workflow, condition: str) -> PathsFilter | None:
    by_id = {j.id: j for j in wf.jobs}
    for job_id, output in _NEEDS_OUTPUT.findall(condition):
        source = by_id.get(job_id)
        if source is None:
            continue
        mapped = source.outputs.get(output)
        if not isinstance(mapped, str):
            continue
        m = _STEP_OUTPUT.search(mapped)
        if m:
            found = _filter_step(repo, wf, source, m.group(1), m.group(2))
            if found:
                return found
    return None


def _step_filter(repo: Path, wf: Workflow, job: Job, condition: str) -> PathsFilter | None:
    for step_id, name in _STEP_OUTPUT.findall(condition):
        found = _filter_step(repo, wf, job, step_id, name)
        if found:
            return found
    return None


def _filter_step(repo: Path, wf: Workflow, job: Job, step_id: str, name: str) -> PathsFilter | None:
    for step in job.steps:
        if step.id != step_id or not step.uses or not step.uses.lower().startswith("dorny/paths-filter"):
            continue
        filters = _read_filters(repo, step.with_.get("filters"), wf.rel)
        rules = filters.get(name) if filters is not None else None
        quantifier = str(step.with_.get("predicate-quantifier") or "some")
        return PathsFilter(job.id, step_id, name, wf.rel, step.line, rules, quantifier)
    return None


def _read_filters(repo: Path, value: Any, where: str) -> dict[str, tuple[Rule, ...]] | None:
    """The step's ``filters`` input, parsed as paths-filter does (``linkgate.trigger.gatefilter``);
    None when it cannot be read, so the filter is reported as unknown, not as empty."""
    if not isinstance(value, str):
        return None
    from linkgate.errors import ConfigError
    from linkgate.trigger.gatefilter import load_yaml, parse_filters

    text = str.__str__(value)  # libyaml wants an exact str, not a subclass
    # paths-filter treats an input with no newline and no colon as a file path.
    if "\n" not in text and ":" not in text:
        path = repo / text.strip()
        if not path.is_file():
            return None
        where = text.strip()
        text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return {name: tuple(rules) for name, rules in parse_filters(load_yaml(text, where), where).items()}
    except ConfigError:
        return None

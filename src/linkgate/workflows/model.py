"""A GitHub Actions workflow reduced to what the audit needs, with lines.

Only the keys that decide *what runs, where, and when* are kept: triggers,
env at each level, runners, timeouts, matrices, ``if:`` conditions and steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.workflows.yamlnodes import YamlError, YMap, YStr, line_of


@dataclass(frozen=True)
class Step:
    index: int
    line: int
    name: str | None
    id: str | None
    run: YStr | None
    uses: str | None
    with_: Mapping[str, Any]
    env: Mapping[str, Any]
    working_directory: str | None
    shell: str | None
    if_: str | None
    timeout_minutes: str | None
    key_lines: Mapping[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name or self.id or (self.uses or f"step {self.index + 1}")


@dataclass(frozen=True)
class Job:
    id: str
    line: int
    name: str | None
    runs_on: tuple[str, ...]
    runs_on_unknown: bool
    if_: str | None
    needs: tuple[str, ...]
    timeout_minutes: str | None
    env: Mapping[str, Any]
    working_directory: str | None
    matrix: Any
    outputs: Mapping[str, Any]
    steps: tuple[Step, ...]
    shell: str | None = None  # defaults.run.shell
    # A job that calls a reusable workflow (`uses: ./.github/workflows/x.yml` or
    # `owner/repo/.github/workflows/x.yml@ref`) with its `with:` inputs; it has no steps.
    uses: str | None = None
    with_: Mapping[str, Any] = field(default_factory=dict)
    key_lines: Mapping[str, int] = field(default_factory=dict)

    @property
    def self_hosted(self) -> bool:
        return any(label.strip().lower() == "self-hosted" for label in self.runs_on)


@dataclass(frozen=True)
class Workflow:
    path: Path
    rel: str
    name: str | None
    on: Mapping[str, Any]
    env: Mapping[str, Any]
    working_directory: str | None
    jobs: tuple[Job, ...] = field(default_factory=tuple)
    shell: str | None = None  # defaults.run.shell


def parse_workflow(path: Path, rel: str, root: Any) -> Workflow:
    if not isinstance(root, YMap):
        raise YamlError("a workflow must be a mapping with 'on' and 'jobs'", line_of(root, 1) or 1)
    jobs_raw = root.get("jobs")
    if not isinstance(jobs_raw, YMap):
        raise YamlError("no 'jobs' mapping", root.key_lines.get("jobs", 1))
    for jid, j in jobs_raw.items():
        _check_job(jid, j, jobs_raw.key_lines[jid])
    jobs = tuple(_job(jid, j, jobs_raw.key_lines[jid]) for jid, j in jobs_raw.items() if isinstance(j, YMap))
    _check_needs(jobs, jobs_raw)
    return Workflow(
        path=path,
        rel=rel,
        name=_str(root.get("name")),
        on=_on(root.get("on")),
        env=_map(root.get("env")),
        working_directory=_working_directory(root),
        jobs=jobs,
        shell=_default_shell(root),
    )


def _check_job(jid: str, raw: Any, line: int) -> None:
    """The shapes GitHub refuses the whole workflow for (actionlint agrees):
    a job or step that is not a mapping, steps that are not a list, a run that
    is not a string."""
    if not isinstance(raw, YMap):
        raise YamlError(f"job {jid!r} must be a mapping", line)
    steps = raw.get("steps")
    if "steps" in raw and not isinstance(steps, list):
        raise YamlError(f"job {jid!r}: steps must be a list of steps", raw.key_lines.get("steps", line))
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if not isinstance(step, YMap):
            raise YamlError(f"job {jid!r}: step {i + 1} must be a mapping", line_of(step, line))
        run = step.get("run")
        if "run" in step and not isinstance(run, YStr):
            raise YamlError(f"job {jid!r}: step {i + 1}: run must be a string (the script)",
                            step.key_lines.get("run", step.line))


def _check_needs(jobs: tuple[Job, ...], jobs_raw: YMap) -> None:
    """GitHub refuses the whole workflow when a job needs a job it does not define, or when
    needs form a cycle: none of its jobs run (actionlint agrees)."""
    ids = {j.id for j in jobs}
    for job in jobs:
        raw = jobs_raw.get(job.id)
        line = raw.key_lines.get("needs", job.line) if isinstance(raw, YMap) else job.line
        for need in job.needs:
            if need not in ids:
                raise YamlError(f"job {job.id!r} needs {need!r}, which this workflow does not define"
                                " (GitHub refuses the workflow: none of its jobs run)", line)
    needs = {j.id: j.needs for j in jobs}
    state: dict[str, int] = {}  # 1 = on the path, 2 = done
    for start in needs:
        if state.get(start):
            continue
        stack = [(start, iter(needs[start]))]
        state[start] = 1
        while stack:
            node, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycle = [n for n, _ in stack][[n for n, _ in stack].index(nxt):] + [nxt]
                raise YamlError(f"jobs need each other in a cycle ({' -> '.join(cycle)}); GitHub refuses"
                                " the workflow: none of its jobs run", next(j.line for j in jobs if j.id == nxt))
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(needs[nxt])))


def _on(value: Any) -> Mapping[str, Any]:
    """Normalise ``on:`` (a string, list or mapping) to event -> config."""
    if isinstance(value, str):
        return {value: None}
    if isinstance(value, list):
        return {str(v): None for v in value if isinstance(v, str)}
    if isinstance(value, dict):
        return dict(value)
    return {}


def _job(jid: str, raw: YMap, line: int) -> Job:
    runs_on, unknown = _runs_on(raw.get("runs-on"))
    strategy = raw.get("strategy")
    steps_raw = raw.get("steps")
    steps = tuple(
        parse_step(i, s) for i, s in enumerate(steps_raw if isinstance(steps_raw, list) else []) if isinstance(s, YMap)
    )
    needs = raw.get("needs")
    return Job(
        id=jid,
        line=line,
        name=_str(raw.get("name")),
        runs_on=runs_on,
        runs_on_unknown=unknown,
        if_=_str(raw.get("if")),
        needs=tuple(needs) if isinstance(needs, list) else ((needs,) if isinstance(needs, str) else ()),
        timeout_minutes=_str(raw.get("timeout-minutes")),
        env=_map(raw.get("env")),
        working_directory=_working_directory(raw),
        matrix=strategy.get("matrix") if isinstance(strategy, dict) else None,
        outputs=_map(raw.get("outputs")),
        steps=steps,
        shell=_default_shell(raw),
        uses=_str(raw.get("uses")),
        with_=_map(raw.get("with")),
        key_lines=raw.key_lines,
    )


@dataclass(frozen=True)
class CallSite:
    """A job that calls a reusable workflow, under one of its matrix combinations."""

    workflow: Workflow
    job: Job
    line: int
    matrix: Mapping[str, Any] | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.workflow.rel, self.job.id)


def call_inputs(wf: Workflow) -> Mapping[str, Any] | None:
    """``on.workflow_call.inputs`` (name -> declaration), or None when *wf* is not reusable."""
    if "workflow_call" not in wf.on:
        return None
    cfg = wf.on.get("workflow_call")
    inputs = cfg.get("inputs") if isinstance(cfg, dict) else None
    return inputs if isinstance(inputs, dict) else {}


def _runs_on(value: Any) -> tuple[tuple[str, ...], bool]:
    """Labels, and whether they hide behind an expression we cannot evaluate."""
    if isinstance(value, str):
        return (value,), "${{" in value
    if isinstance(value, list):
        labels = tuple(str(v) for v in value if isinstance(v, str))
        return labels, any("${{" in v for v in labels)
    if isinstance(value, dict):
        group = value.get("group")
        found = _runs_on(value["labels"])[0] if value.get("labels") is not None else ()
        # A runner group is always self-hosted (GitHub-hosted larger runners aside).
        return found + (("self-hosted",) if group else ()), False
    return (), value is not None


def parse_step(index: int, raw: YMap) -> Step:
    """One step mapping (of a job, or of a composite action's `runs.steps`)."""
    run = raw.get("run")
    return Step(
        index=index,
        line=raw.line,
        name=_str(raw.get("name")),
        id=_str(raw.get("id")),
        run=run if isinstance(run, YStr) else None,
        uses=_str(raw.get("uses")),
        with_=_map(raw.get("with")),
        env=_map(raw.get("env")),
        working_directory=_str(raw.get("working-directory")),
        shell=_str(raw.get("shell")),
        if_=_str(raw.get("if")),
        timeout_minutes=_str(raw.get("timeout-minutes")),
        key_lines=raw.key_lines,
    )


def _working_directory(raw: YMap) -> str | None:
    defaults = raw.get("defaults")
    run = defaults.get("run") if isinstance(defaults, dict) else None
    return _str(run.get("working-directory")) if isinstance(run, dict) else None


def _default_shell(raw: YMap) -> str | None:
    defaults = raw.get("defaults")
    run = defaults.get("run") if isinstance(defaults, dict) else None
    return _str(run.get("shell")) if isinstance(run, dict) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}

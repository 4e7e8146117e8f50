"""Find every cargo invocation a workflow can run, where it really lives.

One invocation per cargo command per matrix combination: a job's matrix
fans out into separate jobs on GitHub, each with its own ``${{ matrix.* }}``
values and possibly its own runner.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.workflows import actions, matrix
from linkgate.workflows.cargoargs import is_cargo
from linkgate.workflows.expr import ExprContext, render, substitute, substitute_plain
from linkgate.workflows.indirect import Followed, follow_make, follow_script, is_make, script_path
from linkgate.workflows.model import Job, Step, Workflow
from linkgate.workflows.shell import split_commands

# GitHub-hosted runner images. Any other label can only be served by a
# self-hosted runner (GitHub's larger runners aside, which also carry custom labels).
_HOSTED = re.compile(r"^(ubuntu|windows|macos)-[\w.-]+$")


@dataclass(frozen=True)
class Invocation:
    workflow: Workflow
    job: Job
    step: Step
    file: str
    line: int
    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str]
    matrix: Mapping[str, Any] | None
    runs_on: tuple[str, ...]
    self_hosted: bool
    via: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


@dataclass
class Scan:
    invocations: list[Invocation] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)


def scan_workflow(repo: Path, wf: Workflow) -> Scan:
    scan = Scan()
    for job in wf.jobs:
        combos = matrix.expand(job.matrix)
        for combo in combos if combos is not None else [None]:
            _scan_job(repo, wf, job, combo, scan)
    return scan


def _scan_job(repo: Path, wf: Workflow, job: Job, combo: Mapping[str, Any] | None, scan: Scan) -> None:
    base = ExprContext(matrix=combo)
    env = _env_layer({}, wf.env, base)
    env = _env_layer(env, job.env, ExprContext(matrix=combo, env=env))
    rendered = [substitute_plain(label, ExprContext(matrix=combo, env=env))[0] for label in job.runs_on]
    labels = [t for label in rendered for t in _split_labels(label)]
    self_hosted = any(t.lower() == "self-hosted" or not _HOSTED.match(t) for t in labels if "${{" not in t)
    job_dir = job.working_directory or wf.working_directory or ""
    for step in job.steps:
        step_env = _env_layer(env, step.env, ExprContext(matrix=combo, env=env))
        ctx = ExprContext(matrix=combo, env=step_env)
        cwd = _clean_dir(substitute_plain(step.working_directory or job_dir, ctx)[0])
        common = dict(workflow=wf, job=job, step=step, matrix=combo, runs_on=tuple(labels), self_hosted=self_hosted)
        if step.run is not None:
            for inv in _from_run(repo, wf, step, ctx, cwd, step_env, scan):
                scan.invocations.append(Invocation(**common, **inv))  # type: ignore[arg-type]
        elif step.uses:
            inputs = {k: (substitute_plain(v, ctx)[0] if isinstance(v, str) else v) for k, v in step.with_.items()}
            line = step.key_lines.get("uses", step.line)
            for argv in actions.cargo_commands(step.uses, inputs):
                unknown = tuple(a for a in argv if "${{" in a)
                scan.invocations.append(
                    Invocation(**common, file=wf.rel, line=line, argv=tuple(argv), cwd=cwd,  # type: ignore[arg-type]
                               env=step_env, unknown=unknown, via=(f"{wf.rel}:{line} uses: {step.uses}",))
                )


def _from_run(
    repo: Path, wf: Workflow, step: Step, ctx: ExprContext, cwd: str, env: Mapping[str, str], scan: Scan
) -> Iterator[dict[str, Any]]:
    assert step.run is not None
    sub = substitute(step.run, ctx)
    for command in split_commands(sub.text, step.run.content_line, env):
        restored: list[str] = []
        unknown: list[str] = list(command.unknown)
        for token in command.argv:
            text, found = sub.restore(token)
            restored.append(text)
            unknown.extend(found)
        argv = tuple(restored)
        here = posixpath.normpath(posixpath.join(cwd, command.cwd)) if command.cwd else cwd
        if command.cwd_unknown:
            unknown.append("cd to an unknown directory")
        if is_cargo(argv):
            yield dict(file=wf.rel, line=command.line, argv=argv, cwd=here, env=command.env, unknown=tuple(unknown))
            continue
        followed: Followed | None = None
        if is_make(argv):
            followed = follow_make(repo, here, argv, command.env)
        elif script_path(argv) is not None:
            followed = follow_script(repo, here, argv, command.env)
        if followed is None:
            continue
        hop = f"{wf.rel}:{command.line} {' '.join(argv)}"
        for problem in followed.problems:
            scan.problems.append((wf.rel, command.line, problem))
        for reached in followed.reached:
            if is_cargo(reached.command.argv):
                yield dict(
                    file=reached.file,
                    line=reached.command.line,
                    argv=reached.command.argv,
                    cwd=reached.command.cwd or here,
                    env=reached.command.env,
                    unknown=tuple(unknown) + reached.command.unknown,
                    via=(hop, reached.hop),
                )


def _env_layer(env: Mapping[str, str], layer: Mapping[str, Any], ctx: ExprContext) -> dict[str, str]:
    out = dict(env)
    for key, value in layer.items():
        text = render(value)
        out[key] = substitute_plain(text, ctx)[0] if "${{" in text else text
    return out


def _split_labels(label: str) -> list[str]:
    # `runs-on: ${{ matrix.runner }}` may render a list as JSON.
    if label.startswith("["):
        import json

        try:
            value = json.loads(label)
        except ValueError:
            return [label]
        return [str(v) for v in value] if isinstance(value, list) else [label]
    return [label] if label else []


def _clean_dir(path: str) -> str:
    if not path or path in (".", "./"):
        return ""
    return posixpath.normpath(path)

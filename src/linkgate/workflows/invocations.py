"""Find every cargo invocation a workflow can run, where it really lives.

One invocation per cargo command per matrix combination: a job's matrix
fans out into separate jobs on GitHub, each with its own ``${{ matrix.* }}``
values and possibly its own runner. A job or step whose ``if:`` is false for
a combination runs nothing there; one whose ``if:`` cannot be decided, and a
command on an undecided branch of its script, is listed as ``conditional``.

Notes (``Scan.problems``) are kept for what may hide or change a cargo run,
one per (file, cause) however many combinations share it: unknown words in a
cargo command, a program that is unknown but reads like cargo, a script or
Makefile that cannot be followed. A ``./configure`` or ``make`` that never
reaches cargo is no note.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from linkgate.cargo import frontends
from linkgate.workflows import frontcmd, matrix, pwsh
from linkgate.workflows.gates import GateCommand, GateSource, RunLine, run_line
from linkgate.workflows.expr import ExprContext, condition, placeholders, render, runner_os, substitute, \
    substitute_plain
from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.model import Job, Step, Workflow
from linkgate.workflows.shell import Evaluator, Frame, ShellCommand, Val

# GitHub-hosted runner images. Any other label can only be served by a
# self-hosted runner (GitHub's larger runners aside, which also carry custom labels).
_HOSTED = re.compile(r"^(ubuntu|windows|macos)-[\w.-]+$", re.I)
# A `${{ }}` value with these characters changes how bash reads the line
# (quotes, operators, expansions), so the script is substituted as text and
# parsed again for that combination instead of reusing the shared parse.
_SHELL_SYNTAX = re.compile(r"[\"'`$\\;&|<>()\n#{}]")
# pwsh and powershell steps are read by workflows.pwsh; a cmd line that runs
# cargo reads the same as in bash for the simple commands CI uses; Python is skipped.
_NOT_SHELL = {"python"}
_POWERSHELL = {"pwsh", "powershell"}


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
    # Runs only if conditions linkgate cannot decide hold (listed, each with file:line).
    conditional: bool = False
    conditions: tuple[str, ...] = ()


@dataclass
class Scan:
    invocations: list[Invocation] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)
    # The cause of each problem (`$X`, `${{ inputs.f }}`, a script path): its subject.
    causes: dict[tuple[str, int, str], str] = field(default_factory=dict)
    _noted: set[tuple[str, str]] = field(default_factory=set, repr=False)
    # Combinations that give a script the same text, env and directory share one evaluation.
    _evaluated: dict[tuple[Any, ...], Evaluator] = field(default_factory=dict, repr=False)

    def note(self, file: str, line: int, cause: str, message: str) -> None:
        if (file, cause) not in self._noted:
            self._noted.add((file, cause))
            self.problems.append((file, line, message))
            self.causes[(file, line, message)] = cause


def scan_workflow(repo: Path, wf: Workflow, host: RepoHost | None = None, gates: GateSource | None = None) -> Scan:
    """*gates* reads the linkgate configuration for `linkgate run` lines; one per audit loads it once."""
    scan = Scan()
    host = host or RepoHost(repo)
    gates = gates or GateSource(repo)
    for job in wf.jobs:
        # A job's `if:` is evaluated before its matrix exists (GitHub offers
        # only github, needs, vars and inputs there).
        job_if = condition(job.if_, ExprContext())
        if job_if is False:
            continue
        conds = () if job_if else (f"{wf.rel}:{job.line} job if: {job.if_}",)
        combos = matrix.expand(job.matrix)
        size = matrix.product_size(job.matrix)
        if size > matrix.MAX_COMBINATIONS:
            scan.note(wf.rel, job.line, f"matrix of {job.id}",
                      f"the matrix of job {job.id!r} makes {size:,} combinations, over GitHub's limit of "
                      f"{matrix.MAX_COMBINATIONS} (GitHub fails the run); only the first "
                      f"{matrix.MAX_COMBINATIONS} were audited")
        for combo in combos if combos is not None else [None]:
            _scan_job(host, gates, wf, job, combo, conds, scan)
    return scan


def _scan_job(host: RepoHost, gates: GateSource, wf: Workflow, job: Job, combo: Mapping[str, Any] | None,
              job_conds: tuple[str, ...], scan: Scan) -> None:
    base = ExprContext(matrix=combo)
    env = _env_layer({}, wf.env, base)
    env = _env_layer(env, job.env, ExprContext(matrix=combo, env=env))
    rendered = [substitute_plain(label, ExprContext(matrix=combo, env=env))[0] for label in job.runs_on]
    labels = [t for label in rendered for t in _split_labels(label)]
    self_hosted = any(t.lower() == "self-hosted" or not _HOSTED.match(t) for t in labels if "${{" not in t)
    os_name = None if self_hosted or any("${{" in t for t in labels) else runner_os(labels)
    job_dir = job.working_directory or wf.working_directory or ""
    carried: dict[str, str] = {}  # what steps wrote to $GITHUB_ENV
    for step in job.steps:
        env = {**env, **carried}
        step_env = _env_layer(env, step.env, ExprContext(matrix=combo, env=env, runner_os=os_name))
        ctx = ExprContext(matrix=combo, env=step_env, runner_os=os_name)
        runs = condition(step.if_, ctx)
        if runs is False:
            continue
        line_if = step.key_lines.get("if", step.line)
        conds = job_conds + (() if runs else (f"{wf.rel}:{line_if} if: {step.if_}",))
        cwd = _clean_dir(substitute_plain(step.working_directory or job_dir, ctx)[0])
        common: dict[str, Any] = dict(workflow=wf, job=job, step=step, matrix=combo, runs_on=tuple(labels),
                                      self_hosted=self_hosted)
        if step.run is not None:
            # GitHub's default is pwsh on Windows runners and bash elsewhere.
            shell = (step.shell or job.shell or wf.shell or ("pwsh" if os_name == "Windows" else "bash")).split()[0]
            if shell in _NOT_SHELL:
                continue
            for cmd in _run_step(host, wf, step, ctx, cwd, step_env, scan, carried if not conds else {},
                                 shell in _POWERSHELL, os_name):
                all_conds = conds + cmd.conditions
                selection = run_line(cmd.argv)
                if selection is not None:
                    for g in _gate_commands(gates, selection, cmd.file, cmd.line, cmd.cwd, cmd.env, cmd.unknown, scan):
                        gate_conds = all_conds + ((g.condition,) if g.condition else ())
                        scan.invocations.append(Invocation(
                            **common, file=cmd.file, line=cmd.line, argv=g.argv, cwd=g.cwd, env=g.env,
                            via=(*cmd.via, f"{cmd.file}:{cmd.line} {' '.join(cmd.argv)}", g.defined),
                            conditional=bool(gate_conds), conditions=gate_conds))
                    continue
                scan.invocations.append(Invocation(
                    **common, file=cmd.file, line=cmd.line, argv=cmd.argv, cwd=cmd.cwd, env=cmd.env,
                    via=cmd.via, unknown=cmd.unknown, conditional=bool(all_conds), conditions=all_conds))
        elif step.uses:
            inputs = {k: (substitute_plain(v, ctx)[0] if isinstance(v, str) else v) for k, v in step.with_.items()}
            line = step.key_lines.get("uses", step.line)
            dir_input = frontends.ACTION_DIRECTORY.get(step.uses.split("@", 1)[0].strip().lower())
            action_cwd = cwd
            if dir_input and isinstance(inputs.get(dir_input), str) and inputs[dir_input].strip():
                action_cwd = _clean_dir(posixpath.join(cwd, inputs[dir_input].strip()))
            for argv in frontends.action_commands(step.uses, inputs):
                action_via: tuple[str, ...] = ()
                step_cwd = action_cwd
                if "${{" not in " ".join(argv):
                    done = frontcmd.complete(host.repo, tuple(argv), action_cwd)
                    if done is not None:
                        if done.note is not None:
                            scan.note(wf.rel, line, done.note[0], done.note[1])
                        argv, step_cwd, action_via = list(done.argv), done.cwd, done.via
                if frontends.program(argv) == "maturin" and not frontends.runs_cargo(argv):
                    continue  # `maturin sdist`: packs the sources, builds nothing
                selection = run_line(argv)
                if selection is not None:
                    # The action runs `linkgate run` only for the gates `should-run` selects.
                    gate_conds = conds + (f"{wf.rel}:{line} uses: {step.uses} links a gate only when its "
                                          "causal surface changed",)
                    unknown = tuple(a for a in argv if "${{" in a)
                    for g in _gate_commands(gates, selection, wf.rel, line, cwd, step_env, unknown, scan):
                        scan.invocations.append(Invocation(
                            **common, file=wf.rel, line=line, argv=g.argv, cwd=g.cwd, env=g.env,
                            via=(f"{wf.rel}:{line} uses: {step.uses}", g.defined),
                            conditional=True, conditions=gate_conds + ((g.condition,) if g.condition else ())))
                    continue
                unknown = tuple(a for a in argv if "${{" in a)
                for cause in unknown:
                    scan.note(wf.rel, line, cause, f"cannot evaluate {cause} in `{' '.join(argv)}`; "
                              "classified as written")
                scan.invocations.append(Invocation(
                    **common, file=wf.rel, line=line, argv=tuple(argv), cwd=step_cwd, env=step_env, unknown=unknown,
                    via=(f"{wf.rel}:{line} uses: {step.uses}", *action_via), conditional=bool(conds),
                    conditions=conds))


def _gate_commands(gates: GateSource, line: RunLine, file: str, lineno: int, cwd: str, env: Mapping[str, str],
                   unknown: tuple[str, ...], scan: Scan) -> list[GateCommand]:
    """The cargo commands of a `linkgate run` line; what cannot be audited becomes a note."""
    found, notes = gates.commands(line, cwd, env, unknown)
    for note in notes:
        scan.note(file, lineno, note.cause, note.message)
    return found


def _run_step(host: RepoHost, wf: Workflow, step: Step, ctx: ExprContext, cwd: str, env: Mapping[str, str],
              scan: Scan, carried: dict[str, str], powershell: bool = False,
              os_name: str | None = None) -> list[ShellCommand]:
    """The cargo commands of one ``run:`` script under one combination; notes go to *scan*."""
    assert step.run is not None
    sub = placeholders(step.run, ctx)
    text = sub.text
    exprs = [Val(v) if v is not None else Val(o, (o,)) for v, o in zip(sub.values, sub.originals)]
    if powershell or any(v is not None and _SHELL_SYNTAX.search(v) for v in sub.values):
        # PowerShell quotes differently: its expressions are substituted as text before it is read.
        textual = substitute(step.run, ctx)
        text = textual.text
        exprs = [Val(o, (o,)) for o in textual.unknown.values()]
    if powershell:
        translated = pwsh.to_bash(text)
        text = translated.text
        for row, cause, message in translated.problems:
            scan.note(wf.rel, step.run.content_line + row, cause, message)
    key = (text, wf.rel, step.run.content_line, tuple(sorted(env.items())), cwd, tuple(exprs), os_name)
    ev = scan._evaluated.get(key)
    if ev is None:
        ev = scan._evaluated[key] = Evaluator(host, exprs)
        shell_env = _shell_env(env)
        if os_name is not None:
            shell_env.setdefault("RUNNER_OS", Val(os_name))
        ev.run_text(text, Frame(wf.rel, step.run.content_line), ev.new_shell(shell_env, cwd, False))
    carried.update(ev.github_env)
    found: list[ShellCommand] = []
    for cmd in ev.commands:
        cmd = _completed(host.repo, cmd, scan)
        argv = " ".join(cmd.argv)
        if run_line(cmd.argv) is not None:
            found.append(cmd)
        elif frontends.runs_cargo(cmd.argv):
            found.append(cmd)
            for cause in cmd.unknown:
                scan.note(cmd.file, cmd.line, cause, f"cannot evaluate {cause} in `{argv}`; classified as written")
        elif cmd.name_unknown and frontends.may_be_cargo(cmd.argv):
            scan.note(cmd.file, cmd.line, cmd.argv[0],
                      f"cannot evaluate `{cmd.argv[0]}` in `{argv}`; if it runs cargo, this command is not audited")
    for problem in ev.problems:
        if problem.cargo:
            scan.note(problem.file, problem.line, problem.cause, problem.message)
    return found


def _completed(repo: Path, cmd: ShellCommand, scan: Scan) -> ShellCommand:
    """*cmd* as its program runs it: maturin's pyproject settings, a pip build of a maturin
    project, cargo aliases (``workflows.frontcmd``)."""
    if cmd.cwd_unknown or not cmd.argv:
        return cmd
    done = frontcmd.complete(repo, cmd.argv, cmd.cwd)
    if done is None:
        return cmd
    if done.note is not None:
        scan.note(cmd.file, cmd.line, done.note[0], done.note[1])
    via = (*cmd.via, *(f"{cmd.file}:{cmd.line} {v}" for v in done.via)) if done.via else cmd.via
    return replace(cmd, argv=done.argv, cwd=done.cwd, via=via)


# The runner sets these for every step, hosted or self-hosted; `[[ -z $CI ]]` is decided.
_RUNNER_ENV = {"CI": "true", "GITHUB_ACTIONS": "true"}
_UNRESOLVED = re.compile(r"\$\{\{.*?\}\}", re.S)


def _shell_env(env: Mapping[str, str]) -> dict[str, Val]:
    """The step's env as the shell sees it. A value that kept an expression linkgate
    cannot know (`${{ inputs.publish }}`) is unknown, not that literal text."""
    out = {k: Val(v) for k, v in _RUNNER_ENV.items()}
    for key, value in env.items():
        causes = tuple(dict.fromkeys(_UNRESOLVED.findall(value))) if "${{" in value else ()
        out[key] = Val(value, causes)
    return out


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
    from linkgate.workflows.shell.state import WORKSPACE

    if path == WORKSPACE or path.startswith(WORKSPACE + "/"):
        path = path[len(WORKSPACE) + 1 :]  # `${{ github.workspace }}/crates/x`
    if not path or path in (".", "./"):
        return ""
    return posixpath.normpath(path)

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

import functools
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from linkgate.cargo import frontends
from linkgate.cargo.cargoargs import installs_crate, parse as parse_cargo, subcommand_word
from linkgate.cargo.subcommand import NOT_LINKING, expand_aliases, known_name
from linkgate.workflows import actionscripts, cmake, composite, coverage, docker, frontcmd, joboutputs, matrix, model, pwsh, \
    reusable
from linkgate.workflows.coverage import CoverageLog, Gap, StepCoverage
from linkgate.workflows.gates import GateCommand, GateSource, RunLine, run_line
from linkgate.workflows.expr import ExprContext, condition, placeholders, render, runner_os, substitute, \
    substitute_plain
from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.model import CallSite, Job, Step, Workflow
from linkgate.workflows.shell import Evaluator, Frame, ShellCommand, Val
from linkgate.workflows.shell.calls import run_docker_build
from linkgate.workflows.shell.state import WORKSPACE

# GitHub-hosted runner images. Any other label can only be served by a
# self-hosted runner (GitHub's larger runners aside, which also carry custom labels).
_HOSTED = re.compile(r"^(ubuntu|windows|macos)-[\w.-]+$", re.I)
# A `${{ }}` value with these characters changes how bash reads the line
# (quotes, operators, expansions), so the script is substituted as text and
# parsed again for that combination instead of reusing the shared parse; so is one with `=`
# (`run: ${{ matrix.build }}` = `CC=clang yarn build`: GitHub's text makes CC a prefix assignment).
_SHELL_SYNTAX = re.compile(r"[\"'`$\\;&|<>()\n#{}=]")
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
    # The jobs that called the reusable workflow this job belongs to, outermost first (none for
    # a job its own workflow's triggers run).
    callers: tuple[CallSite, ...] = ()


@dataclass
class Scan:
    invocations: list[Invocation] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)
    # The cause of each problem (`$X`, `${{ inputs.f }}`, a script path): its subject.
    causes: dict[tuple[str, int, str], str] = field(default_factory=dict)
    _noted: set[tuple[str, str]] = field(default_factory=set, repr=False)
    coverage: CoverageLog = field(default_factory=CoverageLog)
    # Combinations that give a script the same text, env and directory share one evaluation.
    _evaluated: dict[tuple[Any, ...], Evaluator] = field(default_factory=dict, repr=False)
    # The gaps of the step being scanned (workflows.coverage), whatever the notes' de-duplication.
    _gaps: list[Gap] = field(default_factory=list, repr=False)
    _not_followed: set[str] = field(default_factory=set, repr=False)
    _called_runs: int = field(default=0, repr=False)
    _action_runs: int = field(default=0, repr=False)
    # Each local action directory, loaded once: (the action, or why not; the files refused reading it).
    _actions: dict[str, tuple[Any, list[tuple[str, str]]]] = field(default_factory=dict, repr=False)
    # (workflow, job, step) of each coverage entry -> the caller chains that ran it (by their keys).
    chains: dict[tuple[str, str, int], dict[tuple[tuple[str, str], ...], tuple[CallSite, ...]]] = field(
        default_factory=dict)

    def note(self, file: str, line: int, cause: str, message: str) -> None:
        if (file, cause) not in self._noted:
            self._noted.add((file, cause))
            self.problems.append((file, line, message))
            self.causes[(file, line, message)] = cause

    def gap(self, gap: Gap, message: str | None = None, cause: str | None = None) -> None:
        """A part of the step not read; with *message*, also an `unresolved` note."""
        self._gaps.append(gap)
        if message is not None:
            self.note(gap.file, gap.line, cause or gap.what, message)


@dataclass(frozen=True)
class Library:
    """Every workflow file of the repository: those read (by path) and those refused or
    invalid (path -> why), so a caller's `uses: ./.github/workflows/y.yml` finds y.yml."""

    workflows: Mapping[str, Workflow] = field(default_factory=dict)
    # path -> (why not read, whether what it runs is unknown rather than refused by GitHub too)
    unread: Mapping[str, tuple[str, bool]] = field(default_factory=dict)

    @functools.cached_property
    def called(self) -> frozenset[str]:
        """The workflow files some local job calls."""
        found = {reusable.local_target(job.uses) for wf in self.workflows.values() for job in wf.jobs if job.uses}
        return frozenset(rel for rel in found if rel)


def scan_workflow(repo: Path, wf: Workflow, host: RepoHost | None = None, gates: GateSource | None = None,
                  library: Library | None = None) -> Scan:
    """*gates* reads the linkgate configuration for `linkgate run` lines; one per audit loads it once.
    *library* holds the repository's other workflows, for the reusable ones *wf*'s jobs call.

    A reusable workflow (`on: workflow_call`) that a local job calls is audited through each
    caller; by its own triggers too when it has others (`on: [push, workflow_call]`), with the
    inputs those give it (``reusable.direct_inputs``)."""
    scan = Scan()
    host = host or RepoHost(repo)
    gates = gates or GateSource(repo)
    library = library or Library({wf.rel: wf})
    inputs: Mapping[str, Any] | None = None
    if model.call_inputs(wf) is not None:
        if wf.rel in library.called:
            own = {k: v for k, v in wf.on.items() if k != "workflow_call"}
            if not own:
                return scan
            inputs = reusable.direct_inputs(wf)
            wf = replace(wf, on=own)  # the callers' runs are theirs, audited through them
        else:
            # Called from another repository, or never: its inputs are unknown.
            inputs = None
    _scan_jobs(host, gates, wf, scan, library, inputs, (), (), (wf.rel,))
    return scan


def _scan_jobs(host: RepoHost, gates: GateSource, wf: Workflow, scan: Scan, library: Library,
               inputs: Mapping[str, Any] | None, callers: tuple[CallSite, ...], outer: tuple[str, ...],
               stack: tuple[str, ...]) -> None:
    """Every job of *wf*, run with *inputs* by the chain of *callers* (outermost first) whose
    undecided conditions are *outer*."""
    steps = [step for job in wf.jobs for step in job.steps]
    saved = host.images
    host.images = docker.images_built((str(s.run) for s in steps if s.run is not None),
                                      (s.with_ for s in steps if (s.uses or "").lower().startswith(
                                          "docker/build-push-action")))
    for job in wf.jobs:
        # A job's `if:` is evaluated before its matrix exists (GitHub offers
        # only github, needs, vars and inputs there).
        job_if = condition(job.if_, ExprContext(inputs=inputs))
        if job_if is False:
            continue
        conds = outer + (() if job_if else (f"{wf.rel}:{job.line} job if: {job.if_}",))
        # `fromJSON(needs.x.outputs.y)` of a literal job x writes is that literal.
        job_matrix = reusable.matrix(joboutputs.resolve(wf, job), ExprContext(inputs=inputs))
        combos = matrix.expand(job_matrix)
        size = matrix.product_size(job_matrix)
        if size > matrix.MAX_COMBINATIONS:
            scan.note(wf.rel, job.line, f"matrix of {job.id}",
                      f"the matrix of job {job.id!r} makes {size:,} combinations, over GitHub's limit of "
                      f"{matrix.MAX_COMBINATIONS} (GitHub fails the run); only the first "
                      f"{matrix.MAX_COMBINATIONS} were audited")
        for combo in combos if combos is not None else [None]:
            if job.uses:
                _call(host, gates, wf, job, combo, inputs, callers, conds, scan, library, stack)
            else:
                _scan_job(host, gates, wf, job, combo, conds, scan, inputs, callers)
    host.images = saved


def _call(host: RepoHost, gates: GateSource, wf: Workflow, job: Job, combo: Mapping[str, Any] | None,
          inputs: Mapping[str, Any] | None, callers: tuple[CallSite, ...], conds: tuple[str, ...], scan: Scan,
          library: Library, stack: tuple[str, ...]) -> None:
    """A job that calls a reusable workflow: the called workflow's jobs, with this job's `with:`
    evaluated under *combo*; what cannot be read is a gap of this job that may run cargo."""
    assert job.uses is not None
    uses = job.uses.strip()
    line = job.key_lines.get("uses", job.line)
    site = CallSite(wf, job, line, combo)
    scan._gaps = []
    target = reusable.local_target(uses)
    gap: Gap | None = None
    message = ""
    callee = library.workflows.get(target) if target else None
    if target is None:
        why = ("a reusable workflow in another repository, which linkgate cannot read" if reusable.is_remote(uses)
               else "a reusable workflow linkgate cannot locate")
        gap = Gap(wf.rel, line, f"uses: {uses}", why, True)
        message = f"job {job.id!r} calls `{uses}`, {why}; the cargo commands it runs are not audited"
    elif target in library.unread:
        reason, unknown = library.unread[target]
        why = f"a workflow linkgate did not read ({reason})"
        gap = Gap(wf.rel, line, f"uses: {uses}", why, unknown, (), target)
        message = f"job {job.id!r} calls {target}, {why}; the cargo commands it runs are not audited"
    elif callee is None or not reusable.is_workflow_path(target):
        why = "no workflow file of the repository (GitHub reads them only in .github/workflows)"
        gap = Gap(wf.rel, line, f"uses: {uses}", why, False)
        message = f"job {job.id!r} calls {target}: {why}; GitHub fails the run"
    elif target in stack:
        why = f"a cycle of reusable workflows ({' -> '.join((*stack, target))}), which GitHub refuses"
        gap = Gap(wf.rel, line, f"uses: {uses}", why, False)
        message = f"job {job.id!r} calls {target}, {why}; not followed"
    elif len(stack) >= reusable.MAX_LEVELS:
        why = f"past GitHub's limit of {reusable.MAX_LEVELS} levels of reusable workflows"
        gap = Gap(wf.rel, line, f"uses: {uses}", why, False)
        message = f"job {job.id!r} calls {target}, {why} (GitHub fails the run); not followed"
    elif model.call_inputs(callee) is None:
        why = "a workflow without `on: workflow_call`, which GitHub refuses to call"
        gap = Gap(wf.rel, line, f"uses: {uses}", why, False)
        message = f"job {job.id!r} calls {target}, {why}; not followed"
    if gap is not None:
        scan.gap(gap, message, cause=f"uses: {uses}")
    scan.coverage.add(StepCoverage(wf.rel, job.id, 0, line, f"uses: {uses}", "workflow",
                                   coverage.status_of(scan._gaps, False), tuple(scan._gaps),
                                   (target,) if gap is None and target else ()))
    scan.chains.setdefault((wf.rel, job.id, 0), {}).setdefault(tuple(c.key for c in callers), callers)
    if gap is not None or callee is None or target is None:
        return
    scan._called_runs += 1
    if scan._called_runs > reusable.MAX_CALLED_RUNS:
        scan.note(stack[0], callers[0].line if callers else line, "called runs", f"the reusable workflows called from {stack[0]} make more than "
                  f"{reusable.MAX_CALLED_RUNS:,} called runs (caller matrices multiply); the rest were not audited")
        return
    ctx = ExprContext(matrix=combo, inputs=inputs)
    bound = reusable.bind(reusable.declared(callee), job.with_, ctx)
    _scan_jobs(host, gates, callee, scan, library, bound, (*callers, site), conds, (*stack, target))


def _scan_job(host: RepoHost, gates: GateSource, wf: Workflow, job: Job, combo: Mapping[str, Any] | None,
              job_conds: tuple[str, ...], scan: Scan, inputs: Mapping[str, Any] | None = None,
              callers: tuple[CallSite, ...] = ()) -> None:
    base = ExprContext(matrix=combo, inputs=inputs)
    env = _env_layer({}, wf.env, base)
    env = _env_layer(env, job.env, ExprContext(matrix=combo, env=env, inputs=inputs))
    rendered = [substitute_plain(label, ExprContext(matrix=combo, env=env, inputs=inputs))[0]
                for label in job.runs_on]
    labels = [t for label in rendered for t in _split_labels(label)]
    self_hosted = any(t.lower() == "self-hosted" or not _HOSTED.match(t) for t in labels if "${{" not in t)
    os_name = None if self_hosted or any("${{" in t for t in labels) else runner_os(labels)
    job_dir = job.working_directory or wf.working_directory or ""
    carried: dict[str, str] = {}  # what steps wrote to $GITHUB_ENV
    outputs: dict[str, dict[str, str]] = {}  # what steps wrote to $GITHUB_OUTPUT, by step id
    host.foreign_checkouts = {}
    for step in job.steps:
        env = {**env, **carried}
        step_env = _env_layer(env, step.env, ExprContext(matrix=combo, env=env, runner_os=os_name, inputs=inputs,
                                                         steps=outputs))
        ctx = ExprContext(matrix=combo, env=step_env, runner_os=os_name, inputs=inputs, steps=outputs)
        runs = condition(step.if_, ctx)
        if runs is False:
            continue
        scan._gaps = []
        scan._not_followed = set()
        host.touched.clear()
        line_if = step.key_lines.get("if", step.line)
        conds = job_conds + (() if runs else (f"{wf.rel}:{line_if} if: {step.if_}",))
        cwd = _clean_dir(substitute_plain(step.working_directory or job_dir, ctx)[0])
        common: dict[str, Any] = dict(workflow=wf, job=job, step=step, matrix=combo, runs_on=tuple(labels),
                                      self_hosted=self_hosted, callers=callers)
        understood = True
        if step.run is not None:
            # GitHub's default is pwsh on Windows runners and bash elsewhere.
            shell = (step.shell or job.shell or wf.shell or ("pwsh" if os_name == "Windows" else "bash")).split()[0]
            if shell in _NOT_SHELL:
                understood = False
                _foreign_step(wf, step, scan)
            else:
                written: dict[str, str] = {}
                _run_commands(host, gates, wf, step, ctx, cwd, step_env, scan, carried if not conds else {},
                              shell in _POWERSHELL, os_name, conds, common, written)
                if step.id and not conds:
                    outputs[step.id] = written
        elif step.uses:
            _foreign_checkout(step, ctx, host)
            given: dict[str, str] = {}
            # `defaults.run.working-directory` (and a step's `working-directory`) apply to `run:`
            # steps only: an action starts in the workspace, and its own inputs may move it.
            understood = _action_step(host, gates, wf, step, ctx, "", step_env, scan, conds, common,
                                      written=given, carried=carried if not conds else {})
            if step.id and not conds and given.pop(_OUTPUTS_KNOWN, None) is not None:
                outputs[step.id] = given
        scan.coverage.add(StepCoverage(
            wf.rel, job.id, step.index, step.line, _step_label(step), "run" if step.run is not None else "action",
            coverage.status_of(scan._gaps, understood), tuple(scan._gaps),
            tuple(dict.fromkeys(t for t in host.touched if t not in scan._not_followed))))
        scan.chains.setdefault((wf.rel, job.id, step.index), {}).setdefault(tuple(c.key for c in callers), callers)


def _foreign_checkout(step: Step, ctx: ExprContext, host: RepoHost) -> None:
    """`actions/checkout` of another repository into `path:`: what the job runs from there is not ours."""
    assert step.uses is not None
    if frontends.canonical_action(step.uses) != "actions/checkout":
        return
    repository, path = step.with_.get("repository"), step.with_.get("path")
    if not isinstance(repository, str) or not isinstance(path, str):
        return
    repository = substitute_plain(repository, ctx)[0].strip()
    directory = _clean_dir(substitute_plain(path, ctx)[0].strip())
    if repository and "${{" not in repository and "github.repository" not in repository and directory \
            and not directory.startswith(".."):
        host.foreign_checkouts[directory] = repository


def _step_label(step: Step) -> str:
    if step.run is not None:
        first = next((t.strip() for t in str(step.run).split("\n") if t.strip()), "")
        return step.name or f"run: {first[:60]}"
    return step.name or f"uses: {step.uses}"


def _foreign_step(wf: Workflow, step: Step, scan: Scan) -> None:
    """A `shell: python` step: named, with the lines that write cargo; a note only when some do."""
    assert step.run is not None
    found = tuple(coverage.Mention(wf.rel, step.run.content_line + m.line - 1, m.text)
                  for m in coverage.mentions(wf.rel, str(step.run)))
    line = step.key_lines.get("run", step.line)
    gap = Gap(wf.rel, line, "shell: python", "a Python script linkgate does not read", bool(found), found)
    scan.gap(gap, "a `shell: python` step is a Python script linkgate does not read; the cargo commands it runs "
             "are not audited" if found else None, cause="shell: python")


def _run_commands(host: RepoHost, gates: GateSource, wf: Workflow, step: Step, ctx: ExprContext, cwd: str,
                  step_env: Mapping[str, str], scan: Scan, carried: dict[str, str], powershell: bool,
                  os_name: str | None, conds: tuple[str, ...], common: dict[str, Any],
                  written: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> None:
    for cmd in _run_step(host, wf, step, ctx, cwd, step_env, scan, carried, powershell, os_name, written):
        all_conds = conds + cmd.conditions
        selection = run_line(cmd.argv)
        if selection is not None:
            for g in _gate_commands(gates, selection, cmd.file, cmd.line, cmd.cwd, cmd.env, cmd.unknown, scan):
                gate_conds = all_conds + ((g.condition,) if g.condition else ())
                _record(host, scan, Invocation(
                    **common, file=cmd.file, line=cmd.line, argv=g.argv, cwd=g.cwd, env=g.env,
                    via=(*prefix, *cmd.via, f"{cmd.file}:{cmd.line} {' '.join(cmd.argv)}", g.defined),
                    conditional=bool(gate_conds), conditions=gate_conds))
            continue
        _record(host, scan, Invocation(
            **common, file=cmd.file, line=cmd.line, argv=cmd.argv, cwd=cmd.cwd, env=cmd.env,
            via=(*prefix, *cmd.via), unknown=cmd.unknown, conditional=bool(all_conds), conditions=all_conds))


def _action_step(host: RepoHost, gates: GateSource, wf: Workflow, step: Step, ctx: ExprContext, cwd: str,
                 step_env: Mapping[str, str], scan: Scan, conds: tuple[str, ...], common: dict[str, Any],
                 stack: tuple[str, ...] = (), written: dict[str, str] | None = None,
                 carried: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> bool:
    """The cargo commands of a `uses:` step; False when the action is one linkgate does not read.
    A local composite action's outputs go to *written* (with the key _OUTPUTS_KNOWN when they are
    known), what its steps write to $GITHUB_ENV to *carried*; *stack* is the chain of local actions
    that led here, *prefix* the `via` hops of those calls."""
    assert step.uses is not None
    inputs = {k: (substitute_plain(v, ctx)[0] if isinstance(v, str) else v) for k, v in step.with_.items()}
    line = step.key_lines.get("uses", step.line)
    if step.uses.strip().startswith("./") and "${{" not in step.uses:
        return _local_action(host, gates, wf, step, ctx, step_env, scan, conds, common, stack, written, carried,
                             prefix)
    name = frontends.canonical_action(step.uses)
    if name == "docker/build-push-action":
        context = str(inputs.get("context") or ".")
        file = inputs.get("file")
        image = docker.Image(str(file) if file else posixpath.join(context, "Dockerfile"), context)
        built = _built_by_action(host, wf, step, inputs, line, cwd, scan)
        if built is None:
            probe = ShellCommand(("uses:", step.uses), wf.rel, line, cwd, False, {}, ())
            _dockerfile(host, probe, image, scan)
            return True
        for cmd in built:
            all_conds = conds + cmd.conditions
            _record(host, scan, Invocation(
                **common, file=cmd.file, line=cmd.line, argv=cmd.argv, cwd=cmd.cwd, env=cmd.env,
                via=(*prefix, *cmd.via), unknown=cmd.unknown, conditional=bool(all_conds), conditions=all_conds))
        return True
    if actionscripts.script_inputs(step.uses) is not None:
        return _script_inputs(host, gates, wf, step, ctx, cwd, step_env, scan, conds, common, prefix)
    if not frontends.known_action(step.uses):
        if not coverage.known_no_cargo_action(step.uses):
            gap = coverage.action_gap(wf.rel, line, step.uses, host.peek)
            scan.gap(gap, f"`uses: {step.uses}` is {gap.why}; the cargo commands it runs are not audited"
                     if gap.cargo else None, cause=f"uses: {step.uses}")
            return False
        return True
    dir_input = frontends.ACTION_DIRECTORY.get(name)
    action_cwd = cwd
    if dir_input and isinstance(inputs.get(dir_input), str) and inputs[dir_input].strip():
        action_cwd = _clean_dir(posixpath.join(cwd, inputs[dir_input].strip()))
    for argv in frontends.action_commands(step.uses, inputs):
        if name in frontends.SHELL_ACTIONS and ctx.runner_os not in (None, "Windows"):
            argv = _bash_words(argv, step_env)
        action_via: tuple[str, ...] = ()
        step_cwd = action_cwd
        if "${{" not in " ".join(argv):
            done = frontcmd.complete(host.repo, tuple(argv), action_cwd)
            if done is not None:
                if done.note is not None:
                    scan.gap(Gap(wf.rel, line, " ".join(argv), done.gap_why or done.note[1], True,
                                 _xtask_mentions(host, done), done.unread_dir), done.note[1], cause=done.note[0])
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
                _record(host, scan, Invocation(
                    **common, file=wf.rel, line=line, argv=g.argv, cwd=g.cwd, env=g.env,
                    via=(*prefix, f"{wf.rel}:{line} uses: {step.uses}", g.defined),
                    conditional=True, conditions=gate_conds + ((g.condition,) if g.condition else ())))
            continue
        unknown = tuple(a for a in argv if "${{" in a)
        if _unknown_subcommand(wf.rel, line, tuple(argv), unknown, scan):
            continue
        for cause in _unknown_that_matters(argv, unknown):
            scan.gap(Gap(wf.rel, line, " ".join(argv), f"cannot evaluate {cause}", _may_link(argv)),
                     f"cannot evaluate {cause} in `{' '.join(argv)}`; classified as written", cause=cause)
        _record(host, scan, Invocation(
            **common, file=wf.rel, line=line, argv=tuple(argv), cwd=step_cwd, env=step_env, unknown=unknown,
            via=(*prefix, f"{wf.rel}:{line} uses: {step.uses}", *action_via), conditional=bool(conds),
            conditions=conds))
    return True


_ENV_REF = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def _bash_words(argv: list[str], env: Mapping[str, str]) -> list[str]:
    """*argv* as bash reads it when an action writes the words into a `run:` script: `$NAME` and
    `${NAME}` of the step's environment substituted, the result split at whitespace. A word whose
    variables are not all known stays as written (classified as written, with its note)."""
    out: list[str] = []
    for word in argv:
        refs = _ENV_REF.findall(word)
        if not refs or "${{" in word or not all((a or b) in env for a, b in refs):
            out.append(word)
            continue
        out.extend(_ENV_REF.sub(lambda m: env[m.group(1) or m.group(2)], word).split())
    return out


# The key of a local action's outputs that says they were all computed (never a real output name).
_OUTPUTS_KNOWN = "\0known"


def _local_action(host: RepoHost, gates: GateSource, wf: Workflow, step: Step, ctx: ExprContext,
                  step_env: Mapping[str, str], scan: Scan, conds: tuple[str, ...], common: dict[str, Any],
                  stack: tuple[str, ...], written: dict[str, str] | None, carried: dict[str, str] | None,
                  prefix: tuple[str, ...]) -> bool:
    """`uses: ./path`: a composite action's steps read as the calling job runs them
    (workflows.composite), attributed to the calling step with a `via` hop naming the action;
    a JavaScript or container action, or one that cannot be read, is a gap of the step."""
    assert step.uses is not None
    uses = step.uses.strip()
    line = step.key_lines.get("uses", step.line)
    directory = composite.directory_of(uses)
    chain = (*prefix, f"{wf.rel}:{line} uses: {uses}")
    if directory is None:
        why = "a local action outside the repository, which linkgate never reads"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, True),
                 f"`uses: {uses}` is {why}; the cargo commands it runs are not audited", cause=f"uses: {uses}")
        return False
    if directory not in scan._actions:
        scan._actions[directory] = (composite.load(directory, host.peek), host.take_refused())
    action, refused = scan._actions[directory]
    if isinstance(action, (composite.Action, composite.Unloadable)):
        host.touched.append(action.rel)  # read for this step (a coverage file)
    if refused:
        rel, reason = refused[0]
        message = f"{rel}: {reason}; not read, so what it runs is unknown"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", f"{rel}: {reason}", True), message, cause=f"file {rel}")
        return False
    if action is None:
        why = f"no action.yml or action.yaml in {directory or '.'} (made at run time, or GitHub fails the step)"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, True, (), directory or "."),
                 f"`uses: {uses}`: {why}; the cargo commands it runs are not audited", cause=f"uses: {uses}")
        return False
    if isinstance(action, composite.Unloadable):
        scan._not_followed.add(action.rel)
        why = f"{action.rel}:{action.line}: {action.why}"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, True, _mentions(host, action.rel), action.rel),
                 f"`uses: {uses}`: {why}; the cargo commands it runs are not audited", cause=f"uses: {uses}")
        return False
    if action.using != "composite":
        kind = ("a local JavaScript action" if action.using.startswith("node") else
                "a local container action" if action.using == "docker" else
                f"a local action (`using: {action.using}`)")
        found = _mentions(host, action.rel)
        scan._not_followed.add(action.rel)
        why = f"{kind} linkgate does not read"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, True, found, action.rel),
                 f"`uses: {uses}` is {why}; the cargo commands it runs are not audited" if found else None,
                 cause=f"uses: {uses}")
        return False
    if action.rel in stack:
        why = f"a cycle of local actions ({' -> '.join((*stack, action.rel))}), which never ends on GitHub"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, False), f"`uses: {uses}` makes {why}; not followed",
                 cause=f"uses: {uses}")
        return False
    if len(stack) >= composite.MAX_DEPTH:
        why = f"past GitHub's limit of {composite.MAX_DEPTH} levels of composite actions"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, False),
                 f"`uses: {uses}` is {why} (GitHub fails the job); not followed", cause=f"uses: {uses}")
        return False
    scan._action_runs += 1
    if scan._action_runs > composite.MAX_RUNS:
        why = f"past {composite.MAX_RUNS:,} runs of local actions in one workflow (nested calls multiply)"
        scan.gap(Gap(wf.rel, line, f"uses: {uses}", why, True),
                 f"`uses: {uses}` is {why}; it and the rest were not audited", cause="local action runs")
        return False
    awf = replace(wf, rel=action.rel)  # where the action's lines are; the invocations stay the caller's
    bound = composite.bind(action, step.with_, ctx)
    action_path = f"{WORKSPACE}/{action.directory}" if action.directory else WORKSPACE
    base_env = {**step_env, "GITHUB_ACTION_PATH": action_path}
    own_env: dict[str, str] = {}  # what the action's steps wrote to $GITHUB_ENV
    outputs: dict[str, dict[str, str]] = {}
    understood = False
    gaps_before = len(scan._gaps)
    for inner in action.steps:
        env = {**base_env, **own_env}
        inner_ctx = ExprContext(matrix=ctx.matrix, env=env, runner_os=ctx.runner_os, inputs=bound, steps=outputs,
                                action_path=action_path)
        env = _env_layer(env, inner.env, inner_ctx)
        inner_ctx = replace(inner_ctx, env=env)
        runs = condition(inner.if_, inner_ctx)
        if runs is False:
            continue
        inner_conds = conds + (() if runs else (f"{action.rel}:{inner.key_lines.get('if', inner.line)} "
                                                f"if: {inner.if_}",))
        inner_cwd = _clean_dir(substitute_plain(inner.working_directory or "", inner_ctx)[0])
        if inner.run is not None:
            shell = (inner.shell or "").split()[0] if (inner.shell or "").split() else ""
            if not shell:
                why = "a composite action's `run:` step without `shell:`, which GitHub refuses"
                scan.gap(Gap(action.rel, inner.key_lines.get("run", inner.line), "run:", why, False),
                         f"{why}; not read", cause=f"no shell {inner.line}")
                continue
            if shell in _NOT_SHELL:
                _foreign_step(awf, inner, scan)
                continue
            understood = True
            inner_written: dict[str, str] = {}
            _run_commands(host, gates, awf, inner, inner_ctx, inner_cwd, env, scan,
                          own_env if not inner_conds else {}, shell in _POWERSHELL, ctx.runner_os, inner_conds,
                          common, inner_written, chain)
            if inner.id and not inner_conds:
                outputs[inner.id] = inner_written
        elif inner.uses:
            nested: dict[str, str] = {}
            understood = _action_step(host, gates, awf, inner, inner_ctx, inner_cwd, env, scan, inner_conds,
                                      common, (*stack, action.rel), nested, own_env if not inner_conds else {},
                                      chain) or understood
            if inner.id and not inner_conds and nested.pop(_OUTPUTS_KNOWN, None) is not None:
                outputs[inner.id] = nested
    if carried is not None:
        carried.update(own_env)
    if written is not None:
        values = composite.outputs(action, ExprContext(matrix=ctx.matrix, env={**base_env, **own_env},
                                                      runner_os=ctx.runner_os, inputs=bound, steps=outputs,
                                                      action_path=action_path))
        if values is not None:
            written.update(values)
            written[_OUTPUTS_KNOWN] = ""
    return understood or len(scan._gaps) == gaps_before


def _script_inputs(host: RepoHost, gates: GateSource, wf: Workflow, step: Step, ctx: ExprContext, cwd: str,
                   step_env: Mapping[str, str], scan: Scan, conds: tuple[str, ...], common: dict[str, Any],
                   prefix: tuple[str, ...] = ()) -> bool:
    """An action that runs its inputs as shell scripts (workflows.actionscripts): each read as a `run:`."""
    assert step.uses is not None
    foreign = actionscripts.foreign_shell(step.uses, step.with_)
    if foreign is not None:
        line = step.key_lines.get("uses", step.line)
        language = coverage.INTERPRETERS.get(foreign, foreign)
        found = tuple(coverage.Mention(wf.rel, v.content_line + m.line - 1, m.text)
                      for _, v, _ in actionscripts.scripts(step.uses, {**step.with_, "shell": "bash"})
                      for m in coverage.mentions(wf.rel, str(v)))
        scan.gap(Gap(wf.rel, line, f"uses: {step.uses} shell: {foreign}", f"a {language} script linkgate does not read",
                     bool(found), found),
                 f"`uses: {step.uses}` runs a {language} script linkgate does not read; the cargo commands it runs "
                 "are not audited" if found else None, cause=f"uses: {step.uses} shell: {foreign}")
        return False
    # A VM or container runs the script on its own system; a retry action on the runner's.
    os_name = ctx.runner_os if actionscripts.on_runner(step.uses) else None
    directory = actionscripts.working_directory(step.uses, step.with_)
    if directory is not None:
        cwd = _clean_dir(substitute_plain(directory, ctx)[0])
    for _key, text, powershell in actionscripts.scripts(step.uses, step.with_):
        # Read as the action runs it: a shell script in the checked-out repository.
        _run_commands(host, gates, wf, replace(step, run=text), ctx, cwd, step_env, scan, {}, powershell, os_name,
                      conds, common, None, prefix)
    return True


def _record(host: RepoHost, scan: Scan, inv: Invocation) -> None:
    """Keep *inv* as a record unless its subcommand is no name cargo builds in, no plugin linkgate
    knows and no alias of the repository's cargo configuration: then it is a note and a gap that may
    link, never a record (the last guard, whichever reader produced the command)."""
    bad = foreign_subcommand(host.repo, inv.argv, inv.cwd)
    if bad is None:
        scan.invocations.append(inv)
        return
    shown = " ".join(inv.argv)
    why = f"`{bad}` is not a cargo subcommand, a plugin linkgate knows or an alias of the repository's cargo config"
    scan.gap(Gap(inv.file, inv.line, shown, why, True),
             f"cannot tell what `{shown}` runs: {why}; if it builds the project, this command is not audited",
             cause=bad)


def foreign_subcommand(repo: Path, argv: tuple[str, ...], cwd: str) -> str | None:
    """The subcommand word of *argv* (as cargo runs it) that names nothing cargo knows, or None."""
    call = parse_cargo(argv)
    if call is None:
        return None
    words = [w for w in (call.subcommand.split(" ")[0], call.hack and subcommand_word(argv)) if w]
    for word in words:
        if known_name(word):
            continue
        if not cwd.startswith(("/", "..")) and "$" not in cwd and "\0" not in word:
            _expanded, via = expand_aliases([word], repo / cwd, repo)
            if via:
                continue
        return word
    return None


def _unknown_that_matters(argv: Sequence[str], unknown: Sequence[str]) -> tuple[str, ...]:
    """The unknown values of *argv* that could change what it compiles: not one that only names
    the toolchain (`cargo +${{ steps.toolchain.outputs.name }} build`), which picks the compiler
    but neither the subcommand, the packages nor the features."""
    def toolchain_only(cause: str) -> bool:
        where = [i for i, a in enumerate(argv) if cause in a]
        return bool(where) and where == [1] and argv[1].startswith("+") and \
            posixpath.basename(argv[0]) in ("cargo", "cargo.exe", "cross")
    return tuple(c for c in unknown if not toolchain_only(c))


def _may_link(argv: tuple[str, ...] | list[str]) -> bool:
    """Could this cargo command, whatever its unknown words are, run the linker?"""
    call = parse_cargo(argv)
    return call is None or not (call.subcommand.split(" ")[0] in NOT_LINKING or installs_crate(call))


def _unknown_subcommand(file: str, line: int, argv: tuple[str, ...], unknown: tuple[str, ...], scan: Scan) -> bool:
    """A cargo command whose subcommand is no name cargo or a known plugin has (`{{msrv}}`,
    `$X`, a quoted fragment) is never a record: it is a note, and a gap that may link."""
    if frontends.program(argv) not in ("cargo", "cross", "xargo") or frontends.cargo_argv(argv) != tuple(argv):
        return False
    call = parse_cargo(argv)
    word = subcommand_word(argv)
    if call is None or word is None:
        return False
    words = [word, *([call.subcommand] if call.hack else [])]
    bad = next((w for w in words if not known_name(w)), None)
    if bad is None:
        return False
    shown = " ".join(argv)
    cause = next((c for c in unknown if c in bad), bad)
    why = f"`{bad}` is not a cargo subcommand or a plugin linkgate knows"
    scan.gap(Gap(file, line, shown, why, True),
             f"cannot tell what `{shown}` runs: {why}; if it builds the project, this command is not audited",
             cause=cause)
    return True

def _gate_commands(gates: GateSource, line: RunLine, file: str, lineno: int, cwd: str, env: Mapping[str, str],
                   unknown: tuple[str, ...], scan: Scan) -> list[GateCommand]:
    """The cargo commands of a `linkgate run` line; what cannot be audited becomes a note."""
    found, notes = gates.commands(line, cwd, env, unknown)
    for note in notes:
        # A gate that cannot be read may link anything it names: a gap, as an unread program is.
        scan.gap(Gap(file, lineno, "linkgate run", note.message, note.may_link), note.message, cause=note.cause)
    return found


def _run_step(host: RepoHost, wf: Workflow, step: Step, ctx: ExprContext, cwd: str, env: Mapping[str, str],
              scan: Scan, carried: dict[str, str], powershell: bool = False,
              os_name: str | None = None, written: dict[str, str] | None = None) -> list[ShellCommand]:
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
    pwsh_unknowns: dict[str, Val] = {}
    if powershell:
        translated = pwsh.to_bash(text)
        text = translated.text
        for row, cause, message in translated.problems:
            scan.gap(Gap(wf.rel, step.run.content_line + row, "", message, True), message, cause=cause)
        for row, var, name, expression in translated.unknowns:
            # `$x = (Get-Date).Year`: $x is unknown, and the note names the line that set it.
            cause = f"{name} (set by the PowerShell expression `{expression}` at {wf.rel}:{step.run.content_line + row})"
            pwsh_unknowns[var] = Val(name, (cause,))
    key = (text, wf.rel, step.run.content_line, tuple(sorted(env.items())), cwd, tuple(exprs), os_name)
    ev = scan._evaluated.get(key)
    if ev is None:
        ev = scan._evaluated[key] = Evaluator(host, exprs)
        shell_env = _shell_env(env)
        if powershell:
            # What the PowerShell reader does not compute reads as this unknown value (workflows.pwsh).
            shell_env[pwsh.UNREAD_VAR] = Val("$(pwsh-expression)", ("$(pwsh-expression)",))
            shell_env.update(pwsh_unknowns)
        if os_name is not None:
            shell_env.setdefault("RUNNER_OS", Val(os_name))
        ev.run_text(text, Frame(wf.rel, step.run.content_line), ev.new_shell(shell_env, cwd, False))
    carried.update(ev.github_env)
    if written is not None:
        written.update(ev.github_output)
    return _collected(host, ev, scan)


def _collected(host: RepoHost, ev: Evaluator, scan: Scan) -> list[ShellCommand]:
    """The cargo commands an evaluation met; its problems and what it could not read go to *scan*."""
    found: list[ShellCommand] = []
    for each in (c for raw in ev.commands for c in _each_member(host, raw)):
        completed = _completed(host, each, scan)
        if completed is None:
            continue
        cmd = completed
        argv = " ".join(cmd.argv)
        if run_line(cmd.argv) is not None:
            found.append(cmd)
        elif frontends.runs_cargo(cmd.argv):
            if _unknown_subcommand(cmd.file, cmd.line, cmd.argv, cmd.unknown, scan):
                continue
            found.append(cmd)
            for cause in _unknown_that_matters(cmd.argv, cmd.unknown):
                scan.gap(Gap(cmd.file, cmd.line, argv, f"cannot evaluate {cause}", _may_link(cmd.argv)),
                         f"cannot evaluate {cause} in `{argv}`; classified as written", cause=cause)
        elif cmd.name_unknown and frontends.may_be_cargo(cmd.argv):
            scan.gap(Gap(cmd.file, cmd.line, argv, f"cannot evaluate `{cmd.argv[0]}`", True),
                     f"cannot evaluate `{cmd.argv[0]}` in `{argv}`; if it runs cargo, this command is not audited",
                     cause=cmd.argv[0])
        else:
            _passes_cargo_on(cmd, scan)
            _interpreted(host, cmd, scan)
            _cmake(host, cmd, scan)
            _nix(host, cmd, scan)
            _dockerfile(host, cmd, docker.built_from(cmd.argv), scan)
    for problem in ev.problems:
        if problem.unread:
            source = host.peek(problem.unread)
            scan._not_followed.add(problem.unread)  # opened to learn its language, never read as bash
            found_lines = _mentions(host, problem.unread)
            language = coverage.foreign_language(problem.unread, source or "")
            why = f"a {language} program linkgate does not read" if language else "a program linkgate does not read"
            scan.gap(Gap(problem.file, problem.line, problem.cause, why,
                         bool(found_lines), found_lines, problem.unread), problem.message if found_lines else None,
                     cause=problem.cause)
        else:
            scan.gap(Gap(problem.file, problem.line, "", problem.message, problem.cargo),
                     problem.message if problem.cargo else None, cause=problem.cause)
    return found


# A program that runs cargo, written as a word of another command's arguments.
_CARGO_WORD = re.compile(r"(?:^|[\s;&|(`'\"])(cargo|cross|maturin|wasm-pack|cargo-zigbuild|cargo-make|makers)"
                         r"(?:\.exe)?(?=$|[\s;&|)`'\"])")
_SUBSTITUTION = re.compile(r"\$\([^()]*\)|`[^`]*`|<\([^()]*\)")
# Programs that take such a word as data, never as a command to run: printing, searching,
# package managers and tool installers, file and version-control commands.
_TAKES_CARGO_AS_DATA = {
    "echo", "printf", "which", "type", "hash", "whereis", "command", "grep", "egrep", "fgrep", "rg", "sed", "awk",
    "gawk", "cut", "tr", "sort", "uniq", "head", "tail", "cat", "tee", "wc", "jq", "yq", "ls", "test", "[", "[[",
    "apt", "apt-get", "dpkg", "yum", "dnf", "zypper", "pacman", "apk", "brew", "port", "choco", "scoop", "winget",
    "pkg", "pkg_add", "pkgin", "emerge", "nix-env", "rustup", "pip", "pip3", "pipx", "conda", "mamba", "npm",
    "git", "cp", "mv", "rm", "ln", "mkdir", "chmod", "chown", "touch", "stat", "file", "readlink", "realpath",
    "basename", "dirname", "export", "unset", "alias", "local", "declare", "readonly", "set", "curl", "wget",
    "tar", "unzip", "zip", "gh", "sccache", "ccache", "cargo-binstall", "binstall", "du", "df", "strip",
    "Write-Host", "Write-Output", "Get-Command", "gcm", "where", "where.exe", "Test-Path",
    # A sourced or run script is followed (or named unread) by the shell reader itself.
    "source", ".",
}


def _passes_cargo_on(cmd: ShellCommand, scan: Scan) -> None:
    """A program linkgate does not read whose arguments name cargo (`parallel cargo test ::: a b`,
    `script -c "cargo build"`): it may run it, so it is a gap that may link, never a silent miss."""
    name = posixpath.basename(cmd.argv[0]) if cmd.argv else ""
    if not name or name in _TAKES_CARGO_AS_DATA or name.lower() in _TAKES_CARGO_AS_DATA:
        return
    # A command substitution's text is there because its value is unknown; the evaluator
    # reads the command inside it on its own.
    hit = next((m.group(1) for a in cmd.argv[1:] if (m := _CARGO_WORD.search(_SUBSTITUTION.sub(" ", a)))), None)
    if hit is None:
        return
    shown = " ".join(cmd.argv)
    why = f"`{name}` runs a command linkgate does not read, and `{hit}` is among its arguments"
    scan.gap(Gap(cmd.file, cmd.line, shown, why, True),
             f"{why} (`{shown[:120]}`); if it runs cargo, that command is not audited", cause=name)


def _mentions(host: RepoHost, rel: str) -> tuple[coverage.Mention, ...]:
    """Scanned once per host (one audit), however many matrix combinations meet the file."""
    if rel not in host.scanned:
        host.scanned[rel] = coverage.mentions(rel, host.peek(rel))
    return host.scanned[rel]


def _xtask_mentions(host: RepoHost, done: frontcmd.Completed) -> tuple[coverage.Mention, ...]:
    key = f"{done.unread_dir}/src/**.rs"
    if key not in host.scanned:
        host.scanned[key] = frontcmd.note_mentions(host.repo, done)
    return host.scanned[key]


def _built_by_action(host: RepoHost, wf: Workflow, step: Step, inputs: Mapping[str, Any], line: int, cwd: str,
                     scan: Scan) -> list[ShellCommand] | None:
    """docker/build-push-action's `context`, `file`, `build-args` and `target`, read as the
    `docker build` they make (shell.calls.run_docker_build); None when an input is not known."""
    words = ["docker", "build"]
    if inputs.get("file"):
        words += ["-f", str(inputs["file"])]
    for item in str(inputs.get("build-args") or "").split("\n"):
        if item.strip():
            words += ["--build-arg", item.strip()]
    if inputs.get("target"):
        words += ["--target", str(inputs["target"])]
    words.append(str(inputs.get("context") or "."))
    if any("${{" in w for w in words):
        return None
    ev = Evaluator(host)
    ran = run_docker_build(ev, [Val(w) for w in words], ev.new_shell({}, cwd, False), Frame(wf.rel, line), line,
                           shown=f"uses: {step.uses}")
    return None if ran is None else _collected(host, ev, scan)


def _dockerfile(host: RepoHost, cmd: ShellCommand, image: docker.Image | None, scan: Scan) -> None:
    """`docker build`: the Dockerfile's RUN lines run in the build, unread; named with the
    lines that write cargo, and a note when some do."""
    if image is None or cmd.cwd_unknown:
        return
    rel = posixpath.normpath(posixpath.join(cmd.cwd, image.dockerfile))
    found = _mentions(host, rel)
    scan.gap(Gap(cmd.file, cmd.line, " ".join(cmd.argv), f"builds {rel}, a Dockerfile linkgate does not read",
                 bool(found), found, rel),
             f"`{' '.join(cmd.argv)}` builds {rel}, a Dockerfile linkgate does not read; the cargo commands its "
             "RUN lines run are not audited" if found else None, cause=f"Dockerfile {rel}")


def _cmake(host: RepoHost, cmd: ShellCommand, scan: Scan) -> None:
    """`cmake -S SRC -B BUILD` notes the project; `cmake --build BUILD` runs its custom commands and
    external projects, which linkgate does not read: a gap naming the lines that run cargo."""
    if cmd.cwd_unknown or not cmd.argv or any("$" in a for a in cmd.argv):
        return
    setup = cmake.configured(cmd.argv, cmd.cwd)
    if setup is not None:
        host.cmake_sources[setup[1]] = setup[0]
        return
    build = cmake.built(cmd.argv, cmd.cwd)
    if build is None:
        return
    source = host.cmake_sources.get(build)
    project = cmake.project_mentions(host.peek, source) if source is not None else None
    if project is None:
        return
    top, found = project
    why = f"builds the CMake project {top}, which linkgate does not read"
    scan.gap(Gap(cmd.file, cmd.line, " ".join(cmd.argv), why, bool(found), found, top),
             f"`{' '.join(cmd.argv)}` {why}; the cargo commands its custom commands and external projects run "
             "are not audited" if found else None, cause=f"CMake {top}")


# Nix's Rust builders: a derivation made with one of these runs cargo in the build.
_NIX_RUST = re.compile(r"buildRustPackage|buildRustCrate|naersk|crane(Lib)?\b|rustPlatform|cargoBuild|cargo2nix")


def _nix(host: RepoHost, cmd: ShellCommand, scan: Scan) -> None:
    """`nix build`, `nix flake check`, `nix-build`: the flake's (or default.nix's) derivations build,
    which linkgate does not read: a gap naming the lines of the Nix file that build Rust."""
    argv = cmd.argv
    name = frontends.program(argv)
    if cmd.cwd_unknown or not (name == "nix" and argv[1:2] in (("build",), ("run",)) or
                               name == "nix" and argv[1:3] == ("flake", "check") or name == "nix-build"):
        return
    rel = posixpath.normpath(posixpath.join(cmd.cwd, "default.nix" if name == "nix-build" else "flake.nix"))
    text = host.peek(rel) if not rel.startswith(("..", "/")) else None
    if text is None:
        return
    found = tuple(coverage.Mention(rel, no, line.strip()[:160]) for no, line in enumerate(text.split("\n"), 1)
                  if _NIX_RUST.search(line) or coverage.mentions(rel, line))[:coverage.MAX_MENTIONS]
    shown = " ".join(argv)
    why = f"builds the Nix derivations of {rel}, which linkgate does not read"
    scan.gap(Gap(cmd.file, cmd.line, shown, why, bool(found), found, rel),
             f"`{shown}` {why}; the cargo commands its Rust builds run are not audited" if found else None,
             cause=f"Nix {rel}")


def _each_member(host: RepoHost, cmd: ShellCommand) -> list[ShellCommand]:
    """`cargo ws exec CMD`: CMD once in each member's directory (workflows.frontcmd)."""
    fanned = None if cmd.cwd_unknown else frontcmd.workspace_exec(host.repo, cmd.argv, cmd.cwd)
    if fanned is None:
        return [cmd]
    hop = f"{cmd.file}:{cmd.line} {' '.join(cmd.argv)}"
    return [replace(cmd, argv=argv, cwd=cwd, via=(*cmd.via, f"{hop} in {cwd or '.'}")) for argv, cwd in fanned]


def _interpreted(host: RepoHost, cmd: ShellCommand, scan: Scan) -> None:
    """`python build.py`, `nu scripts/release.nu`: a program in a language linkgate does not read,
    named with the lines of it that write cargo; a note only when some do."""
    language = coverage.interpreter_language(cmd.argv[0]) if cmd.argv else None
    if language is None or cmd.cwd_unknown:
        return
    script = _script_argument(cmd.argv)
    if script is None:
        return
    rel = posixpath.normpath(posixpath.join(cmd.cwd, script))
    text = host.peek(rel) if not rel.startswith(("..", "/")) else None
    if text is None:
        return
    language = coverage.script_language(language, rel)
    found = _mentions(host, rel)
    message = f"{rel} is a {language} program linkgate does not read; the cargo commands it runs are not audited"
    scan.gap(Gap(cmd.file, cmd.line, " ".join(cmd.argv), f"a {language} program linkgate does not read",
                 bool(found), found, rel), message if found else None, cause=f"script {rel}")


def _script_argument(argv: tuple[str, ...]) -> str | None:
    """The script an interpreter's command line runs: the first word that is no option or an option's
    value (`node --import X build.ts`, `deno run -A x.ts`); None for `-m`, `-c`, `-e` and `--eval`."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in ("-m", "-c", "-e", "--eval", "-p", "--print") and not (word == "-p" and argv[0] != "node"):
            return None
        if word in coverage.INTERPRETER_VALUE_OPTIONS:
            i += 2
            continue
        if word.startswith("-") or (i == 1 and word in ("run", "exec") and argv[0].rsplit("/", 1)[-1] in
                                    ("deno", "bun")):
            i += 1
            continue
        return word
    return None


def _completed(host: RepoHost, cmd: ShellCommand, scan: Scan) -> ShellCommand | None:
    """*cmd* as its program runs it: maturin's pyproject settings, a pip build of a maturin
    project, cargo aliases, trunk's page (``workflows.frontcmd``); None when what it builds
    cannot be known (its note is in *scan*)."""
    if cmd.cwd_unknown or not cmd.argv:
        return cmd
    done = frontcmd.complete(host.repo, cmd.argv, cmd.cwd)
    if done is None:
        return cmd
    if done.note is not None:
        scan.gap(Gap(cmd.file, cmd.line, " ".join(cmd.argv), done.gap_why or done.note[1],
                     True, _xtask_mentions(host, done), done.unread_dir), done.note[1], cause=done.note[0])
    if not done.record:
        return None
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

"""Plan the edits `linkgate ci github` makes: the job, its trigger, its comment.

Collect first, write last: ``plan`` returns every file's old and new text;
the command prints, checks or writes them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from linkgate.ci import comment, job, runners
from linkgate.ci.facts import GateFacts
from linkgate.ci.splice import BEGIN, END, WorkflowText
from linkgate.config import Config, Gate
from linkgate.errors import UsageError

TRIGGERS = ("every-pr", "paths", "schedule")


@dataclass(frozen=True)
class Options:
    workflow: Path                 # absolute
    trigger: str
    cron: str | None = None
    repository: str | None = None
    after: str | None = None       # insert the job after this job id
    version: str = "0"
    command: str = "linkgate ci github"
    matrix: bool = False


@dataclass
class Plan:
    edits: dict[Path, tuple[str | None, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    preview: str = ""

    def changed(self) -> dict[Path, tuple[str | None, str]]:
        return {p: (old, new) for p, (old, new) in self.edits.items() if old != new}


def parse_trigger(value: str) -> tuple[str, str | None]:
    if value.startswith("schedule:"):
        cron = value.split(":", 1)[1].strip()
        if len(cron.split()) != 5:
            raise UsageError(f"--trigger {value!r}: a cron schedule has five fields",
                             hint="e.g. --trigger 'schedule:17 3 * * *'")
        return "schedule", cron
    if value not in TRIGGERS or value == "schedule":
        raise UsageError(f"unknown trigger {value!r}", hint="choose every-pr, paths or schedule:CRON")
    return value, None


def filter_patterns(cfg: Config, gate: Gate) -> list[str]:
    """The patterns of the gate's filter: its own ``paths``, else its causal surface."""
    if gate.paths:
        return list(gate.paths)
    from linkgate.surface import static as staticscan

    surface = staticscan.static(cfg, gate)
    out: list[str] = []
    for p in surface.paths:
        if p.outside:
            continue
        pattern = p.path
        if pattern.endswith("/"):
            pattern += "**"
        elif (cfg.root / pattern).is_dir():
            pattern = pattern.rstrip("/") + "/**"
        if pattern not in out:
            out.append(pattern)
    ignored = _git_ignored(cfg.root, [p for p in out if "*" not in p])
    out = [p for p in out if p not in ignored]
    # A file a directory glob already covers is one line of noise in the filter.
    from linkgate.trigger.pathfilter import matches

    globs = [p for p in out if "*" in p]
    out = [p for p in out if "*" in p or not any(matches(g, p) for g in globs)]
    if not out:
        raise UsageError(f"gate {gate.name!r}: its causal surface is empty, so a paths filter would never run it",
                         hint="set paths = [...] on the gate, or use --trigger every-pr")
    return out


def _git_ignored(root: Path, paths: list[str]) -> set[str]:
    """The *paths* git ignores: a pull request never changes them (a git-ignored
    Cargo.lock), so a filter entry for them only misleads. Nothing outside git."""
    from linkgate.errors import LinkgateError
    from linkgate.trigger.gitdiff import ignored_files

    try:
        return ignored_files(root, paths)
    except LinkgateError:
        return set()


def _block(indent: int, name: str, comment_lines: list[str], mapping: dict[str, object]) -> str:
    pad = " " * indent
    head = pad + BEGIN.format(name) + "\n" + "".join(pad + ("# " + c if c else "#") + "\n" for c in comment_lines)
    return head + job.dump(mapping, indent) + pad + END.format(name) + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def plan(cfg: Config, gate: Gate, facts: GateFacts, opts: Options) -> Plan:
    result = Plan()
    jid = job.job_id(gate)
    if gate.self_hosted and not opts.repository:
        raise UsageError(f"gate {gate.name!r} runs on a self-hosted runner, and the repository is unknown",
                         hint="pass --repository owner/name (used for the fork guard)")
    lines = comment.render(gate, opts.trigger, facts, f"{opts.command} {gate.name}", parallel=opts.matrix)
    spec = job.JobSpec(gate=gate, trigger=opts.trigger, version=opts.version, repository=opts.repository,
                       timeout_minutes=facts.timeout_minutes(parallel=opts.matrix))
    if opts.trigger == "schedule":
        target = opts.workflow.parent / f"linkgate-{jid}.yml"
        old = _read(target)
        text = _scheduled_workflow(gate, opts.cron or "", _block(2, jid, lines, _jobs(spec, opts)))
        if old is not None:
            wf = WorkflowText(old, _rel(cfg, target))
            wf.put_job(jid, _block(_indent(wf), jid, lines, _jobs(spec, opts)))
            text = wf.text
        result.edits[target] = (old, text)
        result.preview = text
    else:
        old = _read(opts.workflow)
        if old is None:
            raise UsageError(f"workflow {_rel(cfg, opts.workflow)} does not exist",
                             hint="pass --workflow PATH of an existing workflow, or use --trigger schedule:CRON")
        wf = WorkflowText(old, _rel(cfg, opts.workflow))
        if opts.trigger == "paths":
            spec = _apply_filter(cfg, gate, wf, spec, opts)
        block = _block(_indent(wf), jid, lines, _jobs(spec, opts))
        wf.put_job(jid, block, after=opts.after)
        _verify(wf, jid)
        result.edits[opts.workflow] = (old, wf.text)
        result.preview = block
        if opts.trigger == "every-pr" and "pull_request" not in old:
            result.notes.append(f"{wf.where} has no pull_request trigger: --trigger every-pr relies on it")
    labels = runners.custom_labels(gate.runner)
    if labels:
        path = cfg.root / ".github" / "actionlint.yaml"
        old_cfg = _read(path)
        result.edits[path] = (old_cfg, runners.declare_labels(old_cfg, labels))
    return result


def _jobs(spec: job.JobSpec, opts: Options) -> dict[str, object]:
    return dict(job.matrix_jobs(spec)) if opts.matrix else {job.job_id(spec.gate): job.gate_job(spec)}


def _apply_filter(cfg: Config, gate: Gate, wf: WorkflowText, spec: job.JobSpec, opts: Options) -> job.JobSpec:
    patterns = filter_patterns(cfg, gate)
    found = wf.filter_step()
    if found is None:
        block = job.changes_job(gate.name + ":\n" + "".join(f"  - '{p}'\n" for p in patterns))
        changes = _block(_indent(wf), "changes", [
            "Which paths changed, as dorny/paths-filter sees them; written by linkgate for its link gates."],
            {"changes": block})
        first = wf.jobs()[0][0]
        wf.put_job("changes", changes, after=first if opts.after is None else opts.after)
        found = wf.filter_step()
        assert found is not None
    filter_job, index = found
    step_id = wf.ensure_step_id(filter_job, index)
    wf.put_filter(filter_job, index, gate.name, patterns)
    wf.put_output(filter_job, gate.name, f"${{{{ steps.{step_id}.outputs.{gate.name} }}}}")
    return job.JobSpec(**{**spec.__dict__, "filter_job": filter_job})


def _indent(wf: WorkflowText) -> int:
    return wf.jobs()[0][1]


def _verify(wf: WorkflowText, jid: str) -> None:
    from linkgate.workflows.yamlnodes import YamlError, load_text

    try:
        doc = load_text(wf.text)
    except YamlError as exc:  # pragma: no cover - a bug in the splice, never the user's input
        raise UsageError(f"internal error: the edited workflow does not parse ({exc.message}, line {exc.line})",
                         hint="please report this; nothing was written") from None
    if not isinstance(doc, dict) or jid not in (doc.get("jobs") or {}):
        raise UsageError("internal error: the edited workflow lost the job; nothing was written")


def _scheduled_workflow(gate: Gate, cron: str, block: str) -> str:
    return (
        f"# The link gate {gate.name!r} on a schedule, written by `linkgate ci github --trigger schedule:...`.\n"
        f"name: linkgate {gate.name}\n"
        "on:\n"
        "  schedule:\n"
        f"    - cron: '{cron}'\n"
        "  workflow_dispatch:\n"
        "permissions: {}\n"
        "jobs:\n" + block
    )


def _rel(cfg: Config, path: Path) -> str:
    try:
        return os.path.relpath(path, cfg.root)
    except ValueError:
        return str(path)

"""Plan the edits `linkgate ci github` makes: the job, its trigger, its comment.

Collect first, write last: ``plan`` returns every file's old and new text;
the command prints, checks or writes them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from linkgate import repofs, yamlemit
from linkgate.ci import comment, cron, gitindex, job, runners, untrusted
from linkgate.ci.facts import GateFacts
from linkgate.ci.gitindex import GitIndex
from linkgate.ci.linkersteps import linker_steps
from linkgate.ci.splice import BEGIN, END, WorkflowText, filter_entry
from linkgate.config import Config, Gate
from linkgate.errors import ConfigError, RefusedFile, UsageError

TRIGGERS = ("every-pr", "paths", "schedule")


@dataclass(frozen=True)
class Options:
    workflow: Path                 # absolute
    trigger: str
    cron: str | None = None
    repository: str | None = None
    after: str | None = None       # insert the job after this job id
    install: str = ""              # the `pip install` argument of every install step
    install_sha256: str | None = None  # set when *install* is a vendored wheel (ci/vendor.py)
    setup_python: bool = True          # [ci] setup-python
    command: str = "linkgate ci github"
    matrix: bool = False
    # --check without --history: compare the measured facts as the workflow states
    # them, since a CI runner's history (often none) is not the one that wrote them.
    keep_measured: bool = False


@dataclass
class Plan:
    edits: dict[Path, tuple[str | None, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    preview: str = ""

    def changed(self) -> dict[Path, tuple[str | None, str]]:
        return {p: (old, new) for p, (old, new) in self.edits.items() if old != new}


def parse_trigger(value: str) -> tuple[str, str | None]:
    if value.startswith("schedule:"):
        return "schedule", cron.check(value.split(":", 1)[1], "--trigger schedule:")
    if value not in TRIGGERS or value == "schedule":
        raise UsageError(f"unknown trigger {value!r}", hint="choose every-pr, paths or schedule:CRON")
    return value, None


@dataclass(frozen=True)
class FilterEntry:
    """The patterns of a gate's filter, and what the command should say about them."""
    patterns: tuple[str, ...]
    notes: tuple[str, ...] = ()


def filter_patterns(cfg: Config, gate: Gate, index: GitIndex | None = None) -> FilterEntry:
    """The patterns of the gate's filter: its own ``paths``, else its causal
    surface; with the configuration file that defines the gate either way, since
    its ``env``, ``cargo`` or ``linkers`` change what links."""
    from linkgate.trigger.pathfilter import matches

    index = index if index is not None else gitindex.read(cfg.root)
    config = _config_pattern(cfg)
    if gate.paths:
        return _completed_paths(cfg, gate, index, config)
    from linkgate.surface import static as staticscan

    surface = staticscan.static(cfg, gate)
    out = []
    for p in surface.paths:
        if p.outside:
            continue
        pattern = _pattern(cfg, index, p.path)
        if pattern not in out:
            out.append(pattern)
    if config and config not in out:
        out.append(config)
    check = gitindex.ignored(cfg.root, [p for p in out if "*" not in p], index)
    out = [p for p in out if p not in check.ignored]
    # A file a directory glob already covers is one line of noise in the filter.
    globs = [p for p in out if "*" in p]
    out = [p for p in out if "*" in p or not any(matches(g, p) for g in globs)]
    if not out:
        raise UsageError(f"gate {gate.name!r}: its causal surface is empty, so a paths filter would never run it",
                         hint="set paths = [...] on the gate, or use --trigger every-pr")
    notes = tuple(f"git check-ignore refused {p}; it stays in the filter of {gate.name!r}" for p in check.unchecked)
    return FilterEntry(tuple(out), notes)


def _pattern(cfg: Config, index: GitIndex, path: str) -> str:
    """The filter pattern for a surface path."""
    if (sub := index.submodule_of(path.rstrip("/"))) is not None:
        # A pull request changes a submodule only as its gitlink: the diff
        # lists `src/zlib`, never `src/zlib/crc32.c`, so nothing inside it
        # (file or glob) can match.
        return sub
    if path.endswith("/"):
        return path + "**"
    if (cfg.root / path).is_dir():
        return path.rstrip("/") + "/**"
    return path


def _completed_paths(cfg: Config, gate: Gate, index: GitIndex, config: str | None) -> FilterEntry:
    """The gate's own ``paths``, plus what its causal surface needs and they miss
    (the manifests, the lockfile, the configuration file): the filter written must
    pass ``surface --check-filter``, which judges it against that same surface.
    Each addition is named in a note. Under ``predicate-quantifier = every`` one more
    pattern would narrow the filter instead of widening it: nothing is added, and
    the notes say what is left out."""
    from linkgate.surface.filtercheck import missed
    from linkgate.trigger.pathfilter import PathFilter, matches

    out = list(gate.paths)
    some = gate.predicate_quantifier == "some"
    notes: list[str] = []
    if config and not any(matches(p, config) for p in out):
        if some:
            out.append(config)
            notes.append(f"filter {gate.name!r}: added {config} to the gate's paths: it defines the gate "
                         "(cargo arguments, env, linkers)")
        else:
            notes.append(f"filter {gate.name!r}: left out {config}, which defines the gate: under "
                         "predicate-quantifier = every, one more pattern would narrow the filter")
    if not gate.is_cargo:  # a command gate has no surface linkgate can read
        return FilterEntry(tuple(out), tuple(notes))
    from linkgate.surface import static as staticscan

    surface = staticscan.static(cfg, gate)
    files: list[str] = []
    ignored: frozenset[str] = frozenset()
    if index.in_git:
        from linkgate import proc
        from linkgate.trigger.gitdiff import tracked_files

        prefix = proc.run(["git", "rev-parse", "--show-prefix"], cwd=cfg.root).stdout.strip()
        files = [f[len(prefix):] for f in tracked_files(cfg.root) if f.startswith(prefix)]
        plain = [p.path for p in surface.paths if not p.outside and "*" not in p.path]
        ignored = gitindex.ignored(cfg.root, plain, index).ignored
    for entry in missed(surface, PathFilter(out, gate.predicate_quantifier, gate.name), files, "", ignored):
        pattern = _pattern(cfg, index, entry.path)
        if not some:
            notes.append(f"filter {gate.name!r}: left out {pattern} ({entry.why}): under predicate-quantifier "
                         "= every, one more pattern would narrow the filter; `surface --check-filter` will "
                         "report it")
        elif pattern not in out:
            out.append(pattern)
            notes.append(f"filter {gate.name!r}: added {pattern} to the gate's paths ({entry.why})")
    return FilterEntry(tuple(out), tuple(notes))


def _config_pattern(cfg: Config) -> str | None:
    """The configuration file relative to the root; None when it lies outside."""
    try:
        rel = cfg.path.resolve().relative_to(cfg.root.resolve())
    except ValueError:
        return None
    return rel.as_posix()


def _block(indent: int, name: str, comment_lines: list[str], mapping: dict[str, object]) -> str:
    pad = " " * indent
    # Comment lines carry a gate's why, its cargo arguments and the history's
    # runner and branch names: escaped, so none can end its line early.
    head = pad + BEGIN.format(name) + "\n" + "".join(pad + yamlemit.comment(c) + "\n" for c in comment_lines)
    return head + job.dump(mapping, indent) + pad + END.format(name) + "\n"


def _read(path: Path, where: str) -> str | None:
    """The file's text exactly: its line ends, byte-order mark and final newline
    are the user's, and an edit gives them back unchanged."""
    try:
        data = repofs.read_bytes(path, inside=None)
    except FileNotFoundError:
        return None
    except RefusedFile as exc:  # a directory, FIFO or device, or past the size limit: refused before reading
        if exc.why == "directory":
            raise UsageError(f"{where} is a directory, not a workflow file",
                             hint="pass --workflow .github/workflows/NAME.yml") from None
        raise UsageError(f"{where}: cannot read it ({exc.reason})") from None
    except IsADirectoryError:
        raise UsageError(f"{where} is a directory, not a workflow file",
                         hint="pass --workflow .github/workflows/NAME.yml") from None
    except OSError as exc:
        raise UsageError(f"{where}: cannot read it ({exc.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(f"{where}:{line}: not UTF-8 (byte 0x{data[exc.start]:02X})",
                         hint="GitHub reads workflows as UTF-8: save the file as UTF-8") from None


def plan(cfg: Config, gate: Gate, facts: GateFacts, opts: Options) -> Plan:
    result = Plan()
    jid = job.job_id(gate)
    untrusted.check_gate(cfg, gate)
    _check_job_id(cfg, gate, jid)
    if opts.repository is not None:
        untrusted.check_repository(opts.repository, "--repository")
    if gate.self_hosted and not opts.repository:
        raise UsageError(f"gate {gate.name!r} runs on a self-hosted runner, and the repository is unknown",
                         hint="pass --repository owner/name (used for the fork guard)")
    index = gitindex.read(cfg.root)
    target = opts.workflow.parent / f"linkgate-{jid}.yml" if opts.trigger == "schedule" else opts.workflow
    untrusted.inside_repository(cfg.root, target, "the workflow")
    old = _read(target, _rel(cfg, target))
    created = old is None and opts.trigger != "schedule"
    if created:
        found = sorted(p.name for d in [opts.workflow.parent] if d.is_dir() for p in d.glob("*.y*ml"))
        if found:
            result.notes.append(f"{_rel(cfg, opts.workflow)} does not exist, so it is a new workflow; this "
                                f"repository has {', '.join(found)}: pass --workflow "
                                f"{_rel(cfg, opts.workflow.parent)}/{found[0]} to add the job there instead")
        else:
            result.notes.append(f"{_rel(cfg, opts.workflow)} does not exist: a new workflow for the gate")
    _check_after(cfg, target, None if created else old, opts.after)
    measured = comment.measured(facts, parallel=opts.matrix)
    timeout = facts.timeout_minutes(parallel=opts.matrix)
    if opts.keep_measured and old is not None:
        kept = comment.written_measured(WorkflowText(old, _rel(cfg, target)).region_comment(jid))
        if kept is not None and kept != (measured, timeout):
            measured, timeout = kept
            result.notes.append(f"the cost, coverage, controls and timeout-minutes written for {gate.name!r} differ "
                                "from this machine's history; compared as written (pass --history FILE to compare "
                                "them, --write to refresh them)")
    lines = comment.head(gate, opts.trigger, f"{opts.command} {gate.name}") + measured
    spec = job.JobSpec(gate=gate, trigger=opts.trigger, install=opts.install,
                        install_sha256=opts.install_sha256, setup_python=opts.setup_python,
                        repository=opts.repository,
                       timeout_minutes=timeout, submodules=index.checks_out_submodules,
                       lockfile_tracked=index.lockfile)
    if opts.trigger == "schedule":
        written = _jobs(spec, opts)
        text = _scheduled_workflow(gate, opts.cron or "", _block(2, jid, lines, written))
        if old is not None:
            wf = WorkflowText(old, _rel(cfg, target))
            wf.put_job(jid, _block(_indent(wf), jid, lines, written))
            text = wf.text
        _verify(text, old, _rel(cfg, target), written, None)
        result.edits[target] = (old, text)
        result.preview = text
    else:
        base = _new_workflow(cfg) if old is None else old
        wf = WorkflowText(base, _rel(cfg, opts.workflow))
        trailer = ""
        flt = None
        if opts.trigger == "paths":
            spec, trailer, flt = _apply_filter(cfg, gate, wf, spec, opts, index, result)
        written = _jobs(spec, opts)
        block = _block(_indent(wf), jid, lines, written)
        wf.put_job(jid, block, after=opts.after)
        _verify(wf.text, old, wf.where, written, flt)
        result.edits[opts.workflow] = (old, wf.text)
        result.preview = block + trailer
        if opts.trigger == "every-pr" and "pull_request" not in base:
            result.notes.append(f"{wf.where} has no pull_request trigger: --trigger every-pr relies on it")
    result.notes.extend(linker_steps(gate, matrix=opts.matrix).notes)
    labels = runners.custom_labels(gate.runner)
    if labels:
        path = cfg.root / ".github" / "actionlint.yaml"
        untrusted.inside_repository(cfg.root, path, "actionlint's configuration")
        old_cfg = _read(path, _rel(cfg, path))
        result.edits[path] = (old_cfg, runners.declare_labels(old_cfg, labels, _rel(cfg, path)))
    return result


def _check_after(cfg: Config, target: Path, old: str | None, after: str | None) -> None:
    """Refuse an --after naming no job in every mode, printing included: the
    insertion point is checked only when a job is inserted, so printing (or
    updating a job already written) would otherwise accept a typo silently."""
    if after is None:
        return
    if old is None:
        raise UsageError(f"--after {after}: {_rel(cfg, target)} is a new workflow, with no job to insert after",
                         hint="drop --after")
    jobs = [jid for jid, *_ in WorkflowText(old, _rel(cfg, target)).jobs()]
    if after not in jobs:
        raise UsageError(f"{_rel(cfg, target)}: no job {after!r} to insert after", hint="jobs: " + ", ".join(jobs))


def _check_job_id(cfg: Config, gate: Gate, jid: str) -> None:
    """Two gates whose names meet in one job id (``my.gate`` and ``my-gate``)
    would write one managed region, each --write replacing the other's job; GitHub
    reads job ids and output names without case, so ``A`` and ``a`` meet too."""
    for other in cfg.gates:
        if other.name != gate.name and job.job_id(other).lower() == jid.lower():
            raise ConfigError(f"gates {gate.name!r} and {other.name!r} would both be the job {jid!r} (a job id is "
                              "letters, digits, '_' and '-', starting with a letter or '_', and GitHub reads it "
                              "without case)",
                              file=str(cfg.path), line=other.line, key=f"gate.{other.name}.name",
                              hint="rename one of the two gates")


@dataclass(frozen=True)
class _FilterWritten:
    """What the paths filter must read back as: the entry and the job output of one gate."""
    job: str
    step: int
    name: str
    patterns: tuple[str, ...]
    output: str


def _jobs(spec: job.JobSpec, opts: Options) -> dict[str, object]:
    return dict(job.matrix_jobs(spec)) if opts.matrix else {job.job_id(spec.gate): job.gate_job(spec)}


def _apply_filter(cfg: Config, gate: Gate, wf: WorkflowText, spec: job.JobSpec, opts: Options,
                  index: GitIndex, result: Plan) -> tuple[job.JobSpec, str, _FilterWritten]:
    """Write the gate's filter entry and output line; return the spec and the
    preview of those edits, which the printed job alone would not show."""
    entry = filter_patterns(cfg, gate, index)
    result.notes.extend(entry.notes)
    patterns = list(entry.patterns)
    for pattern in patterns:
        untrusted.check_pattern(gate, pattern)
    found = wf.filter_step()
    created = found is None
    if found is None:
        block = job.changes_job(filter_entry(gate.name, patterns))
        changes = _block(_indent(wf), "changes", [
            "Which paths changed, as dorny/paths-filter sees them; written by linkgate for its link gates."],
            {"changes": block})
        jobs = wf.jobs()
        first = jobs[0][0] if jobs else None
        wf.put_job("changes", changes, after=first if opts.after is None else opts.after)
        found = wf.filter_step()
        assert found is not None
    filter_job, step = found
    had_id = wf.step_id(filter_job, step) is not None
    step_id = wf.ensure_step_id(filter_job, step)
    wf.put_filter(filter_job, step, gate.name, patterns)
    value = f"${{{{ {job.output_ref(f'steps.{step_id}.outputs', gate.name)} }}}}"
    wf.put_output(filter_job, gate.name, value)
    if created:
        region = wf.region("changes")
        assert region is not None
        preview = ("\n# and a new job `changes` (the workflow has no dorny/paths-filter step):\n"
                   + "".join(wf.lines[region[0]:region[1]]))
    else:
        preview = (f"\n# and in job `{filter_job}`, the dorny/paths-filter step's `filters: |` gets this entry"
                   + ("" if had_id else f" (and the step `id: {step_id}`)") + ":\n"
                   + filter_entry(gate.name, patterns)
                   + f"# and the job's `outputs:` this line:\n{yamlemit.key(gate.name)}: {value}\n")
    written = _FilterWritten(filter_job, step, gate.name, tuple(patterns), value)
    return job.JobSpec(**{**spec.__dict__, "filter_job": filter_job}), preview, written


def _indent(wf: WorkflowText) -> int:
    jobs = wf.jobs()
    return jobs[0][1] if jobs else 2  # a new workflow: two spaces, as GitHub's own templates


_READ_12_LIMIT = 64 * 1024


def _verify(text: str, old: str | None, where: str, written: dict[str, object], flt: _FilterWritten | None) -> None:
    """Read the edited workflow back as YAML 1.1 (PyYAML, libyaml) and as YAML 1.2
    (ruamel.yaml): each must find every job written, the filter entry and the
    output exactly as meant, or nothing is written. The 1.2 reading is skipped
    when it already refuses the user's own file (a duplicate key, say), and past
    _READ_12_LIMIT: ruamel.yaml reads pure Python, 12 s for a 550 KB workflow on
    this machine kind, while what 1.2 alone could read otherwise (a plain scalar's
    type) is settled already: each job was read back by both when dumped, and
    every scalar spliced in is one ``yamlemit`` made both read alike."""
    readers = [yamlemit.load_11]
    try:
        if len(text) <= _READ_12_LIMIT:
            if old is not None:
                yamlemit.load_12(old)
            readers.append(yamlemit.load_12)
    except ValueError:
        pass
    for read in readers:
        try:
            problem = _written_problem(read(text), written, flt)
        except ValueError as exc:
            problem = f"it does not parse ({str(exc).splitlines()[0] if str(exc) else exc})"
        if problem:
            raise UsageError(f"internal error: {where} as edited: {problem}",
                             hint="please report this; nothing was written")


def _written_problem(doc: object, written: dict[str, object], flt: _FilterWritten | None) -> str | None:
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, dict):
        return "it has no jobs"
    for jid, mapping in written.items():
        if jobs.get(jid) != yamlemit.plain(mapping):
            return f"the job {jid!r} does not read back as written"
    if flt is None:
        return None
    source = jobs.get(flt.job)
    outputs = source.get("outputs") if isinstance(source, dict) else None
    if not isinstance(source, dict) or not isinstance(outputs, dict) or outputs.get(flt.name) != flt.output:
        return f"the output {flt.name!r} of job {flt.job!r} does not read back as written"
    try:
        filters = source["steps"][flt.step]["with"]["filters"]
        entries = [yamlemit.load_11(filters)]
        if len(filters) <= _READ_12_LIMIT:  # as for the whole file, above
            entries.append(yamlemit.load_12(filters))
    except (KeyError, IndexError, TypeError, ValueError):
        return f"the paths filter of job {flt.job!r} does not read back"
    # paths-filter reads the block with js-yaml (YAML 1.2); both readings must agree.
    if any(not isinstance(e, dict) or e.get(flt.name) != list(flt.patterns) for e in entries):
        return f"the filter entry {flt.name!r} does not read back as written"
    return None


def _new_workflow(cfg: Config) -> str:
    """The workflow ``--write`` creates when the named one does not exist: pull requests,
    and pushes to the default branch (a push run guards it and feeds the history)."""
    branch = gitindex.default_branch(cfg.root)
    return (
        "# Link gates, written by `linkgate ci github`.\n"
        "name: linkgate\n"
        "on:\n"
        "  pull_request:\n"
        "  push:\n"
        f"    branches: [{yamlemit.quoted(branch)}]\n"
        "permissions: {}\n"
        "jobs:\n"
    )


def _scheduled_workflow(gate: Gate, cron: str, block: str) -> str:
    return (
        f"# The link gate {gate.name!r} on a schedule, written by `linkgate ci github --trigger schedule:...`.\n"
        f"name: {yamlemit.scalar(f'linkgate {gate.name}')}\n"
        "on:\n"
        "  schedule:\n"
        f"    - cron: {yamlemit.quoted(cron)}\n"
        "  workflow_dispatch:\n"
        "permissions: {}\n"
        "jobs:\n" + block
    )


def _rel(cfg: Config, path: Path) -> str:
    try:
        return os.path.relpath(path, cfg.root)
    except ValueError:
        return str(path)

"""`replay`: link the gate's last recorded links again, in linker time only.

A replay is only evidence when it links what the gate linked: every input the
recorded command names must be as it was (size and mtime), else we refuse and
name the input. The verdict and diagnostics come from the same classifier
``run`` uses, applied to the linker's own stderr (which is exactly what rustc
quotes in its link-failure notes).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from linkgate import proc
from linkgate.config import Config, Gate
from linkgate.errors import LinkgateError
from linkgate.gate import layout, measure, recording
from linkgate.gate.linkrecord import LINKS_DIR, LinkRecord, read_ids
from linkgate.gate.run import ERROR, LINK_FAILED, LINKED, GateResult, LinkedArtifact
from linkgate.replay import command
from linkgate.replay.copies import Unit, units_from


class ReplayRefused(LinkgateError):
    """No faithful replay is possible; the remedy is always a real run."""


@dataclass(frozen=True)
class RecordedLink:
    record: LinkRecord
    target: str
    kind: str


@dataclass(frozen=True)
class Recorded:
    gate: str
    linker: str
    tdir: Path
    links: tuple[RecordedLink, ...]
    build_scripts: tuple[tuple[str, str], ...]
    cwd: Path | None = None
    tree: dict[str, Any] | None = None              # recording.tree_state when recorded
    script_outputs: dict[str, Any] | None = None    # recording.script_outputs when recorded
    dirty_inputs: tuple[tuple[str, str], ...] = ()  # (path, why): what the recorded build read that no commit holds
    units: tuple[Unit, ...] | None = None           # which package each rlib and output is; None: older recording


@dataclass(frozen=True)
class Attempt:
    link: RecordedLink
    returncode: int
    stdout: str
    stderr: str
    output: str
    seconds: float
    args: tuple[str, ...] = ()  # the arguments linked (the recorded ones, or a sweep's variant)

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def stdout_lines(self) -> list[str]:
        """Everything the linker printed (``--trace-symbol`` goes to stdout)."""
        return (self.stdout + "\n" + self.stderr).splitlines()


def _again(gate: str, linker: str) -> str:
    return f"run the gate again: linkgate run {gate} --linker {linker}"


def _is_build_script(rec: LinkRecord) -> bool:
    name = os.path.basename(rec.output or "")
    return name.startswith(("build_script_", "build-script-"))


def load(config: Config, gate: Gate, linker: str) -> Recorded:
    """The gate's last run under *linker*, as replayable links; refuse otherwise."""
    if not gate.is_cargo:
        raise ReplayRefused(
            f"gate {gate.name!r} runs a command, not cargo: linkgate records only cargo gates' links",
            hint="use linkgate run",
        )
    tdir = layout.target_dir(config, gate, linker)
    state = recording.last_run(tdir)
    if state is None or state.get("gate") != gate.name:
        raise ReplayRefused(f"no recorded link for gate {gate.name!r} under {linker} in {tdir}",
                            hint=_again(gate.name, linker))
    targets = {ln.get("record"): ln.get("target") for ln in state.get("links", [])}
    kinds = {a.get("target"): a.get("kind", "?") for a in state.get("artifacts", [])}
    latest: dict[str, LinkRecord] = {}
    ids = [str(i) for i in state.get("records", [])]
    records = read_ids(tdir, ids)
    unread = sorted(set(ids) - {rec.path.stem for rec in records})
    if unread:
        # A replay of some of the run's links would judge less than the run linked.
        raise ReplayRefused(
            f"{len(unread)} of the {len(ids)} link records of the last run of {gate.name!r} under {linker} "
            f"cannot be read (missing, or not what the recording wrapper writes): "
            + ", ".join(str(tdir / LINKS_DIR / f"{i}.json") for i in unread[:3]),
            hint=_again(gate.name, linker),
        )
    for rec in records:
        # rustc retries without -fuse-ld=lld when cc rejects it: the last
        # attempt per output is the link that counted.
        if rec.output and not _is_build_script(rec):
            latest[rec.output] = rec
    links = tuple(
        RecordedLink(rec, str(targets.get(rec.id) or _target_from_output(rec.output or "")),
                     str(kinds.get(targets.get(rec.id), "?")))
        for rec in sorted(latest.values(), key=lambda r: r.started)
    )
    if not links:
        raise ReplayRefused(
            f"the last run of {gate.name!r} under {linker} linked nothing (every unit was fresh)",
            hint=_again(gate.name, linker),
        )
    scripts = tuple((str(b.get("package_id", "")), str(b.get("out_dir", ""))) for b in state.get("build_scripts", []))
    cwd = Path(state["cwd"]) if isinstance(state.get("cwd"), str) else None
    tree = state.get("tree") if isinstance(state.get("tree"), dict) else None
    outputs = state.get("script_outputs") if isinstance(state.get("script_outputs"), dict) else None
    dirty = tuple((str(d["path"]), str(d["why"])) for d in state.get("dirty_inputs") or ()
                  if isinstance(d, dict) and isinstance(d.get("path"), str) and isinstance(d.get("why"), str))
    return Recorded(gate.name, linker, tdir, links, scripts, cwd, tree, outputs, dirty, units_from(state.get("units")))


def _target_from_output(output: str) -> str:
    name = os.path.basename(output)
    return name.rsplit("-", 1)[0] if "-" in name else name


def require_same_tree(recorded: Recorded) -> None:
    """A recording is evidence about the tree it was made from, and no other:
    refuse when the checkout (HEAD, or any changed file) or a build script's
    recorded output differs from when it was made."""
    again = _again(recorded.gate, recorded.linker)
    if recorded.tree is None or recorded.cwd is None or recorded.script_outputs is None:
        raise ReplayRefused(
            f"the recording of {recorded.gate!r} under {recorded.linker} does not say which tree it was made "
            "from (not a git checkout, or made by an older linkgate), so it cannot vouch for this one",
            hint=again,
        )
    now = recording.tree_state(recorded.cwd)
    if now is None or now.get("key") != recorded.tree.get("key"):
        was, is_ = str(recorded.tree.get("commit", "?"))[:12], str((now or {}).get("commit", "?"))[:12]
        if was != is_:
            what = f"HEAD is {is_}, the recording was made at {was}"
        elif (now or {}).get("changed") == 0:
            what = "it was made with uncommitted changes, and the checkout is clean now"
        else:
            what = (f"files differ from the tree it was made from ({(now or {}).get('changed', '?')} changed or "
                    "untracked now)")
        raise ReplayRefused(
            f"cannot replay {recorded.gate!r} under {recorded.linker}: the checkout changed since the links were "
            f"recorded ({what}); a replay would judge the recorded tree, not this one", hint=again,
        )
    current = recording.script_outputs(list(recorded.build_scripts))
    changed = sorted(o for o, digest in current.items() if recorded.script_outputs.get(o) != digest)
    if changed:
        raise ReplayRefused(
            f"cannot replay {recorded.gate!r} under {recorded.linker}: a build script's output changed since the "
            f"links were recorded ({', '.join(changed[:3])})", hint=again,
        )


T = TypeVar("T")


def distinct_blocks(items: Sequence[T], stderrs: Sequence[str]) -> list[tuple[T, list[str]]]:
    """Each failed link's non-blank stderr lines, once per distinct text: the same
    error from several links of one build is told once."""
    out: list[tuple[T, list[str]]] = []
    seen: list[list[str]] = []
    for item, stderr in zip(items, stderrs):
        block = [ln for ln in stderr.splitlines() if ln.strip()]
        if block not in seen:
            seen.append(block)
            out.append((item, block))
    return out


def require_fresh(recorded: Recorded) -> None:
    """Refuse a replay that would not link what the gate links now: an input of the
    recorded links changed (named), or the tree the recording was made from did."""
    problems = [p for link in recorded.links for p in command.stale_inputs(link.record)]
    if problems:
        shown = sorted(set(problems))
        raise ReplayRefused(
            f"cannot replay {recorded.gate!r} under {recorded.linker}: an input changed since it was recorded: "
            + "; ".join(shown[:5]) + (f" (and {len(shown) - 5} more)" if len(shown) > 5 else ""),
            hint=_again(recorded.gate, recorded.linker),
        )
    from linkgate.gate import external

    # The archives rustc bundled into an rlib are not on the link line: the rlib looks
    # unchanged while the archive it copied was replaced (gate/external.py compares content).
    moved = external.changes(recorded.tdir)
    if moved:
        listed = "; ".join(f"{c.path} {c.why} (compared by content)" for c in moved[:5])
        raise ReplayRefused(
            f"cannot replay {recorded.gate!r} under {recorded.linker}: a static archive a build script links "
            f"changed since it was recorded: {listed}; the recorded links hold the old copy",
            hint=_again(recorded.gate, recorded.linker),
        )
    require_same_tree(recorded)


def attempt(
    link: RecordedLink, scratch: Path, *, args: Sequence[str] | None = None, extra: Sequence[str] = (), tag: str = ""
) -> Attempt:
    out = scratch / f"{os.path.basename(link.record.output or 'out')}{tag}"
    cmd = command.build(link.record, str(out), args=args, scratch=scratch, extra=extra)
    t0 = time.monotonic()
    done = proc.run(cmd.argv, cwd=cmd.cwd, env=cmd.env, check=False)
    used = tuple(args) if args is not None else tuple(link.record.args)
    return Attempt(link, done.returncode, done.stdout, done.stderr, str(out), time.monotonic() - t0, used)


def attempt_all(links: Sequence[RecordedLink], scratch: Path, extras: Sequence[Sequence[str]]) -> list[Attempt]:
    """Each link with its extra arguments, side by side (their outputs are apart: one
    directory per link), as cargo runs a package's links; in the order given."""
    plans = []
    for i, (link, extra) in enumerate(zip(links, extras)):
        own = scratch / str(i)
        own.mkdir()
        out = own / os.path.basename(link.record.output or "out")
        plans.append((link, out, command.build(link.record, str(out), scratch=own, extra=extra)))
    done = proc.run_many([proc.Job(tuple(cmd.argv), cmd.cwd, cmd.env) for _, _, cmd in plans])
    return [Attempt(link, c.returncode, c.stdout, c.stderr, str(out), seconds, tuple(link.record.args))
            for (link, out, _), (c, _began, seconds) in zip(plans, done)]


def diagnostics(lines: list[str], recorded: Recorded, failed: Attempt | None = None) -> list[Any]:
    """Classified as ``run`` classifies; *failed*'s command line tells which archives stood in which order."""
    from linkgate import diagnose
    from linkgate.cargo.buildscript import read_build_script_output

    diags = diagnose.classify(
        lines,
        command_line=list(failed.args) if failed else None,
        cwd=Path(failed.link.record.cwd) if failed else None,
    )
    outputs = [read_build_script_output(Path(o), p) for p, o in recorded.build_scripts if o]
    return diagnose.attach_recipe(diags, [o for o in outputs if o is not None]) if diags else diags


def result_of(recorded: Recorded, attempts: Sequence[Attempt], started: float) -> GateResult:
    """A ``linkgate.run/1`` result for these attempts, judged as ``run`` judges."""
    first = attempts[0].link.record if attempts else None
    res = GateResult(
        gate=recorded.gate, linker=recorded.linker, verdict=ERROR, target_dir=str(recorded.tdir),
        argv=list(first.argv) if first else [], replayed=True,
    )
    res.build_scripts = list(recorded.build_scripts)
    # The outputs lived in a temporary directory that is gone by the time anyone
    # reads the report: no path is given rather than one that leads nowhere.
    res.links = [
        {"output": None, "target": a.link.target, "seconds": round(a.seconds, 6),
         "exit_status": a.returncode, "record": a.link.record.id}
        for a in attempts
    ]
    failed = [a for a in attempts if not a.ok]
    res.linked = [LinkedArtifact(a.link.target, a.link.kind, "", a.link.kind == "test") for a in attempts if a.ok]
    if failed:
        res.verdict = LINK_FAILED
        res.failed_targets = sorted({f"{a.link.target} ({a.link.kind})" for a in failed})
        lines = [ln for _, block in distinct_blocks(failed, [a.stderr for a in failed]) for ln in block]
        res.linker_lines = lines
        res.diagnostics = diagnostics(lines, recorded, failed[0])
    else:
        res.verdict = LINKED
        res.proven = True
    res.messages.append(
        f"replayed {len(attempts)} recorded link(s) without cargo; their outputs were deleted with the temporary "
        "directory they were written to"
    )
    res.duration_s = time.monotonic() - started
    return res


def archive_order(attempts: Sequence[Attempt]) -> tuple[list[Any], list[str]]:
    """lld's archive-order reports on the attempts that linked (see ``backrefs_flag``)."""
    found: list[Any] = []
    ids: list[str] = []
    for a in attempts:
        if not a.ok or "backward reference" not in a.stderr:
            continue
        from linkgate import diagnose  # only now: a clean replay classifies nothing
        for d in diagnose.classify(a.stderr.splitlines(), command_line=list(a.args), cwd=Path(a.link.record.cwd)):
            if d.kind == "archive-order":
                ids.append(a.link.record.id)
                if all(d.archives != f.archives for f in found):
                    found.append(d)
    return found, ids


def replayed_context(config: Config, recorded: Recorded) -> measure.RunContext:
    """Where a replay ran, on the tree the recording was made from (require_same_tree held):
    dirty for the same inputs the recorded build read (gate/dirtyinputs.py)."""
    from dataclasses import replace

    from linkgate.gate.dirtyinputs import DirtyInput

    ctx = measure.context(config.root)
    if not recorded.dirty_inputs or ctx.dirty is None:
        return ctx
    return replace(ctx, dirty=True, dirty_inputs=tuple(DirtyInput(p, w) for p, w in recorded.dirty_inputs))


def replay_gate(config: Config, gate: Gate, linker: str) -> GateResult:
    from linkgate.gate import proof
    from linkgate.gate.run import (
        add_mixed_linkage, failed_under_another_linker, judge_archive_order, leg_overrides, leg_suspects, mark_overridden,
    )

    from linkgate.gate import linkers

    started = time.monotonic()
    linkers.require(linker, {**os.environ, **gate.env})  # linker-missing, not a failed replay
    recorded = load(config, gate, linker)
    require_fresh(recorded)
    with tempfile.TemporaryDirectory(prefix="linkgate-replay-") as tmp:
        # The wrapper added --warn-backrefs to lld links; a replay does the same.
        attempts = attempt_all(recorded.links, Path(tmp), [
            recording.backrefs_flag(link.record.args, link.record.linker_program) for link in recorded.links])
        result = result_of(recorded, attempts, started)
        result.context = replayed_context(config, recorded)
        if result.verdict == LINKED:
            judge_archive_order(result, gate, *archive_order(attempts))
        if result.verdict == LINKED:
            add_mixed_linkage(result, recording.mixed_linkage_of(
                [(a.args, a.link.record.cwd, a.link.record.output) for a in attempts], list(recorded.build_scripts)))
        overridden = leg_overrides(config, gate, linker, recorded.build_scripts)
        if overridden and result.verdict in (LINKED, LINK_FAILED):
            mark_overridden(result, linker, overridden)
        elif result.verdict == LINKED:
            # Proven as run proves (gate/proof.py), while the replayed files still exist.
            for a in attempts:
                checked = proof.check(a.output, linker, None)
                result.proof.append({**checked.to_dict(), "path": a.link.record.output or a.output,
                                     "replayed_to": a.output})
                if checked.problem is not None:
                    result.verdict, result.proven = ERROR, False
                    result.messages.insert(0, f"the replayed {a.link.target} {checked.problem}; not proven")
            suspects = leg_suspects(config, gate)
            if result.verdict == ERROR and suspects:
                result.verdict = LINKED
                mark_overridden(result, linker, suspects)
        failed_under_another_linker(result, linker, leg_suspects(config, gate))
        return result

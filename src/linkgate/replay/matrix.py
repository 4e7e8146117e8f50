"""Compile once, link under every linker (gate key ``linker-matrix = "replay"``).

Cargo hashes the linker into every unit's fingerprint, so a full build per
linker compiles everything once per linker, while only the links differ. In
replay mode the gate builds under its first linker, in that linker's target
directory, with every link recorded (gate/wrapper.py). Each other linker then
runs those recorded link commands itself, with the driver flags rustc would
have passed for it (gate/linkers.py ``retarget``), over the same objects and
archives, writing into ``<its own target dir>/linkgate-matrix/``. Its verdict,
diagnostics, proof (the file exists, is new, its ELF marks name that linker),
NEEDED list and link times come from those real links.

A linker falls back to a full build in its own target directory, and its
result says why (``matrix.fallback``), when:
- the first linker's build did not end in a link verdict (it failed to compile
  or errored), or stopped at a link failure whose recorded links all pass under
  this linker (cargo never linked the rest; not when archive-order = "fail" made
  the failure of links that all passed);
- the recording is refused (an input changed since it was recorded, a kept copy
  vanished) or does not show where rustc's sysroot is;
- a build script's output may depend on the linker: its own source names
  ``RUSTFLAGS``, ``CARGO_ENCODED_RUSTFLAGS``, ``RUSTC_LINKER``, ``-fuse-ld`` or
  ``linker-features``, or cargo recorded a ``rerun-if-env-changed`` on a variable
  naming a linker (``RUSTC_LINKER``, ``CARGO_TARGET_<TRIPLE>_LINKER``, ...).
  linkgate selects linkers through ``CARGO_ENCODED_RUSTFLAGS``, so such a script
  could print other directives under another linker. (A helper crate such as
  ``cc`` that only watches ``CARGO_ENCODED_RUSTFLAGS`` for code-generation flags
  does not count: the linker flags are not among those it reads.);
- LTO through the linker: ``-Clinker-plugin-lto`` in the flags, or ``-flto`` /
  ``-plugin`` on the recorded link line (the inputs are then bitcode that only
  the matching linker plugin reads).
Build-script executables are host tools and are not relinked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import proc, repofs, statedir
from linkgate.config import Config, Gate
from linkgate.gate import layout, linkers, measure, recording
from linkgate.gate.linkrecord import LINKS_DIR
from linkgate.gate.run import (
    COMPILE_FAILED, ERROR, LINK_FAILED, LINKED, GateResult, LinkedArtifact, add_mixed_linkage, diagnostics_for,
    failed_under_another_linker, judge_archive_order, leg_overrides, leg_suspects, mark_overridden, prove_links,
    rust_callers,
    run_gate,
)
from linkgate.replay import command
from linkgate.replay.run import Attempt, Recorded, RecordedLink, ReplayRefused, archive_order, distinct_blocks, load, \
    require_fresh

MATRIX_DIR = "linkgate-matrix"
Phase = Callable[[str], None]
Progress = Callable[[str, Any], None]

_NAMES_LINKER_IN_SOURCE = re.compile(
    r'"(?:CARGO_ENCODED_RUSTFLAGS|RUSTFLAGS|RUSTC_LINKER|CARGO_TARGET_\w*_LINKER)"|fuse-ld|linker-features'
)
_LTO_ARGS = ("-flto", "-plugin", "--plugin", "-Wl,-plugin", "-Wl,--plugin")


@dataclass(frozen=True)
class Fallback:
    linker: str
    reason: str


def matrix_info(mode: str, built_with: str, replayed: bool, fallback: str | None) -> dict[str, Any]:
    return {"mode": mode, "built_with": built_with, "replayed": replayed, "fallback": fallback}


def run_linkers(
    config: Config,
    gate: Gate,
    selected: Sequence[str],
    *,
    force_link: bool = True,
    phase: Phase = lambda _: None,
    progress: Progress | None = None,
) -> list[GateResult]:
    """The gate's result under each of *selected* linkers, in order."""
    if gate.linker_matrix == "rebuild" or not gate.is_cargo or len(selected) < 2:
        out = []
        for ln in selected:
            phase(f"{gate.name} [{ln}]: building")
            res = run_gate(config, gate, ln, force_link=force_link, progress=progress)
            if len(selected) > 1:
                res.matrix = matrix_info(gate.linker_matrix, ln, False, None)
            out.append(res)
        return out
    first_linker = selected[0]
    phase(f"{gate.name} [{first_linker}]: building (its links are replayed under {', '.join(selected[1:])})")
    first = run_gate(config, gate, first_linker, force_link=force_link, progress=progress)
    first.matrix = matrix_info("replay", first_linker, False, None)
    results = [first]
    if first.verdict == COMPILE_FAILED:
        # Rust sources do not compile whatever the linker: building them again under each
        # other linker would repeat the same errors N times before the user sees them.
        for ln in selected[1:]:
            res = GateResult(gate=gate.name, linker=ln, verdict=COMPILE_FAILED,
                             target_dir=str(layout.target_dir(config, gate, ln)), argv=list(first.argv))
            why = (f"not built under {ln}: the build under {first_linker} failed to compile (its errors follow); "
                   f"fix them, or run `linkgate run {gate.name} --linker {ln}` to build {ln} alone")
            res.messages += [why, *first.messages]
            res.matrix = matrix_info("replay", first_linker, False, why)
            results.append(res)
        return results
    for ln in selected[1:]:
        phase(f"{gate.name} [{ln}]: relinking {first_linker}'s recorded links")
        relinked = relink(config, gate, first, ln)
        if isinstance(relinked, Fallback):
            phase(f"{gate.name} [{ln}]: building ({relinked.reason.splitlines()[0]})")
            relinked = rebuild(config, gate, ln, relinked.reason, first_linker, force_link=force_link,
                               progress=progress)
        results.append(relinked)
    return results


def rebuild(
    config: Config, gate: Gate, linker: str, reason: str, built_with: str,
    *, force_link: bool = True, progress: Progress | None = None,
) -> GateResult:
    """Today's full build in *linker*'s own target directory, saying why."""
    res = run_gate(config, gate, linker, force_link=force_link, progress=progress)
    res.matrix = matrix_info("replay", built_with, False, reason)
    res.warnings.append(f"linker-matrix: built in its own target directory instead of relinking "
                        f"{built_with}'s links, because {reason}")
    return res


def relink(config: Config, gate: Gate, first: GateResult, linker: str) -> GateResult | Fallback:
    """*linker*'s result from *first*'s recorded links, or why it needs a full build.
    A leg another setting overrides (gate/overrides.py) ends as a full build of it would:
    ``linker-overridden``, naming the setting, with nothing relinked."""
    built = first.linker
    linkers.require(linker, {**os.environ, **gate.env})  # linker-missing, not a failed relink
    overridden = leg_overrides(config, gate, linker, first.build_scripts)
    if overridden:
        res = GateResult(gate=gate.name, linker=linker, verdict=first.links_verdict,
                         target_dir=str(layout.target_dir(config, gate, linker)), argv=list(first.argv))
        res.context, res.recipes, res.directives_digest = first.context, first.recipes, first.directives_digest
        mark_overridden(res, linker, overridden)
        res.matrix = matrix_info("replay", built, False, None)
        return res
    if first.links_verdict not in (LINKED, LINK_FAILED):
        return Fallback(linker, f"the build under {built} ended in {first.verdict}, so it recorded no link to replay")
    why = linker_dependent_script(first.build_scripts)
    if why:
        return Fallback(linker, why)
    lto = _lto_flags(gate)
    if lto:
        return Fallback(linker, lto)
    # Runs of one target directory take turns (layout.target_lock): hold the first
    # linker's, whose recording is read, and this linker's, which is written; always
    # in the gate's linker order, so two runs never wait on each other.
    with layout.target_lock(layout.target_dir(config, gate, built)), \
            layout.target_lock(layout.target_dir(config, gate, linker)):
        return _relink(config, gate, first, linker)


def _relink(config: Config, gate: Gate, first: GateResult, linker: str) -> GateResult | Fallback:
    built = first.linker
    try:
        if first.linked or first.links_verdict == LINK_FAILED:
            recorded = load(config, gate, built)
            # Recorded by this very run, from this tree: only its inputs can have moved since.
            stale = sorted({p for link in recorded.links for p in command.stale_inputs(link.record)})
            if stale:
                raise ReplayRefused(f"an input changed since it was recorded: {'; '.join(stale[:5])}")
        else:
            # Nothing linked under the first linker (--no-force-link, all fresh):
            # replay this linker's own last relinks, if their inputs and the tree are unchanged.
            recorded = load(config, gate, linker)
            require_fresh(recorded)
    except ReplayRefused as exc:
        return Fallback(linker, "the recording was refused: " + exc.message)
    lto = _lto_args(recorded)
    if lto:
        return Fallback(linker, lto)
    started = time.time()
    t0 = time.monotonic()
    tdir = layout.target_dir(config, gate, linker)
    out_dir = tdir / MATRIX_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    plans = []
    for link in recorded.links:
        args = linkers.retarget(link.record.args, linker)
        if args is None:
            return Fallback(linker, f"the recorded link of {link.target} names no rustc sysroot (-L "
                                    "<sysroot>/lib/rustlib/<triple>/lib), so rust-lld cannot be selected")
        plans.append((link, args))
    attempts = _run_all(plans, out_dir)
    res = _result(gate, recorded, linker, tdir, attempts, started, t0, first.failed_targets, first.cold,
                  suspects=leg_suspects(config, gate))
    res.matrix = matrix_info("replay", built, True, None)
    # The same tree and build as the first linker's: its commit, branch and dirt, its recipes.
    res.context, res.recipes, res.directives_digest = first.context, first.recipes, first.directives_digest
    if first.links_verdict == LINK_FAILED and not first.archive_order_failed and res.verdict == LINKED:
        return Fallback(linker, f"the build under {built} stopped at a link failure, so cargo never linked "
                                f"the rest; every recorded link passed under {linker}, which says nothing of the others")
    _save(recorded, linker, tdir, attempts)
    if res.verdict == LINKED:
        # Judged on the relinks' own lines, as run_gate judges cargo's.
        add_mixed_linkage(res, recording.mixed_linkage(tdir, started, recorded.build_scripts))
    return res


@dataclass(frozen=True)
class _Attempt:
    link: RecordedLink
    args: tuple[str, ...]
    returncode: int
    stderr: str
    output: str
    started: float
    seconds: float
    added: tuple[str, ...] = ()

    def as_replay(self) -> Attempt:
        return Attempt(self.link, self.returncode, "", self.stderr, self.output, self.seconds, self.args)


def _run_all(plans: Sequence[tuple[RecordedLink, list[str]]], out_dir: Path) -> list[_Attempt]:
    built = []
    for link, args in plans:
        out = out_dir / os.path.basename(link.record.output or "out")
        rec = link.record
        # The wrapper adds --warn-backrefs to an lld link (archive order); so does a relink.
        extra = recording.backrefs_flag(args, rec.linker_program or (rec.argv[0] if rec.argv else "cc"))
        cmd = command.build(rec, str(out), args=command.substitute(args, rec.preserved, rec.cwd), scratch=out_dir,
                            extra=extra)
        built.append((link, args, out, extra, cmd))
    # Cargo links independent units at once; so do we, on as many cores.
    done = proc.run_many([proc.Job(tuple(cmd.argv), cmd.cwd, cmd.env) for *_, cmd in built])
    return [_Attempt(link, tuple(args), c.returncode, c.stderr, str(out), began, seconds, tuple(extra))
            for (link, args, out, extra, _), (c, began, seconds) in zip(built, done)]


def _named(link: RecordedLink, failed_before: Sequence[str]) -> str:
    """"target (kind)"; cargo reports no artifact for a failed link, so a kind the
    recording lacks is taken from the first linker's failed targets."""
    if link.kind == "?":
        known = next((f for f in failed_before if f.startswith(link.target + " (")), None)
        if known:
            return known
    return f"{link.target} ({link.kind})"


def _result(
    gate: Gate, recorded: Recorded, linker: str, tdir: Path, attempts: Sequence[_Attempt], started: float, t0: float,
    failed_before: Sequence[str] = (), first_cold: bool | None = None, *, suspects: Sequence[Any] = (),
) -> GateResult:
    first = attempts[0].link.record if attempts else None
    res = GateResult(gate=recorded.gate, linker=linker, verdict=ERROR, target_dir=str(tdir),
                     argv=list(first.argv[:1]) + list(attempts[0].args) if first else [], replayed=True)
    # The state the gate's run started from (a cold run relinks once the first
    # linker has compiled): cost and the CI comment count it as that run's.
    res.started_at, res.cold = started, first_cold
    res.build_scripts = list(recorded.build_scripts)
    res.links = [{"output": a.output, "target": a.link.target, "seconds": round(a.seconds, 6),
                  "exit_status": a.returncode, "started": a.started, "record": a.link.record.id} for a in attempts]
    failed = [a for a in attempts if a.returncode != 0]
    res.linked = [LinkedArtifact(a.link.target, a.link.kind, a.output, a.link.kind == "test")
                  for a in attempts if a.returncode == 0]
    if failed:
        res.verdict = LINK_FAILED
        res.failed_targets = sorted({_named(a.link, failed_before) for a in failed})
        lines: list[str] = []
        classified: list[str] = []
        for a, block in distinct_blocks(failed, [a.stderr for a in failed]):
            lines.extend(block)
            # What rustc says first when a link fails (cargo's path classifies it too).
            classified.extend([f"linking with `{os.path.basename(a.link.record.argv[0])}` failed: "
                               f"exit status: {a.returncode}", *block])
        res.linker_lines = lines
        res.diagnostics = diagnostics_for(classified, recorded.build_scripts, failed[0].args, failed[0].link.record.cwd)
        # No line table in a release link: the call is read from the sources rustc compiled there.
        res.diagnostics = rust_callers(res.diagnostics, [Path(failed[0].link.record.cwd)])
        failed_under_another_linker(res, linker, suspects)
    else:
        res.verdict, res.proven = LINKED, True
        judge_archive_order(res, gate, *archive_order([a.as_replay() for a in attempts]))
        if res.verdict == LINKED:
            prove_links(res, linker, since=started, suspects=suspects)
    res.messages.append(f"relinked {len(attempts)} recorded link(s) of the {recorded.linker} build under {linker} "
                        f"(same objects and archives, no cargo build) into {tdir / MATRIX_DIR}")
    res.duration_s = time.monotonic() - t0
    res.link_s = measure.link_seconds(res.links, started, started + res.duration_s)
    res.directives_digest = measure.directives_digest(res.build_scripts, str(recorded.tdir))
    return res


def _save(recorded: Recorded, linker: str, tdir: Path, attempts: Sequence[_Attempt]) -> None:
    """Write the relinks as *linker*'s own recording, so ``replay``, ``sweep`` and
    ``prove`` under *linker* read them like a cargo run's. The copies of inputs
    rustc deleted are copied too: the first linker's next run drops its own.

    The copies are made before the earlier runs' kept inputs are dropped: a run
    that linked nothing under the first linker relinks *linker*'s own last
    relinks, whose kept inputs are among those."""
    folder = tdir / LINKS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    ids: list[tuple[str, _Attempt]] = []
    for a in attempts:
        rec = a.link.record
        rid = f"{int(a.started * 1e6):016d}-m{os.getpid()}-{len(ids)}"
        kept_dir = folder / f"{rid}.inputs"
        preserved: dict[str, str] = {}
        for orig, kept in rec.preserved.items():
            kept_dir.mkdir(exist_ok=True)
            copy = kept_dir / f"{len(preserved)}-{os.path.basename(kept)}"
            shutil.copy2(kept, copy)
            preserved[orig] = str(copy)
        doc = {
            "argv": [rec.argv[0] if rec.argv else "cc", *a.args], "args_expanded": list(a.args), "cwd": rec.cwd,
            "env": rec.env, "started": a.started, "ended": a.started + a.seconds,
            "exit_status": a.returncode, "output": a.output, "id": rid, "linker_program": rec.linker_program,
            "preserved": preserved, "inputs": list(rec.inputs), "gate": recorded.gate, "linker": linker,
            "added_args": list(a.added), "stderr": a.stderr,
            "relinked_from": {"linker": recorded.linker, "record": rec.id},
        }
        statedir.replace_with(folder / f"{rid}.json", json.dumps(doc, indent=1) + "\n")
        ids.append((rid, a))
    recording.begin(tdir, keep={f"{rid}.inputs" for rid, _ in ids})
    state = {
        "gate": recorded.gate, "linker": linker, "ended": time.time(),
        "started": min((a.started for a in attempts), default=time.time()),
        "verdict": LINKED if all(a.returncode == 0 for a in attempts) else LINK_FAILED,
        "cwd": attempts[0].link.record.cwd if attempts else "", "records": [rid for rid, _ in ids],
        "links": [{"record": rid, "target": a.link.target, "output": a.output, "seconds": round(a.seconds, 6),
                   "exit_status": a.returncode} for rid, a in ids],
        "artifacts": [{"target": a.link.target, "kind": a.link.kind, "path": a.output} for _, a in ids],
        "build_scripts": [{"package_id": p, "out_dir": o} for p, o in recorded.build_scripts],
        **({"units": [u.to_dict() for u in recorded.units]} if recorded.units is not None else {}),
        "relinked_from": recorded.linker,
        # The tree the first linker's recording vouches for is the tree these relinks linked.
        "tree": recorded.tree, "script_outputs": recorded.script_outputs,
    }
    if recorded.cwd is not None:
        state["cwd"] = str(recorded.cwd)
    statedir.replace_with(folder / recording.LAST_RUN, json.dumps(state, indent=1) + "\n")


def linker_dependent_script(build_scripts: Sequence[tuple[str, str]]) -> str | None:
    """Why a build script's output may depend on the linker (see the module's rule), or None."""
    from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id
    from linkgate.cargo.fingerprint import read_run_record
    from linkgate.cargo.messages import package_name

    for package_id, out_dir in build_scripts:
        name = package_name(package_id)
        if out_dir:
            build_dir = Path(out_dir).parent  # <profile>/build/<pkg>-<hash>
            fp = build_dir.parent.parent / ".fingerprint" / build_dir.name / "run-build-script-build-script-build.json"
            record = read_run_record(fp, build_dir.parents[2]) if fp.is_file() else None
            for var in record.env_vars if record else ():
                if "LINKER" in var.upper():
                    return (f"the build script of {name} watches {var} (rerun-if-env-changed), so its output "
                            "may depend on the linker")
        manifest_dir = manifest_dir_from_package_id(package_id)
        script = build_script_source(manifest_dir) if manifest_dir else None
        try:
            text = repofs.read_text(script, inside=None, errors="replace") if script else ""
        except OSError:
            text = ""
        m = _NAMES_LINKER_IN_SOURCE.search(text)
        if m:
            line = text.count("\n", 0, m.start()) + 1
            return (f"the build script of {name} ({script}:{line}) reads {m.group(0).strip(chr(34))}, which "
                    "differs between linkers, so its output may depend on the linker")
    return None


def _flags(gate: Gate) -> list[str]:
    env = {**os.environ, **gate.env}
    encoded = env.get("CARGO_ENCODED_RUSTFLAGS")
    return [f for f in encoded.split("\x1f") if f] if encoded is not None else env.get("RUSTFLAGS", "").split()


def _lto_flags(gate: Gate) -> str | None:
    for flag in _flags(gate):
        if "linker-plugin-lto" in flag:
            return f"the gate's rustflags use {flag}: the objects are LLVM bitcode only a matching linker plugin reads"
    return None


def _lto_args(recorded: Recorded) -> str | None:
    for link in recorded.links:
        for arg in link.record.args:
            if arg.startswith(_LTO_ARGS):
                return (f"the recorded link of {link.target} passes {arg} (LTO in the linker): "
                        "its inputs are bitcode a different linker may not read")
    return None

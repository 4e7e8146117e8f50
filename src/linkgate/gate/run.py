"""Run one gate under one linker and reach a verdict that never overstates.

A verdict of ``linked`` requires that the linker ran in this invocation for
the listed artifacts. When cargo finds everything fresh (a warm target dir can
finish in 0.14 s having linked nothing), we delete the cheapest linked
executable from ``deps/`` and build again: cargo then relinks only that unit
(FACTS.md, "What rebuilds on a warm tree").
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate import proc
from linkgate.gate import layout
from linkgate.gate import linkers
from linkgate.gate import measure
from linkgate.gate import recording
from linkgate.cargo import relink
from linkgate.cargo.messages import Artifact, BuildLog
from linkgate.cargo.subcommand import judge
from linkgate.config import Config, Gate
from linkgate.errors import LinkerMissing, LinkgateError, UnsafeState

LINKED = "linked"
LINK_FAILED = "link-failed"
COMPILE_FAILED = "compile-failed"
ERROR = "error"
# Something other than linkgate selects this leg's linker (gate/overrides.py): no verdict about it.
LINKER_OVERRIDDEN = "linker-overridden"

Progress = Callable[[str, "BuildLog | None"], None]


@dataclass(frozen=True)
class LinkedArtifact:
    """An executable or library a gate's build linked."""

    target: str
    kind: str
    path: str
    test: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "kind": self.kind, "path": self.path, "test": self.test}


@dataclass
class GateResult:
    """The verdict of one (gate, linker) pair and its evidence: what linked, what failed, and why."""

    gate: str
    linker: str
    verdict: str
    target_dir: str
    argv: list[str]
    forced_relink: bool = False
    proven: bool = False
    linked: list[LinkedArtifact] = field(default_factory=list)
    up_to_date: list[LinkedArtifact] = field(default_factory=list)
    failed_targets: list[str] = field(default_factory=list)
    linker_lines: list[str] = field(default_factory=list)
    diagnostics: list[Any] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    units_compiled: int = 0
    duration_s: float = 0.0
    links: list[dict[str, Any]] = field(default_factory=list)  # per-link times from the wrapper
    replayed: bool = False
    # linker-matrix (replay/matrix.py): {"mode", "built_with", "replayed", "fallback"}; None outside a matrix.
    matrix: dict[str, Any] | None = None
    # Per linked file: {"path", "new", "names_linker", "mark", "marks", "needed"} (gate/proof.py).
    proof: list[dict[str, Any]] = field(default_factory=list)
    # What selects another linker than this leg's (gate/overrides.py): {"source", "setting", "selects"}.
    overrides: list[dict[str, str]] = field(default_factory=list)
    # How this leg's files differ from the first linker's (divergence/compare.py), filled
    # in once every leg has run; None: not compared (one linker, or comparison off).
    divergence: list[Any] | None = None
    # The verdict the links reached before an override voided it (the recording is still
    # the tree's, for the other linkers' relinks); not part of the report.
    link_verdict: str | None = field(default=None, repr=False)
    # (package_id, out_dir) of the build scripts cargo reported: replay and
    # sweep read their directives; not part of the report.
    build_scripts: list[tuple[str, str]] = field(default_factory=list, repr=False)
    # Every unit cargo reported, as replay.copies.Unit dicts: which package each rlib
    # and each linked file belongs to (the copy of a -l a package put on a line).
    units: list[dict[str, Any]] = field(default_factory=list, repr=False)
    # Recorded in history and in the JSON document (gate/measure.py).
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    started_at: float = field(default_factory=time.time)  # the wrapper's link records use this clock
    cold: bool | None = None
    units_fresh: int = 0
    link_s: float | None = None          # None: no wrapper recorded this run's links
    directives_digest: str | None = None
    recipes: tuple[str, ...] = ()
    # Recipes whose branch's directives the build printed, but another branch prints them
    # too and no recorded value decides (coverage/printed.py): never counted as active.
    recipes_indistinct: tuple[str, ...] = ()
    context: measure.RunContext | None = None
    # Every link passed; archive-order = "fail" made it a failure (cargo did not stop at it).
    archive_order_failed: bool = field(default=False, repr=False)
    # The units of the last build judged (cargo's messages): their dep-info says what it read.
    seen_artifacts: list[Any] = field(default_factory=list, repr=False)

    @property
    def compile_s(self) -> float | None:
        return None if self.link_s is None else max(0.0, self.duration_s - self.link_s)

    @property
    def ok(self) -> bool:
        return self.verdict == LINKED

    @property
    def links_verdict(self) -> str:
        """What the links themselves reached, an override aside."""
        return self.link_verdict if self.verdict == LINKER_OVERRIDDEN and self.link_verdict else self.verdict

    def to_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate,
            "linker": self.linker,
            "verdict": self.verdict,
            "forced_relink": self.forced_relink,
            "proven": self.proven,
            "linked": [a.to_dict() for a in self.linked],
            "up_to_date": [a.to_dict() for a in self.up_to_date],
            "failed_targets": self.failed_targets,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "linker_output": self.linker_lines,
            "messages": self.messages,
            "warnings": self.warnings,
            "units_compiled": self.units_compiled,
            "target_dir": self.target_dir,
            "command": self.argv,
            "duration_s": round(self.duration_s, 3),
            "links": self.links,
            "replayed": self.replayed,
            **({"matrix": self.matrix} if self.matrix is not None else {}),
            **({"proof": self.proof} if self.proof else {}),
            **({"overrides": self.overrides} if self.overrides else {}),
            **({"divergence": [d.to_dict() for d in self.divergence]} if self.divergence is not None else {}),
            **self._measured(),
        }

    def _measured(self) -> dict[str, Any]:
        ctx = self.context or measure.RunContext(None, None, None, None)
        return {
            "run_id": self.run_id, "started_at": measure.iso(self.started_at),
            "runner": ctx.runner, "host": ctx.host, "commit": ctx.commit, "branch": ctx.branch, "dirty": ctx.dirty,
            "dirty_inputs": [d.to_dict() for d in ctx.dirty_inputs],
            "cold": self.cold, "units_fresh": self.units_fresh,
            "link_s": None if self.link_s is None else round(self.link_s, 4),
            "compile_s": None if self.compile_s is None else round(self.compile_s, 4),
            "recipes": list(self.recipes), "recipes_indistinct": list(self.recipes_indistinct),
            "directives_digest": self.directives_digest,
        }


def require_linkers(legs: Iterable[tuple[Gate, str]]) -> None:
    """``linker-missing`` (errors.LinkerMissing) before anything builds, when a leg's linker is not installed."""
    linkers.require_all(({**os.environ, **gate.env}, ln) for gate, ln in legs)


def cargo_argv(gate: Gate) -> list[str]:
    """Insert the JSON message format right after the subcommand (before any ``--``)."""
    assert gate.cargo is not None
    args = list(gate.cargo)
    at = 1 if not args[0].startswith("+") else 2
    return ["cargo", *args[:at], "--message-format=json", *args[at:]]


def gate_env(
    config: Config, gate: Gate, linker: str, tdir: Path, *, record_links: bool = False
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(gate.env)
    env["CARGO_TARGET_DIR"] = str(tdir)
    env.update(linkers.rustflags_env(linkers.require(linker, env), env))
    if record_links:
        from linkgate.gate import wrapper

        if gate.is_cargo:
            proc.which("cargo", env)  # say "cargo is missing" before anything about the recorder
        # A command gate's cargo inherits the linker setting: its links are recorded too.
        env.update(wrapper.wrap_env(tdir, gate.cargo or (), layout.work_dir(config, gate), env))
    return env


def run_gate(
    config: Config,
    gate: Gate,
    linker: str,
    *,
    force_link: bool = True,
    progress: Progress | None = None,
    record_links: bool = True,
) -> GateResult:
    """``record_links`` routes every link through the recording wrapper
    (gate/wrapper.py); off, the gate links exactly as cargo alone would.
    Runs of one target directory take turns (``layout.target_lock``)."""
    tdir = layout.target_dir(config, gate, linker)
    waiting = (lambda message: progress(message, None)) if progress is not None else None
    with layout.target_lock(tdir, waiting):
        return _run_gate(config, gate, linker, tdir, force_link=force_link, progress=progress,
                         record_links=record_links)


def _run_gate(
    config: Config,
    gate: Gate,
    linker: str,
    tdir: Path,
    *,
    force_link: bool,
    progress: Progress | None,
    record_links: bool,
) -> GateResult:
    start = time.monotonic()
    cwd = layout.work_dir(config, gate)
    argv = cargo_argv(gate) if gate.is_cargo else list(gate.command or ())
    result = GateResult(
        gate=gate.name, linker=linker, verdict=ERROR, target_dir=str(tdir), argv=argv
    )
    result.started_at, result.cold = time.time(), measure.is_cold(tdir)
    result.context = measure.context(config.root)
    recorded = False
    try:
        if not cwd.is_dir():
            raise LinkgateError(
                f"working-directory {gate.working_directory!r} of gate {gate.name!r} does not exist",
                hint=f"fix working-directory in {config.path}",
            )
        layout.hide_default_root(config, tdir)
        env = gate_env(config, gate, linker, tdir, record_links=record_links)
        record_since = recording.begin(tdir) if record_links else None
        if config.recipes:  # without any, the recipe matcher (and cargo's argument parser) stays unloaded
            from linkgate.gate import recipes

            result.recipes = recipes.active_for_run(config, gate, env)
        if linker != "default" and not any(k in gate.env for k in ("RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS")):
            for path in linkers.config_rustflags_files(str(cwd)):
                result.warnings.append(
                    f"{path} sets rustflags, which cargo ignores once linkgate sets "
                    f"CARGO_ENCODED_RUSTFLAGS for linker {linker!r}; move them to the gate's env RUSTFLAGS"
                )
        if gate.is_cargo:
            sub = judge(gate.cargo or (), cwd, env)
            if sub.links is None:
                result.warnings.append(
                    sub.reason + "; the verdict rests on what cargo reports as linked"
                    + (f" ({sub.via})" if sub.via else "")
                )
            _run_cargo(result, argv, cwd, env, force_link, progress, config.root)
        else:
            _run_command(result, argv, cwd, env, progress, tdir=tdir, since=record_since, force_link=force_link)
        _judge_tree(result, config.root, tdir, record_since)
        if record_since is not None:
            ctx = result.context
            result.links = recording.finish(
                tdir, gate=gate.name, linker=linker, started=record_since, verdict=result.verdict,
                build_scripts=result.build_scripts, cwd=cwd, artifacts=[a.to_dict() for a in result.linked],
                units=result.units,
                passed=result.verdict == LINKED,
                dirty_inputs=[d.to_dict() for d in ctx.dirty_inputs] if ctx is not None else [],
            )
            recorded = True
            if result.verdict == LINKED:
                _archive_order(result, gate, record_since)
                add_mixed_linkage(result, recording.mixed_linkage(tdir, record_since, result.build_scripts))
        # Read after the build, which is what reports the build scripts; the environment and
        # the cargo configs are the ones the build saw.
        found = leg_overrides(config, gate, linker, result.build_scripts)
        if found and result.verdict in (LINKED, LINK_FAILED):
            mark_overridden(result, linker, found)
        failed_under_another_linker(result, linker, leg_suspects(config, gate))
        if result.verdict in (LINKED, LINKER_OVERRIDDEN):
            # A command gate's links may be any program's (a C helper it links itself): recorded, not enforced.
            prove_links(result, linker, result.started_at, enforce=gate.is_cargo and result.verdict == LINKED,
                        suspects=leg_suspects(config, gate))
    except (LinkerMissing, UnsafeState):
        # An environment error for the whole command, never this leg's verdict: a missing
        # linker, or linkgate's own build directory committed as a link (nothing is built then).
        raise
    except LinkgateError as exc:
        result.verdict = ERROR
        result.messages.append(exc.render())
    result.duration_s = time.monotonic() - start
    if recorded:
        # Clipped to this run's own span: compile + link never exceeds the wall time.
        result.link_s = measure.link_seconds(result.links, result.started_at, result.started_at + result.duration_s)
    result.directives_digest = measure.directives_digest(result.build_scripts, result.target_dir, str(config.root))
    return result


def _judge_tree(result: GateResult, root: Path, tdir: Path, since: float | None) -> None:
    """``dirty`` is what the build read: an input (gate/buildinputs.py) that is untracked,
    ignored or modified makes the run dirty, and the run names it."""
    ctx = result.context
    if ctx is None or ctx.dirty is None:
        return  # not a git checkout: nothing to compare the inputs with
    from dataclasses import replace

    from linkgate.gate import buildinputs, dirtyinputs, external, linkinputs
    from linkgate.gate.linkrecord import read_records

    inputs = buildinputs.collect(result.seen_artifacts, result.build_scripts)
    archives = [p for files in external.load(tdir).values() for p in files]
    # Before recording.finish: the link lines' inputs as the linker read them.
    linked = [[item.path for item in linkinputs.inputs(rec.args, rec.cwd)]
              for rec in (read_records(tdir, since=since) if since is not None else ())]
    inputs = inputs.plus_files([*archives, *buildinputs.record_paths(linked, [tdir])])
    found = dirtyinputs.dirty_inputs(root, inputs, [tdir, root / ".linkgate"])
    if found is None:
        return
    for note in inputs.unread:
        result.warnings.append(f"dirty: {note}; those inputs were not compared with the commit")
    if not found:
        return
    result.context = replace(ctx, dirty=True, dirty_inputs=found)
    shown = ", ".join(f"{d.path} ({d.why})" for d in found[:_DIRTY_SHOWN])
    more = f" and {len(found) - _DIRTY_SHOWN} more" if len(found) > _DIRTY_SHOWN else ""
    result.warnings.append(
        f"the build read files no commit holds as they are: {shown}{more}; the verdict is about this working "
        "tree (dirty), and a clone of the commit may not link the same way. Commit or remove them"
    )


_DIRTY_SHOWN = 5


def leg_overrides(config: Config, gate: Gate, linker: str, build_scripts: Sequence[tuple[str, str]]) -> list[Any]:
    """What would override *linker* in a full build of *gate* (gate/overrides.py), for a
    leg that relinks or replays recorded links instead of building."""
    from linkgate.gate import overrides, wrapper

    env = {**os.environ, **gate.env}
    cwd = layout.work_dir(config, gate)
    return [*overrides.before_build(linker, env, cwd, wrapper.target_triple(gate.cargo or (), env)),
            *overrides.from_build_scripts(linker, build_scripts)]


def leg_suspects(config: Config, gate: Gate) -> list[Any]:
    """Settings that may select another linker; the marks decide (gate/overrides.py ``suspects``)."""
    from linkgate.gate import overrides, wrapper

    env = {**os.environ, **gate.env}
    return overrides.suspects(env, layout.work_dir(config, gate), wrapper.target_triple(gate.cargo or (), env))


# The diagnose family whose wording each of linkgate's linkers prints.
_FAMILY = {"default": "lld", "lld": "lld", "bfd": "gnu-ld", "gold": "gold", "mold": "mold"}


def failed_under_another_linker(result: GateResult, linker: str, suspects: Sequence[Any]) -> None:
    """A failed link whose lines are another linker's (``mold: fatal: ...`` under
    ``default``), with a suspect setting that explains it: ``linker-overridden``."""
    if result.verdict != LINK_FAILED or not suspects:
        return
    families = {d.linker for d in result.diagnostics if d.linker and d.linker != "rustc"}
    if families and families != {_FAMILY[linker]}:
        mark_overridden(result, linker, suspects)


def mark_overridden(result: GateResult, linker: str, found: Sequence[Any]) -> None:
    """End *result* as ``linker-overridden``, naming every setting that selects another linker."""
    result.link_verdict, result.verdict, result.proven = result.verdict, LINKER_OVERRIDDEN, False
    result.overrides = [{"source": o.source, "setting": o.setting, "selects": o.selects} for o in found]
    result.messages[:0] = [o.render(linker) for o in found]


def prove_links(result: GateResult, linker: str, since: float | None, *, enforce: bool = True,
                suspects: Sequence[Any] = ()) -> None:
    """Prove every linked file (gate/proof.py) into ``result.proof``; with *enforce*, a
    file that does not prove its link makes the leg an error, or ``linker-overridden``
    when its marks name another linker and one of *suspects* explains it."""
    from linkgate.gate import proof

    other_linker = False
    for a in result.linked:
        if not a.path or any(p["path"] == a.path for p in result.proof):
            continue
        checked = proof.check(a.path, linker, since)
        result.proof.append(checked.to_dict())
        if enforce and checked.problem is not None:
            result.verdict, result.proven = ERROR, False
            result.messages.insert(0, f"{a.path} {checked.problem}; the link under this linker is not proven")
            other_linker = other_linker or (checked.new and checked.marks is not None)
    if other_linker and suspects:
        result.verdict = LINKED
        mark_overridden(result, linker, suspects)


def _archive_order(result: GateResult, gate: Gate, since: float) -> None:
    found, ids = recording.archive_order(Path(result.target_dir), since)
    judge_archive_order(result, gate, found, ids)


def add_mixed_linkage(result: GateResult, found: list[Any]) -> None:
    """Each library a passing link took both static and shared: a warning on the result."""
    for d in found:
        result.diagnostics.append(d)
        result.warnings.append(f"mixed-linkage: {d.message}. {d.hint}")


def judge_archive_order(result: GateResult, gate: Gate, found: list[Any], ids: list[str]) -> None:
    """lld linked, and said an archive stands before the archive that needs it
    (``--warn-backrefs``, added by the wrapper or by replay): GNU ld and gold
    fail that line. A warning on the result, or with ``archive-order = "fail"``
    a link failure. *ids*: the link records (``links[].record``) that said so."""
    if not found:
        return
    from dataclasses import replace

    from linkgate import diagnose
    from linkgate.cargo.buildscript import read_build_script_output

    outputs = [read_build_script_output(Path(o), p) for p, o in result.build_scripts if o]
    found = diagnose.attach_recipe(found, [o for o in outputs if o is not None])
    if gate.archive_order == "fail":
        result.verdict = LINK_FAILED
        result.archive_order_failed = True
        result.proven = False
        result.diagnostics = [replace(d, level="error") for d in found]
        result.linker_lines = [ex for d in found for ex in d.examples]
        result.failed_targets = sorted({
            f"{ln.get('target') or ln.get('output')} (archive order)" for ln in result.links if ln.get("record") in ids
        })
        result.messages.append("the link passed under lld, which ignores archive order; this gate sets "
                               "archive-order = \"fail\", so an archive-order problem fails it")
        return
    result.diagnostics.extend(found)
    for d in found:
        result.warnings.append(f"archive-order: {d.message}. {d.hint or ''}".rstrip())


def _build(argv: list[str], cwd: Path, env: dict[str, str], progress: Progress | None) -> tuple[BuildLog, int, str]:
    log = BuildLog()
    stream = proc.Stream(argv, cwd=cwd, env=env)
    try:
        for line in stream.lines():
            log.feed(line)
            if progress is not None:
                progress("build", log)
        rc = stream.wait()
    except BaseException:
        stream.terminate()
        raise
    return log, rc, stream.stderr


def _run_cargo(
    result: GateResult,
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    force_link: bool,
    progress: Progress | None,
    root: Path | None = None,
) -> None:
    if root is not None:
        _invalidate_changed_archives(result, root, progress)
    log, rc, stderr = _build(argv, cwd, env, progress)
    _judge(result, log, rc, stderr)
    if result.verdict in (LINKED, LINK_FAILED):
        log = _rebuild_stale(result, log, argv, cwd, env, progress) or log
    if root is not None and log.build_scripts:
        from linkgate.gate import external

        # What the next run compares with: the archives as this build saw them. A package
        # invalidated above but not rebuilt (the build stopped first) has no fingerprint
        # left, so the next build still rebuilds it.
        external.save(Path(result.target_dir), external.external_archives(
            ((b.package_id, b.linked_libs, b.linked_paths) for b in log.build_scripts), Path(result.target_dir)))
    if result.verdict != LINKED or result.linked or not force_link:
        if result.verdict == LINKED and not result.linked:
            result.proven = False
            result.messages.append(
                "nothing was linked in this run (every linked unit was fresh); "
                "this pass is not proven (run without --no-force-link to relink)"
            )
        return
    victim = relink.cheapest([a for a in log.linkable if a.fresh])
    if victim is None:
        result.verdict = ERROR
        result.messages.append("every unit was fresh and none has an executable linkgate could relink")
        return
    deps_file = relink.deps_output(victim)
    if deps_file is None:
        result.verdict = ERROR
        result.messages.append(f"cannot find the deps/ file behind {victim.output}; cannot force a relink")
        return
    if progress is not None:
        progress(f"relinking {victim.target} to prove the link", None)
    deps_file.unlink()
    log2, rc2, stderr2 = _build(argv, cwd, env, progress)
    _judge(result, log2, rc2, stderr2)
    result.forced_relink = True
    if result.verdict == LINKED and not result.linked:
        result.verdict = ERROR
        result.proven = False
        result.messages.append(
            f"deleted {deps_file} but cargo did not relink it; the link is not proven"
        )


def _rebuild_stale(
    result: GateResult, log: BuildLog, argv: list[str], cwd: Path, env: dict[str, str], progress: Progress | None
) -> BuildLog | None:
    """Rebuild packages whose build script cargo did not rerun although an input it
    does not watch changed (gate/stale.py); the new log, or None when none was stale."""
    from linkgate.gate.stale import stale_scripts

    stale = stale_scripts((b.package_id, b.out_dir) for b in log.build_scripts)
    tdir = Path(result.target_dir)
    if not stale:
        return None
    from linkgate.cargo.fingerprint import invalidate_package

    rebuilt = [s.package for s in stale]
    for s in stale:
        n = invalidate_package(tdir, s.package)
        shown = ", ".join(s.changed)
        result.warnings.append(
            f"{shown} in package {s.package} changed after its build script last ran, and the script does not "
            f"watch it (no rerun-if-changed covers it), so cargo reused the old build; linkgate invalidated "
            f"{s.package} ({n} units) and built again, so the verdict rests on the current tree. "
            "A warm CI target directory has the same blind spot: print cargo:rerun-if-changed for the "
            "sources the build script compiles"
        )
    if progress is not None:
        progress(f"rebuilding {', '.join(rebuilt)}: inputs changed that cargo does not watch", None)
    log2, rc2, stderr2 = _build(argv, cwd, env, progress)
    for judged in (result.messages, result.diagnostics, result.failed_targets, result.linker_lines):
        judged.clear()  # the stale build's verdict is void; units_compiled keeps counting
    result.verdict = ERROR
    _judge(result, log2, rc2, stderr2)
    return log2


def _invalidate_changed_archives(result: GateResult, root: Path, progress: Progress | None) -> None:
    """Before building: invalidate the package of every recorded archive (gate/external.py)
    whose content changed or that vanished since the last run, so this build links it as it is."""
    from linkgate.gate import external

    tdir = Path(result.target_dir)
    changed = external.changes(tdir)
    if not changed:
        return
    from linkgate.cargo.fingerprint import invalidate_package
    from linkgate.cargo.messages import package_name

    counts: dict[str, int] = {}
    for change in changed:
        pkg = package_name(change.package_id)
        if pkg not in counts:
            counts[pkg] = invalidate_package(tdir, pkg)
        where = Path(change.path)
        inside = root.resolve() in where.resolve().parents
        shown = os.path.relpath(where, root) if inside else change.path
        place = "from the repository" if inside else "from outside the repository and the target dir"
        result.warnings.append(
            f"{shown} {change.why} since the last run (compared by content): a static archive the build "
            f"script of {pkg} links {place}. rustc bundled the old copy into {pkg}'s rlib and cargo does "
            f"not watch the file by content, so a warm build would link the old code; linkgate invalidated "
            f"{pkg} ({counts[pkg]} units) before building, so the verdict rests on the archive as it is now"
        )
    if progress is not None:
        progress(f"rebuilding {', '.join(counts)}: archives changed that cargo does not watch", None)


def _judge(result: GateResult, log: BuildLog, rc: int, stderr: str) -> None:
    result.units_compiled += sum(1 for a in log.artifacts if not a.fresh)
    result.units_fresh = sum(1 for a in log.artifacts if a.fresh)
    result.seen_artifacts = list(log.artifacts)
    for b in log.build_scripts:
        if (b.package_id, b.out_dir) not in result.build_scripts:
            result.build_scripts.append((b.package_id, b.out_dir))
    for a in log.artifacts:
        unit = _unit(a)
        if unit is not None and unit not in result.units:
            result.units.append(unit)
    result.linked = [_linked(a) for a in log.linkable if not a.fresh]
    result.up_to_date = [_linked(a) for a in log.linkable if a.fresh]
    if rc < 0:
        result.verdict = ERROR
        result.messages.append(f"cargo was killed by signal {-rc}")
        return
    if log.link_errors:
        from linkgate import diagnose

        result.verdict = LINK_FAILED
        result.failed_targets = sorted({f"{e.target} ({e.kind})" for e in log.link_errors})
        lines: list[str] = []
        classified: list[str] = []
        blocks: list[list[str]] = []
        for err in log.link_errors:
            # A bin and its test harness usually fail with the very same
            # linker output; keep each distinct block once.
            block = diagnose.linker_lines_from_cargo_message(err.raw)
            if block not in blocks:
                blocks.append(block)
                lines.extend(block)
                # rustc's header goes to the classifier only: when the linker
                # said nothing it knows, the failure is still reported (unknown).
                classified.extend([err.message, *block] if err.message not in block else block)
        result.linker_lines = lines
        result.diagnostics = _diagnostics(classified, log, result)
        result.messages.extend(
            e.rendered.strip().splitlines()[0] for e in log.errors if not e.is_link
        )
        return
    if log.finished is False:
        result.verdict = COMPILE_FAILED
        result.messages.extend(e.rendered.rstrip() for e in log.errors)
        if not log.errors:
            result.messages.append(_tail(stderr))
        return
    if rc != 0:
        result.verdict = ERROR
        if log.finished:
            result.messages.append(
                f"the build finished but cargo exited {rc} afterwards (tests that ran and failed?); "
                "add --no-run so the gate only links\n" + _tail(stderr)
            )
        else:
            result.messages.append(f"cargo exited {rc} before building:\n" + _tail(stderr))
        return
    if not log.linkable:
        result.verdict = ERROR
        staticlibs = sorted({a.target for a in log.artifacts if "staticlib" in a.crate_types})
        result.messages.append(
            "nothing linked: the gate's command produced nothing a linker writes (no executable, test, "
            "bench, example or cdylib/dylib; rlibs and metadata are not linked); name a linkable "
            "target, e.g. --test NAME --no-run or --bin NAME"
            + (
                f". {', '.join(staticlibs)}: a staticlib is an archive rustc writes itself, no linker "
                "runs for it; gate a program that links it (command = [...])"
                if staticlibs else ""
            )
        )
        return
    result.verdict = LINKED
    result.proven = bool(result.linked)


def _diagnostics(lines: list[str], log: BuildLog, result: GateResult) -> list[Any]:
    from linkgate import diagnose

    from linkgate.cargo.buildscript import (
        build_script_source,
        manifest_dir_from_package_id,
        read_build_script_output,
    )
    from linkgate.cargo.messages import package_name

    native = []
    for b in log.build_scripts:
        manifest_dir = manifest_dir_from_package_id(b.package_id)
        script = build_script_source(manifest_dir) if manifest_dir else None
        native += diagnose.native_archives(
            package_name(b.package_id), b.linked_libs, b.linked_paths, str(script) if script else None
        )
    # The failed link's full command line, when the wrapper recorded it
    # (rustc's note elides it): which archives stood in which order.
    rec = recording.failed_link(Path(result.target_dir), result.started_at)
    diags = diagnose.classify(
        lines, native=native, command_line=list(rec.args) if rec else None, cwd=Path(rec.cwd) if rec else None
    )
    if not diags:
        return diags
    outputs = [read_build_script_output(Path(b.out_dir), b.package_id) for b in log.build_scripts if b.out_dir]
    found = [o for o in outputs if o is not None]
    diags = diagnose.attach_recipe(diags, found)
    # A source path in debug info is relative to rustc's working directory,
    # which the linker inherits: the recorded link's cwd.
    if rec is not None:
        from dataclasses import replace

        diags = [replace(d, source=os.path.join(rec.cwd, d.source))
                 if d.source and not os.path.isabs(d.source) else d for d in diags]
    from linkgate.cargo.buildscript import manifest_dir_from_package_id

    roots: list[Path] = []
    for err in log.link_errors:
        # Local packages only (path+file ids): a registry crate's sources are not the user's to annotate.
        if err.package_id.startswith("path+file://") or "(path+file://" in err.package_id:
            pdir = manifest_dir_from_package_id(err.package_id)
            if pdir is not None and Path(pdir) not in roots:
                roots.append(Path(pdir))
    return rust_callers(diags, roots)


def rust_callers(diags: list[Any], roots: Sequence[Path]) -> list[Any]:
    """An undefined symbol whose link carried no line table (release, LTO): the Rust
    line that calls it, read from the sources under *roots* (diagnose/rustref.py),
    so an annotation points there and not at an unrelated directive."""
    if not roots or not any(d.kind == "undefined-symbol" and d.symbol and not d.source for d in diags):
        return diags
    from dataclasses import replace

    from linkgate.diagnose.rustref import find_call, referencing_function

    out = []
    for d in diags:
        if d.kind == "undefined-symbol" and d.symbol and not d.source:
            at = find_call(d.symbol, roots, referencing_function(d.references))
            if at is not None:
                d = replace(d, source=f"{at[0]}:{at[1]}")
        out.append(d)
    return out


def diagnostics_for(
    lines: list[str], build_scripts: Sequence[tuple[str, str]],
    command_line: Sequence[str] | None = None, cwd: str | None = None,
) -> list[Any]:
    """Classify linker output with the build scripts' archives and directives at hand
    (*build_scripts*: (package_id, out_dir), as cargo reported them); a replayed link
    is judged by this very function, so it gets the same kinds as a cargo link."""
    from linkgate import diagnose

    from linkgate.cargo.buildscript import (
        build_script_source,
        manifest_dir_from_package_id,
        read_build_script_output,
    )
    from linkgate.cargo.messages import package_name

    outputs = [(p, read_build_script_output(Path(o), p)) for p, o in build_scripts if o]
    native = []
    for package_id, out in outputs:
        if out is None:
            continue
        manifest_dir = manifest_dir_from_package_id(package_id)
        script = build_script_source(manifest_dir) if manifest_dir else None
        directives = out.link_directives()
        # What cargo reports as linked_libs / linked_paths (rustc-flags' -l/-L included).
        libs = [d.value for d in directives if d.key == "rustc-link-lib"]
        paths = [d.value for d in directives if d.key == "rustc-link-search"]
        for d in directives:
            if d.key == "rustc-flags":
                words = d.value.split()
                for flag, value in zip(words, words[1:] + [""]):
                    if flag in ("-l", "-L"):
                        (libs if flag == "-l" else paths).append(value)
        native += diagnose.native_archives(package_name(package_id), libs, paths, str(script) if script else None)
    diags = diagnose.classify(lines, native=native, command_line=command_line, cwd=Path(cwd) if cwd else None)
    if not diags:
        return diags
    return diagnose.attach_recipe(diags, [o for _, o in outputs if o is not None])


def _command_once(argv: list[str], cwd: Path, env: dict[str, str], progress: Progress | None) -> tuple[int, list[str]]:
    stream = proc.Stream(argv, cwd=cwd, env=env)
    out: list[str] = []
    try:
        for line in stream.lines():
            out.append(line)
            if progress is not None:
                progress(line[:80], None)
        rc = stream.wait()
    except BaseException:
        stream.terminate()
        raise
    return rc, out + stream.stderr.splitlines()


def _run_command(
    result: GateResult, argv: list[str], cwd: Path, env: dict[str, str], progress: Progress | None,
    *, tdir: Path, since: float | None, force_link: bool,
) -> None:
    """A command gate: its exit status and log for a failure; for a pass, the links the
    recording wrapper saw (gate/commandlinks.py), never the exit status alone."""
    from linkgate import diagnose
    from linkgate.gate import commandlinks

    rc, lines = _command_once(argv, cwd, env, progress)
    if rc == 0 and since is not None and not commandlinks.this_run(tdir, since) and force_link:
        # Warm: cargo found everything fresh. Make it relink the smallest output an
        # earlier run recorded, as a cargo gate's proof of link does.
        victim = commandlinks.relink_victim(tdir, since)
        if victim is not None:
            if progress is not None:
                progress(f"relinking {victim.name} to prove the link", None)
            victim.unlink()
            result.forced_relink = True
            rc, lines = _command_once(argv, cwd, env, progress)
    diags = diagnose.classify(lines)
    if rc == 0:
        _judge_command_links(result, argv, tdir, since, force_link)
    elif rc < 0:
        result.messages.append(f"{argv[0]} was killed by signal {-rc}")
    elif diags:
        result.verdict = LINK_FAILED
        result.diagnostics = diags
        result.linker_lines = [d.message for d in diags]
    else:
        result.verdict = COMPILE_FAILED
        result.messages.append(f"{argv[0]} exited {rc} without a linker error:\n" + _tail("\n".join(lines)))


def _judge_command_links(result: GateResult, argv: list[str], tdir: Path, since: float | None,
                         force_link: bool) -> None:
    from linkgate.gate import commandlinks

    if since is None:
        result.verdict = ERROR
        result.messages.append(f"{argv[0]} exited 0, but without the recording wrapper linkgate cannot see "
                               "what a command gate links; nothing is judged linked")
        return
    links = commandlinks.this_run(tdir, since)
    if links:
        result.verdict = LINKED
        result.proven = True
        seen = set()
        for rec in links:
            if rec.output in seen:
                continue
            seen.add(rec.output)
            target, kind = commandlinks.describe(rec)
            result.linked.append(LinkedArtifact(target=target, kind=kind, path=rec.output or ""))
        return
    if not force_link and commandlinks.relink_victim(tdir, since) is not None:
        result.verdict = LINKED
        result.proven = False
        result.messages.append(
            "nothing was linked in this run (an earlier run's outputs are still there, so cargo found them "
            "fresh); this pass is not proven (run without --no-force-link to relink)"
        )
        return
    result.verdict = ERROR
    result.messages.append(
        f"nothing linked: {argv[0]} exited 0, but the recording wrapper saw no link of a program, test "
        "or shared library (build scripts and proc-macros, which cargo check links too, do not count)"
        + ("; linkgate deleted the smallest output of an earlier run and the command did not link it again"
           if result.forced_relink else "")
        + ". A command gate must build through cargo (or rustc) for the host target or CARGO_BUILD_TARGET "
        "in its env, with a subcommand that links, e.g. cargo test --no-run"
    )


_LIB_KINDS = ("lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro")


def _unit(a: Artifact) -> dict[str, Any] | None:
    """What replay needs of a unit: its package, whether it is the library target, its rlib, its output."""
    rlib = next((f for f in a.filenames if f.endswith(".rlib")), None)
    if a.kind == "custom-build" or (rlib is None and a.output is None):
        return None
    return {"package_id": a.package_id, "lib": a.kind in _LIB_KINDS, "rlib": rlib, "output": a.output}


def _linked(a: Artifact) -> LinkedArtifact:
    kind = "test" if a.test else a.kind
    if not a.executable and kind == "lib":
        # A lib target that is also a cdylib/dylib: name what the linker wrote.
        kind = "cdylib" if "cdylib" in a.crate_types else "dylib"
    return LinkedArtifact(target=a.target, kind=kind, path=a.output or "", test=a.test)


def _tail(text: str, n: int = 15) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])

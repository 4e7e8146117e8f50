"""`prove`: mutate, expect the gate to fail, restore, expect it to pass.

Each control costs one mutated run and one restored run per linker. Neither
may rest on a fresh cache: when cargo sees nothing stale after a change, the
owning package's fingerprints are invalidated and the gate runs again, so
"not reproduced" always means "linked with the defect in place".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from linkgate.cargo import fingerprint
from linkgate.prove import caches, controls
from linkgate.gate import layout
from linkgate.config import Config, Gate
from linkgate.errors import UsageError
from linkgate.gate.run import COMPILE_FAILED, LINK_FAILED, LINKED, GateResult, require_linkers, run_gate
from linkgate.prove.journal import Repository, terminate_as_exception
from linkgate.userregex import RegexRefused, compile_user

CAUGHT = "caught"
NOT_REPRODUCED = "not-reproduced"
WRONG_FAILURE = "wrong-failure"
RESTORE_FAILED = "restore-failed"
ERROR = "error"
SKIPPED = "skipped"  # the control names other linkers: neither run nor judged under this one

Phase = Callable[[str], None]


@dataclass
class ControlOutcome:
    name: str
    gate: str
    linker: str
    file: str
    diff: str
    outcome: str = ERROR
    reason: str = ""
    mutated: GateResult | None = None
    restored: GateResult | None = None
    notes: list[str] = field(default_factory=list)
    replayed: bool = False            # judged by replaying recorded links (linkgate.replay.controls)
    explanation: str | None = None    # not reproduced: the sweep's sentence on why

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "gate": self.gate,
            "linker": self.linker,
            "file": self.file,
            "outcome": self.outcome,
            "reason": self.reason,
            "mutation": self.diff,
            "notes": self.notes,
            "replayed": self.replayed,
            "explanation": self.explanation,
            "mutated": _sub(self.mutated),
            "restored": _sub(self.restored),
        }


def _sub(r: GateResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "verdict": r.verdict,
        "diagnostics": [d.to_dict() for d in r.diagnostics],
        "linker_output": r.linker_lines,
        "linked": [a.to_dict() for a in r.linked],
        "messages": r.messages,
        "duration_s": round(r.duration_s, 3),
        # Which build the verdict rests on: this linker's own, or a relink of another's links.
        "matrix": r.matrix,
    }


def select(config: Config, gates: Sequence[str], names: Sequence[str]) -> list[tuple[Gate, Any]]:
    chosen = [(g, c) for g in config.select(gates) for c in g.controls]
    if names:
        known = {c.name for _, c in chosen}
        for n in names:
            if n not in known:
                raise UsageError(f"no control named {n!r}", hint="controls: " + (", ".join(sorted(known)) or "none"))
        chosen = [(g, c) for g, c in chosen if c.name in names]
    if not chosen:
        raise UsageError(
            "no negative controls configured for the selected gates",
            hint=f"add a [[gate.control]] table to {config.path} (name, file, delete = '...')",
        )
    return chosen


def prove(
    config: Config,
    gates: Sequence[str] = (),
    names: Sequence[str] = (),
    *,
    allow_dirty: bool = False,
    phase: Phase = lambda _: None,
    on_build: Callable[[str, Any], None] | None = None,
    replay: bool = False,
) -> list[ControlOutcome]:
    """``replay``: judge a file control by replay when its mutation only
    removes directives the build script prints (linkgate.replay.probe)."""
    selected = select(config, gates, names)
    require_linkers((g, ln) for g, c in selected for ln in c.runs_under(g.linkers))
    outcomes: list[ControlOutcome] = []
    # Lock before reading the files: another prove may have one mutated right now.
    with Repository(config.root).locked() as repo:
        if repo.journal.exists():
            # An earlier run was killed and no startup recovery reached this
            # root (e.g. --repo from elsewhere): put its files back first, or
            # the plans below would take mutated bytes for originals.
            repo.restore(repo.read_journal())
        plans = {c.name: controls.plan(config, g, c) for g, c in selected if not c.drops_directive}
        if not allow_dirty:
            for p in plans.values():
                controls.require_clean(config, p.rel_path)
        with terminate_as_exception():
            for g, c in selected:
                judged = _prove_control(config, repo, g, c, plans, replay, phase, on_build)
                outcomes.extend(sorted(judged + skipped(g, c), key=lambda o: g.linkers.index(o.linker)))
    return outcomes


def skipped(gate: Gate, control: Any) -> list[ControlOutcome]:
    """The gate's linkers a control with its own ``linkers`` is not run under, each with why."""
    named = "[" + ", ".join(control.linkers) + "]"
    return [
        ControlOutcome(control.name, gate.name, ln, control.file, "", SKIPPED,
                       f"the control names linkers = {named}; it is neither run nor judged under {ln}")
        for ln in gate.linkers if ln not in control.runs_under(gate.linkers)
    ]


def _prove_control(
    config: Config, repo: Repository, g: Gate, c: Any, plans: dict[str, controls.PlannedMutation],
    replay: bool, phase: Phase, on_build: Any,
) -> list[ControlOutcome]:
    if c.drops_directive:
        return _prove_by_replay(config, g, c, phase, on_build)
    fallback = None
    if replay:
        by_replay, why = _file_control_by_replay(config, plans[c.name], phase, on_build)
        if by_replay is not None:
            return by_replay
        fallback = f"--replay: a full run judged it because {why or 'replay could not judge it'}"
        phase(f"{c.name}: {fallback}")
    full = _prove_one(config, repo, plans[c.name], phase, on_build)
    for out in full:
        if fallback:
            out.notes.insert(0, fallback)
    return full


def _prove_one(
    config: Config, repo: Repository, p: controls.PlannedMutation, phase: Phase, on_build: Any
) -> list[ControlOutcome]:
    gate, control = p.gate, p.control
    package = controls.package_of(config, p.rel_path) if gate.is_cargo else None
    linkers = control.runs_under(gate.linkers)
    results = {ln: ControlOutcome(control.name, gate.name, ln, p.rel_path, p.diff()) for ln in linkers}
    # With linker-matrix = "replay" the gate's first linker compiles and the others relink
    # its links; a control limited to other linkers still builds with the first one (its
    # target directory is the warm one), rather than compiling all over again in theirs.
    base = gate.linkers[0] if _replays(gate) and gate.linkers[0] not in results else None
    builds = ([base] if base else []) + list(results)
    base_notes: list[str] = []
    notes = {ln: out.notes for ln, out in results.items()} | ({base: base_notes} if base else {})
    blind: dict[str, bool] = {}
    scope = (
        caches.scope_for(config.root, p.rel_path, [layout.target_dir(config, gate, ln) for ln in builds])
        if gate.is_cargo else None
    )
    printed: dict[str, list[tuple[str, str]]] = {}
    with repo.mutated(p.rel_path, p.mutated, scope):
        for ln in builds:
            if scope is not None:
                # A build script blind to the file would reuse the pristine
                # artefact and the control would be "not reproduced" falsely.
                gone = caches.invalidate(scope, (str(layout.target_dir(config, gate, ln)),))
                if gone:
                    whose = (f"the build script of package {scope.package}" if scope.package != caches.EVERY_PACKAGE
                             else "the build scripts (the file is in no package)")
                    notes[ln].append(
                        f"{p.rel_path} is outside every rerun-if-changed of {whose}, so cargo would not "
                        "rebuild for it; linkgate invalidated the fingerprints before both builds"
                    )
        first: GateResult | None = None
        if base:
            phase(f"{control.name} [{base}]: building with the defect in place, to relink under "
                  + ", ".join(results))
            first, blind[base] = _matrix_run(config, gate, base, package, base_notes, on_build, None)
        for ln, out in results.items():
            phase(f"{control.name} [{ln}]: " + ("relinking" if first else "building") + " with the defect in place")
            out.mutated, blind[ln] = _matrix_run(config, gate, ln, package, out.notes, on_build, first)
            if first is not None and out.mutated.replayed:
                # Relinked from the first linker's build: what that build needed holds here too.
                out.notes.extend(n for n in notes[first.linker] if n not in out.notes)
            first = first or (out.mutated if _replays(gate) else None)
            printed[ln] = _printed_directives(out.mutated)
    first = None
    if base:
        phase(f"{control.name} [{base}]: building the restored tree, to relink under " + ", ".join(results))
        first, _ = _matrix_run(config, gate, base, package, base_notes, on_build, None,
                               invalidate_first=blind.get(base, False))
    for ln, out in results.items():
        phase(f"{control.name} [{ln}]: " + ("relinking" if first else "building") + " the restored tree")
        out.restored, _ = _matrix_run(
            config, gate, ln, package, out.notes, on_build, first, invalidate_first=blind.get(ln, False)
        )
        first = first or (out.restored if _replays(gate) else None)
        out.outcome, out.reason = judge(control, out.mutated, out.restored)
        if out.outcome == NOT_REPRODUCED and gate.is_cargo:
            _explain(config, gate, ln, out, printed[ln], _printed_directives(out.restored))
    return list(results.values())


def _printed_directives(res: GateResult | None) -> list[tuple[str, str]]:
    """The link directives the build scripts printed in this run, as (key, value)."""
    from linkgate.replay.directives import from_build_scripts

    return [(d.key, d.value) for d in from_build_scripts(res.build_scripts)] if res else []


def _explain(
    config: Config, gate: Gate, linker: str, out: ControlOutcome,
    mutated: list[tuple[str, str]], restored: list[tuple[str, str]],
) -> None:
    """Say why a defect did not reproduce: sweep the directives the mutation removed."""
    from linkgate.replay import controls as replay_controls

    removed = list(restored)
    for item in mutated:
        if item in removed:
            removed.remove(item)
    if not removed:
        return
    sentence = replay_controls.explain(config, gate, linker, lambda d: (d.key, d.value) in removed)
    if sentence:
        out.explanation = sentence
        out.notes.append(sentence)


def _file_control_by_replay(
    config: Config, p: controls.PlannedMutation, phase: Phase, on_build: Any
) -> tuple[list[ControlOutcome] | None, str]:
    """(outcomes by replay, "") for a mutation that only removes printed directives,
    else (None, why it needs a full run)."""
    from linkgate.replay import probe

    if not p.gate.is_cargo:
        return None, f"gate {p.gate.name!r} runs a command, not cargo, and replay needs cargo's records of the build scripts"
    phase(f"{p.control.name}: running the mutated build script alone")
    removed, why = probe.removed_directives(config, p.gate, p.rel_path, p.original, p.mutated)
    if removed is None:
        return None, why
    shown = ", ".join(f"cargo:{k}={v}" for k, v in removed)
    note = (f"the mutation only removes {shown} (the original and mutated build scripts, run alone in a "
            "scratch OUT_DIR, wrote identical files and printed the same otherwise), so replay judged it")
    outs = _prove_by_replay(config, p.gate, p.control, phase, on_build, match=probe.matches_removed(removed, config.root / p.rel_path))
    failed = next((o for o in outs if o.outcome == ERROR), None)
    if failed is not None:
        # A real build can judge what replay could not (no recording, an unjudgeable directive).
        return None, f"replay could not judge it under {failed.linker}: {failed.reason.splitlines()[0]}"
    for out in outs:
        out.file, out.diff = p.rel_path, p.diff()
        out.notes.insert(0, note)
    return outs, ""


def _prove_by_replay(
    config: Config, gate: Gate, control: Any, phase: Phase, on_build: Any, match: Any = None
) -> list[ControlOutcome]:
    from linkgate.replay import controls as replay_controls
    from linkgate.replay.directives import UNJUDGED_REMEDY
    from linkgate.replay.run import ReplayRefused

    match = match or replay_controls.matcher(control)
    outcomes = []
    for ln in control.runs_under(gate.linkers):
        out = ControlOutcome(control.name, gate.name, ln, "", "", replayed=True)
        phase(f"{control.name} [{ln}]: replaying the recorded links without the directive")
        try:
            replayed = replay_controls.replay_control(
                config, gate, ln, match, out.notes, on_build, control if control.drops_directive else None
            )
        except ReplayRefused as exc:
            out.outcome, out.reason = ERROR, exc.render()
            outcomes.append(out)
            continue
        out.mutated, out.restored, out.diff, out.file = replayed[:4]
        out.notes.append("replayed: judged by re-running the recorded link without the directive (no cargo build)")
        out.outcome, out.reason = judge(control, out.mutated, out.restored)
        if out.outcome == NOT_REPRODUCED and replayed.unjudged:
            # The mutated replay linked, but the rlib it linked still holds the library: no evidence either way.
            out.outcome = ERROR
            out.reason = (f"not judged: the recorded links pass without the directive under {ln}, but "
                          f"{replayed.unjudged}\n  hint: {UNJUDGED_REMEDY}")
        elif out.outcome == NOT_REPRODUCED and replayed.absent:
            out.explanation = replayed.absent
            out.notes.append(replayed.absent)
        elif out.outcome == NOT_REPRODUCED:
            out.explanation = replay_controls.explain(config, gate, ln, match)
            if out.explanation:
                out.notes.append(out.explanation)
        outcomes.append(out)
    return outcomes


def _replays(gate: Gate) -> bool:
    return gate.linker_matrix == "replay" and gate.is_cargo and len(gate.linkers) > 1


def _matrix_run(
    config: Config, gate: Gate, linker: str, package: str | None, notes: list[str], on_build: Any,
    first: GateResult | None, *, invalidate_first: bool = False,
) -> tuple[GateResult, bool]:
    """The first linker builds (``_real_run``); with ``linker-matrix = "replay"`` the
    others relink its recorded links (replay/matrix.py), or build when they cannot."""
    from linkgate.replay import matrix

    if first is None:
        res, blind = _real_run(config, gate, linker, package, notes, on_build, invalidate_first=invalidate_first)
        if _replays(gate):
            res.matrix = matrix.matrix_info("replay", linker, False, None)
        return res, blind
    relinked = matrix.relink(config, gate, first, linker)
    if not isinstance(relinked, matrix.Fallback):
        return relinked, False
    notes.append(f"linker-matrix: {linker} was built in its own target directory because {relinked.reason}")
    res, blind = _real_run(config, gate, linker, package, notes, on_build, invalidate_first=invalidate_first)
    res.matrix = matrix.matrix_info("replay", first.linker, False, relinked.reason)
    return res, blind


def _real_run(
    config: Config, gate: Gate, linker: str, package: str | None, notes: list[str], on_build: Any,
    *, invalidate_first: bool = False,
) -> tuple[GateResult, bool]:
    """Run the gate so that its verdict rests on a build that saw the current file.

    Returns the result and whether cargo was blind to the change (nothing
    stale), in which case the package had to be invalidated.
    """
    tdir = layout.target_dir(config, gate, linker)
    if invalidate_first and package is not None:
        fingerprint.invalidate_package(tdir, package)
    res = run_gate(config, gate, linker, force_link=False, progress=on_build)
    if invalidate_first or res.verdict != LINKED or res.linked:
        return res, invalidate_first
    first = res.duration_s
    if package is not None:
        n = fingerprint.invalidate_package(tdir, package)
        notes.append(
            f"cargo found nothing stale after the change (the file is not covered by a rerun-if-changed "
            f"it watches); linkgate invalidated package {package!r} ({n} units) and built again, so the "
            "verdict rests on a real build; a warm CI cache would not have noticed this change"
        )
    res = run_gate(config, gate, linker, force_link=True, progress=on_build)
    res.duration_s += first
    return res, package is not None


def judge(control: Any, mutated: GateResult | None, restored: GateResult | None) -> tuple[str, str]:
    if mutated is None or restored is None:
        return ERROR, "the control did not run to completion"
    if mutated.verdict == LINK_FAILED:
        problem = _expectation_problem(control, mutated)
        if problem:
            return WRONG_FAILURE, problem
        if restored.verdict != LINKED:
            return RESTORE_FAILED, f"the restored tree did not link ({restored.verdict})"
        return CAUGHT, "the gate failed with the defect and passed without it"
    if mutated.verdict == LINKED:
        if restored.verdict != LINKED:
            return RESTORE_FAILED, f"the restored tree did not link ({restored.verdict})"
        return NOT_REPRODUCED, (
            "the gate stayed green with the defect in place: this linker resolved the "
            "link without the mutated line, so the control does not test what it claims"
        )
    if mutated.verdict == COMPILE_FAILED:
        if restored.verdict != LINKED:
            # Not the mutation's doing: the gate does not build without it either.
            return ERROR, (f"the gate does not build without the mutation either (restored tree: "
                           f"{restored.verdict}), so the control tested nothing; fix the gate "
                           "(`linkgate run` shows why), then prove again")
        return WRONG_FAILURE, "the mutated tree failed to compile, so the link was never tested"
    return ERROR, (mutated.messages or ["the mutated run ended in an error"])[0].splitlines()[0]


def _expectation_problem(control: Any, res: GateResult) -> str | None:
    kinds = [d.kind for d in res.diagnostics]
    if control.expect_kind and control.expect_kind not in kinds:
        return f"expected a {control.expect_kind} diagnostic, got {', '.join(kinds) or 'none'}"
    if control.expect_match:
        text = "\n".join(res.linker_lines + [d.message for d in res.diagnostics])
        try:
            matched = compile_user(control.expect_match).search(text)
        except RegexRefused as exc:  # validated with the configuration; kept for a Control built elsewhere
            return f"expect-match {control.expect_match!r} cannot be run by RE2: {exc.reason}"
        if not matched:
            return f"the linker output does not match {control.expect_match!r}"
    return None


__all__ = ["prove", "ControlOutcome", "judge", "skipped"]

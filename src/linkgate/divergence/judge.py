"""What a gate's legs say once they have all run: ``lto-skipped`` on each passing
leg, read from that leg's own recorded link lines; and, with two linkers or more,
how each leg's linked files differ from the first linker's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from linkgate.config import DIVERGENCE_KINDS, Gate
from linkgate.divergence import compare, lto
from linkgate.gate.linkrecord import LinkRecord, read_ids
from linkgate.gate.run import LINKED, GateResult
from linkgate.objects import elf


def _records(res: GateResult, legs: Sequence[GateResult]) -> list[LinkRecord]:
    """The link records of *res*'s links. A relinked leg's ``links`` name the records
    of the build it replayed (the same objects and archives), kept in that leg's
    target directory."""
    tdir = res.target_dir
    if res.replayed and res.matrix:
        tdir = next((r.target_dir for r in legs if r.linker == res.matrix.get("built_with")), tdir)
    ids = [str(ln["record"]) for ln in res.links if ln.get("record") and ln.get("target") != "build-script-build"]
    return [r for r in read_ids(Path(tdir), ids) if not (r.output and "/build/" in r.output)]


def _lto(legs: Sequence[GateResult], level: str) -> None:
    for res in legs:
        if res.verdict != LINKED:
            continue
        targets = {str(ln.get("record")): str(ln["target"]) for ln in res.links if ln.get("target")}
        unread: list[str] = []
        found = lto.lto_skipped(res.linker, _records(res, legs), res.build_scripts, targets, unread)
        for d in found:
            if level == "fail":
                d = replace(d, level="error")
            res.diagnostics.append(d)
            # Under "fail" it is no warning: it fails the gate, and says so among the messages.
            (res.messages if level == "fail" else res.warnings).append(f"lto-skipped: {d.message}. {d.hint}")
        if found and level == "fail":
            res.messages.append('GCC LTO bytecode linked without GCC\'s plugin and this gate sets '
                                'divergence-kinds.lto-skipped = "fail", so the gate fails')
        if unread:
            res.messages.append("lto-skipped: not checked for GCC LTO bytecode (not an ar archive or ELF "
                                f"object, or unreadable): {', '.join(unread[:5])}" + (" ..." if len(unread) > 5 else ""))


def _compare(legs: Sequence[GateResult], threshold: float) -> None:
    """Each passing leg's files against the first passing leg's, target by target.
    Only files this run linked are compared (never an up-to-date file an earlier
    run left): the evidence is this tree's links."""
    passed = [r for r in legs if r.verdict == LINKED]
    if len(passed) < 2:
        return
    first = passed[0]
    views: dict[str, elf.LinkedView | None] = {}

    def view(path: str) -> elf.LinkedView | None:
        if path not in views:
            views[path] = elf.read_linked(path)
        return views[path]

    mine = {(a.target, a.kind, a.test): a.path for a in first.linked if a.path}
    first.divergence = []
    for res in passed[1:]:
        res.divergence = []
        for a in res.linked:
            base = mine.get((a.target, a.kind, a.test))
            if not base or not a.path:
                continue
            va, vb = view(base), view(a.path)
            if va is None or vb is None:
                unread = base if va is None else a.path
                res.warnings.append(f"divergence: {unread} is not readable ELF, so {a.target} under "
                                    f"{first.linker} and {res.linker} was not compared")
                continue
            name = a.target + (" (test)" if a.test else "")
            for ln, v in ((first.linker, va), (res.linker, vb)):
                if v.functions is None:
                    res.messages.append(f"divergence: the defined functions of {name} were not compared: "
                                        f"its file under {ln} has no .symtab")
            res.divergence += compare.differences(name, first.linker, va, res.linker, vb, threshold)


def level_of(gate: Gate, kind: str) -> str:
    """What a difference of *kind* does under *gate*: its divergence-kinds entry, else divergence."""
    return gate.divergence_kinds.get(kind, gate.divergence)


def judge(gate: Gate, legs: Sequence[GateResult]) -> None:
    """Add each leg's findings to it (collect now, report later)."""
    level = gate.divergence_kinds.get("lto-skipped", "warn")
    if level != "off":
        _lto(legs, level)
    if all(level_of(gate, k) == "off" for k in DIVERGENCE_KINDS):
        return
    _compare(legs, gate.divergence_threshold / 100)
    for res in legs:
        if not res.divergence:
            continue
        kept = [d for d in res.divergence if level_of(gate, d.kind) != "off"]
        res.divergence = [replace(d, level="error") if level_of(gate, d.kind) == "fail" else d for d in kept]
        failing = sorted({d.kind for d in res.divergence if d.level == "error"})
        if failing:
            keys = dict.fromkeys(f'divergence-kinds.{k} = "fail"' if k in gate.divergence_kinds else
                                 'divergence = "fail"' for k in failing)
            res.messages.append(f"its files differ from {res.divergence[0].first}'s ({', '.join(failing)}) and "
                                f"this gate sets {', '.join(keys)}, so the gate fails")

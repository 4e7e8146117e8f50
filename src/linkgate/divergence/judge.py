"""What a gate's legs say once they have all run: the ``lto-skipped`` check on
each passing leg, read from that leg's own recorded link lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from linkgate.config import Gate
from linkgate.divergence import lto
from linkgate.gate.linkrecord import LinkRecord, read_ids
from linkgate.gate.run import LINKED, GateResult


def _records(res: GateResult, legs: Sequence[GateResult]) -> list[LinkRecord]:
    """The link records of *res*'s links. A relinked leg's ``links`` name the records
    of the build it replayed (the same objects and archives), kept in that leg's
    target directory."""
    tdir = res.target_dir
    if res.replayed and res.matrix:
        tdir = next((r.target_dir for r in legs if r.linker == res.matrix.get("built_with")), tdir)
    ids = [str(ln["record"]) for ln in res.links if ln.get("record") and ln.get("target") != "build-script-build"]
    return [r for r in read_ids(Path(tdir), ids) if not (r.output and "/build/" in r.output)]


def judge(gate: Gate, legs: Sequence[GateResult]) -> None:
    """Add each leg's findings to it (collect now, report later)."""
    for res in legs:
        if res.verdict != LINKED:
            continue
        targets = {str(ln.get("record")): str(ln["target"]) for ln in res.links if ln.get("target")}
        found = lto.lto_skipped(res.linker, _records(res, legs), res.build_scripts, targets)
        for d in found:
            res.diagnostics.append(d)
            res.warnings.append(f"lto-skipped: {d.message}. {d.hint}")

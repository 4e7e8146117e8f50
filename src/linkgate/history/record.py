"""Rows of history from what ``run`` and ``prove`` produced, and from run documents.

A run's JSON document carries the same fields as its history row (same run
id), so ``history import`` of a CI artifact yields exactly the rows the runner
would have written locally, and importing it twice adds nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from linkgate.history.model import RunRecord

if TYPE_CHECKING:
    from linkgate.gate.measure import RunContext
    from linkgate.gate.run import GateResult
    from linkgate.prove.run import ControlOutcome


def from_result(r: GateResult, context: RunContext | None = None) -> RunRecord:
    """*context* stands in for a result that has none (one made by replay, not run_gate)."""
    from linkgate.gate.measure import iso

    ctx = r.context or context
    return RunRecord(
        run_id=r.run_id, kind="run", gate=r.gate, linker=r.linker, verdict=r.verdict,
        started_at=iso(r.started_at), wall_s=r.duration_s,
        commit=ctx.commit if ctx else None, branch=ctx.branch if ctx else None,
        dirty=ctx.dirty if ctx else None,
        runner=ctx.runner if ctx else None, host=ctx.host if ctx else None,
        compile_s=r.compile_s, link_s=r.link_s, units_rebuilt=r.units_compiled, units_fresh=r.units_fresh,
        cold=r.cold, forced_relink=r.forced_relink, recipes=r.recipes, indistinct=r.recipes_indistinct,
        directives_digest=r.directives_digest, links=tuple(r.links),
        divergence=tuple(d.to_dict() for d in r.divergence or ()),
    )


def from_outcome(o: ControlOutcome, context: RunContext | None = None) -> RunRecord | None:
    """One row per (control, linker): both builds (defect in place, restored) summed.

    The id is the mutated run's id: unique per invocation, control and linker.
    """
    runs = [r for r in (o.mutated, o.restored) if r is not None]
    if not runs:
        return None
    first = from_result(runs[0], context)
    # The tree the control judged is the one before the mutation: the restored
    # run sees it again (the mutated run sees the control's own edit as dirt).
    last = from_result(runs[-1], context)
    links = [r.link_s for r in runs]
    link_s = None if any(x is None for x in links) else sum(x for x in links if x is not None)
    wall = sum(r.duration_s for r in runs)
    return RunRecord(
        run_id=first.run_id, kind="prove", gate=o.gate, linker=o.linker, verdict=o.outcome,
        started_at=first.started_at, wall_s=wall, commit=last.commit, branch=last.branch,
        dirty=last.dirty if o.restored is not None else None,
        runner=first.runner, host=first.host,
        compile_s=None if link_s is None else max(0.0, wall - link_s), link_s=link_s,
        units_rebuilt=sum(r.units_compiled for r in runs), units_fresh=runs[-1].units_fresh,
        cold=first.cold, forced_relink=any(r.forced_relink for r in runs), recipes=first.recipes,
        directives_digest=runs[-1].directives_digest, control=o.name,
        links=tuple(x for r in runs for x in r.links),
    )


class DocumentError(ValueError):
    """A run document that cannot be imported; the message says where in it."""


_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "run_id": str, "gate": str, "linker": str, "verdict": str, "started_at": str, "duration_s": (int, float),
}
_OPTIONAL: dict[str, type | tuple[type, ...]] = {
    "runner": str, "host": str, "commit": str, "branch": str, "cold": bool, "forced_relink": bool, "dirty": bool,
    "link_s": (int, float), "compile_s": (int, float), "units_compiled": int, "units_fresh": int,
    "directives_digest": str, "recipes": list, "recipes_indistinct": list, "links": list, "divergence": list,
}


def from_document(doc: Any) -> list[RunRecord]:
    """Rows from a ``linkgate.run/1`` document; raises DocumentError naming the bad key."""
    if not isinstance(doc, dict) or doc.get("schema") != "linkgate.run/1":
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise DocumentError(f"not a linkgate run document (schema {found!r}, expected 'linkgate.run/1')")
    results = doc.get("results")
    if not isinstance(results, list):
        raise DocumentError("'results' is missing or not a list")
    return [_from_item(item, f"results[{i}]") for i, item in enumerate(results)]


def _from_item(item: Any, where: str) -> RunRecord:
    if not isinstance(item, dict):
        raise DocumentError(f"{where}: not an object")
    for key, typ in _REQUIRED.items():
        if not isinstance(item.get(key), typ) or isinstance(item.get(key), bool):
            raise DocumentError(
                f"{where}.{key}: missing or not a {_name(typ)}"
                + (" (documents from linkgate before run ids cannot be imported)" if key == "run_id" else "")
            )
    if not item["run_id"]:
        raise DocumentError(f"{where}.run_id: empty")
    if item["verdict"] not in RUN_VERDICTS:
        raise DocumentError(f"{where}.verdict: {item['verdict'][:40]!r} is not a run verdict "
                            f"({', '.join(sorted(RUN_VERDICTS))})")
    if not _iso_time(item["started_at"]):
        raise DocumentError(f"{where}.started_at: {item['started_at'][:40]!r} is not an ISO 8601 time "
                            "(e.g. 2026-12-01T02:23:23Z)")
    for key in ("duration_s", "link_s", "compile_s", "units_compiled", "units_fresh"):
        value = item.get(key)
        if value is not None and not isinstance(value, bool) and not (math.isfinite(value) and value >= 0):
            raise DocumentError(f"{where}.{key}: {value!r} is not a finite number of zero or more")
    for key, typ in _OPTIONAL.items():
        value = item.get(key)
        if value is not None and (not isinstance(value, typ) or (typ is not bool and isinstance(value, bool))):
            raise DocumentError(f"{where}.{key}: not a {_name(typ)}")
    recipes = item.get("recipes") or []
    if not all(isinstance(x, str) for x in recipes):
        raise DocumentError(f"{where}.recipes: not a list of names")
    indistinct = item.get("recipes_indistinct") or []
    if not all(isinstance(x, str) for x in indistinct):
        raise DocumentError(f"{where}.recipes_indistinct: not a list of names")
    links = item.get("links") or []
    if not all(isinstance(x, dict) for x in links):
        raise DocumentError(f"{where}.links: not a list of objects")
    divergence = item.get("divergence") or []
    if not all(isinstance(x, dict) for x in divergence):
        raise DocumentError(f"{where}.divergence: not a list of objects")
    return RunRecord(
        run_id=item["run_id"], kind="run", gate=item["gate"], linker=item["linker"], verdict=item["verdict"],
        started_at=item["started_at"], wall_s=float(item["duration_s"]),
        commit=item.get("commit"), branch=item.get("branch"), dirty=item.get("dirty"),
        runner=item.get("runner"), host=item.get("host"),
        compile_s=_float(item.get("compile_s")), link_s=_float(item.get("link_s")),
        units_rebuilt=item.get("units_compiled"), units_fresh=item.get("units_fresh"),
        cold=item.get("cold"), forced_relink=item.get("forced_relink"), recipes=tuple(recipes),
        indistinct=tuple(indistinct),
        directives_digest=item.get("directives_digest"), links=tuple(links), divergence=tuple(divergence),
    )


# linkgate.gate.run's verdicts (LINKED, LINK_FAILED, COMPILE_FAILED, ERROR, LINKER_OVERRIDDEN);
# tests/unit/history keeps the two lists equal.
RUN_VERDICTS = frozenset({"linked", "link-failed", "compile-failed", "error", "linker-overridden"})


def _iso_time(text: str) -> bool:
    from datetime import datetime

    try:
        datetime.fromisoformat(text)  # Python 3.11 reads a trailing Z too
    except ValueError:
        return False
    return len(text) >= 10


def _float(v: Any) -> float | None:
    return None if v is None else float(v)


def _name(typ: type | tuple[type, ...]) -> str:
    types: Sequence[type] = typ if isinstance(typ, tuple) else (typ,)
    names = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "list": "list"}
    return " or ".join(dict.fromkeys(names.get(t.__name__, t.__name__) for t in types))


def from_results(results: Iterable[GateResult], context: RunContext | None = None) -> list[RunRecord]:
    return [from_result(r, context) for r in results]


def from_outcomes(outcomes: Iterable[ControlOutcome], context: RunContext | None = None) -> list[RunRecord]:
    return [rec for o in outcomes if (rec := from_outcome(o, context)) is not None]

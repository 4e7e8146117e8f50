"""Fan a gate's linkers out over GitHub Actions runners, and merge the legs back.

GitHub Actions is the distributed engine our users already run: ``linkgate
matrix`` prints the legs for ``strategy.matrix``, each leg runs ``linkgate
run --only GATE:LINKER``, and ``linkgate report merge`` joins the legs'
documents into one verdict where a missing leg is an error, never a pass.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.config import Gate
from linkgate.errors import UsageError

MISSING = "leg missing: no report from this (gate, linker) leg; its job failed before writing one, or its artifact was lost"


def plan(gates: Sequence[Gate]) -> dict[str, Any]:
    return {"include": [{"gate": g.name, "linker": linker,
                         "runs-on": list(g.runner) if len(g.runner) > 1 else g.runner[0]}
                        for g in gates for linker in g.linkers]}


def parse_only(values: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for value in values:
        gate, sep, linker = value.rpartition(":")
        if not sep or not gate or not linker:
            raise UsageError(f"--only {value!r}: expected GATE:LINKER", hint="e.g. --only xla-link:bfd")
        out.append((gate, linker))
    return out


def load_legs(files: Sequence[str]) -> list[dict[str, Any]]:
    docs = []
    seen: dict[tuple[str, str], str] = {}
    for name in files:
        path = Path(name)
        try:
            doc = json.loads(repofs.read_text(path, inside=None, limit=repofs.MAX_PAYLOAD))
        except FileNotFoundError:
            raise UsageError(f"{name}: leg report does not exist", hint="a missing leg is an error, not a pass; "
                             "check the leg job's log and its uploaded artifact") from None
        except (OSError, ValueError) as exc:
            raise UsageError(f"{name}: not a readable JSON report ({exc})") from None
        if not isinstance(doc, dict) or doc.get("schema") != "linkgate.run/1" or not isinstance(doc.get("results"), list):
            raise UsageError(f"{name}: not a linkgate.run/1 document",
                             hint="pass the files written by `linkgate run --format json --output FILE`")
        for k, result in enumerate(doc["results"]):
            if not (isinstance(result, dict) and isinstance(result.get("gate"), str)
                    and isinstance(result.get("linker"), str) and isinstance(result.get("verdict"), str)):
                raise UsageError(f"{name}: results[{k}] is not a (gate, linker) result with a verdict",
                                 hint="pass the files written by `linkgate run --format json --output FILE`")
            problem = bad_result(result)
            if problem:
                raise UsageError(f"{name}: results[{k}].{problem}",
                                 hint="pass the files written by `linkgate run --format json --output FILE`")
            pair = (result["gate"], result["linker"])
            if pair in seen:
                raise UsageError(
                    f"{name}: {pair[0]} [{pair[1]}] is reported again (first in {seen[pair]}); "
                    "one (gate, linker) counted twice would pass for a leg that did not run",
                    hint="pass each leg's report once (a leg that ran twice: keep the report of the run to judge)")
            seen[pair] = name
        docs.append(doc)
    return docs


_VERDICTS = ("linked", "link-failed", "compile-failed", "error", "linker-overridden")
_STRINGS = ("failed_targets", "linker_output", "messages", "warnings")
_DIAG_TEXT = ("hint", "level", "build_script", "symbol", "demangled", "library", "referenced_from", "source",
              "linker")


def _strs(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def bad_result(r: dict[str, Any]) -> str:
    """What in one leg's result the merged report could not render ("" when nothing):
    the keys ``linkgate run --format json`` always writes, with their types."""
    import math

    if r["verdict"] not in _VERDICTS:
        return f"verdict: {r['verdict'][:40]!r} is not one of {', '.join(_VERDICTS)}"
    for key in ("proven", "forced_relink"):
        if not isinstance(r.get(key), bool):
            return f"{key}: missing or not true/false"
    d = r.get("duration_s")
    if isinstance(d, bool) or not isinstance(d, (int, float)) or not math.isfinite(d) or d < 0:
        return "duration_s: missing or not a finite number of zero or more"
    for key in _STRINGS:
        if not _strs(r.get(key)):
            return f"{key}: missing or not a list of strings"
    for key in ("linked", "up_to_date"):
        items = r.get(key)
        if not (isinstance(items, list) and all(
                isinstance(a, dict) and isinstance(a.get("path"), str) and isinstance(a.get("target"), str)
                for a in items)):
            return f"{key}: missing or not a list of {{target, path}} objects"
    diags = r.get("diagnostics")
    if not isinstance(diags, list):
        return "diagnostics: missing or not a list"
    for j, diag in enumerate(diags):
        if not (isinstance(diag, dict) and isinstance(diag.get("kind"), str) and isinstance(diag.get("message"), str)):
            return f"diagnostics[{j}]: not an object with a kind and a message"
        if any(diag.get(key) is not None and not isinstance(diag[key], str) for key in _DIAG_TEXT):
            return f"diagnostics[{j}]: a text field ({', '.join(_DIAG_TEXT)}) is not a string"
        for rl in diag.get("directives") or []:
            if not (isinstance(rl, dict) and all(isinstance(rl.get(x), str) for x in ("key", "value", "output_file"))
                    and isinstance(rl.get("line"), int)
                    and (rl.get("build_script") is None or isinstance(rl["build_script"], str))):
                return f"diagnostics[{j}].directives: not a list of {{key, value, output_file, line}} objects"
    found = r.get("divergence")
    if found is not None and not (isinstance(found, list) and all(
            isinstance(d, dict) and all(isinstance(d.get(x), str) for x in ("kind", "target", "detail", "level"))
            and _strs(d.get("linkers")) and len(d["linkers"]) == 2 for d in found)):
        return "divergence: not a list of {kind, target, linkers (two), detail, level} objects"
    return ""


def merge(docs: Sequence[dict[str, Any]], expected: dict[str, Any] | None) -> list[dict[str, Any]]:
    """All legs' results; an expected (gate, linker) with no result becomes an ``error`` result."""
    results = [r for d in docs for r in d["results"]]
    if expected is not None:
        have = {(r["gate"], r["linker"]) for r in results}
        for leg in expected.get("include", []):
            if (leg["gate"], leg["linker"]) not in have:
                results.append({
                    "gate": leg["gate"], "linker": leg["linker"], "verdict": "error", "forced_relink": False,
                    "proven": False, "linked": [], "up_to_date": [], "failed_targets": [], "diagnostics": [],
                    "linker_output": [], "messages": [MISSING], "warnings": [], "duration_s": 0.0,
                })
    return results


def parse_expected(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--expect: not JSON ({exc})", hint="pass the output of `linkgate matrix`") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("include"), list):
        raise UsageError("--expect: expected {\"include\": [...]} as printed by `linkgate matrix`")
    for k, leg in enumerate(doc["include"]):
        if not (isinstance(leg, dict) and isinstance(leg.get("gate"), str) and isinstance(leg.get("linker"), str)):
            raise UsageError(f"--expect: include[{k}] is not a {{gate, linker}} leg",
                             hint="pass the output of `linkgate matrix`")
    return doc

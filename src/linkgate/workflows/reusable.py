"""Reusable workflows (``on: workflow_call``) as their callers run them.

A job ``jobs.X.uses: ./.github/workflows/y.yml`` runs y.yml's jobs with the
``inputs`` context bound from X's ``with:`` (each value evaluated under X's
own matrix combination), then y.yml's declared defaults, then the type's
zero (docs.github.com, "Reusing workflows": an input that is not given and
has no default is ``false``, ``0`` or ``""``). A value linkgate cannot
compute leaves that input unknown, never guessed: what reads it is named.

The caller's matrix and ``with:`` may only use github, needs, strategy,
matrix, inputs and vars (GitHub's context table), so ``env`` is never
consulted for them. A strategy matrix may be an expression of ``inputs``
(``${{ inputs.all && fromJSON('[true, false]') || fromJSON('[true]') }}``),
evaluated here before it is expanded.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from linkgate.workflows import ghexpr
from linkgate.workflows.expr import ExprContext, booleans, substitute_plain
from linkgate.workflows.model import Workflow, call_inputs
from linkgate.workflows.read import WORKFLOW_DIR

# docs.github.com, "Reusing workflows", "Nesting reusable workflows": on github.com "a maximum
# of ten levels of workflows - the top-level caller workflow and up to nine levels of reusable
# workflows" (four on GitHub Enterprise Server); a deeper call fails the run.
MAX_LEVELS = 10
# Each caller combination runs the called workflow once, and calls nest: a chain of matrices
# multiplies. GitHub refuses a matrix past 256 jobs; past this many called runs per audited
# workflow the rest is not followed (an `unresolved` note), so the work stays bounded.
MAX_CALLED_RUNS = 1024
_WHOLE = re.compile(r"^\s*\$\{\{(.*)\}\}\s*$", re.S)
_REMOTE = re.compile(r"^[\w.-]+/[\w.-]+/\.github/workflows/[^@]+@\S+$")


class _Unknown:
    pass


UNKNOWN = _Unknown()


def local_target(uses: str) -> str | None:
    """The repository path of a local reusable workflow (`./.github/workflows/y.yml`), or None
    when *uses* is not local. GitHub takes only files directly in .github/workflows."""
    text = uses.strip()
    if not text.startswith("./"):
        return None
    rel = posixpath.normpath(text[2:])
    return rel


def is_workflow_path(rel: str) -> bool:
    return posixpath.dirname(rel) == WORKFLOW_DIR and rel.endswith((".yml", ".yaml"))


def is_remote(uses: str) -> bool:
    return _REMOTE.match(uses.strip()) is not None


def value(raw: Any, ctx: ExprContext) -> Any:
    """*raw* (a `with:` value, a default, a matrix entry) with its expressions evaluated; UNKNOWN
    when one cannot be. A plain YAML `true` is the boolean GitHub reads."""
    if isinstance(raw, str) and "${{" in raw:
        m = _WHOLE.match(raw)
        if m and "${{" not in m.group(1):
            found = ghexpr.evaluate(m.group(1), ctx.contexts())
            return UNKNOWN if isinstance(found, ghexpr.Unknown) else _ints(found)
        text, unknown = substitute_plain(raw, ctx)
        return UNKNOWN if unknown else text
    return booleans(raw)


def _ints(found: Any) -> Any:
    """The expression language has one number type; a whole one reads back as YAML wrote it."""
    if isinstance(found, float) and found.is_integer():
        return int(found)
    if isinstance(found, list):
        return [_ints(v) for v in found]
    if isinstance(found, Mapping):
        return {k: _ints(v) for k, v in found.items()}
    return found


def matrix(raw: Any, ctx: ExprContext) -> Any:
    """A strategy matrix with its expressions evaluated where they can be; what cannot stays as
    written (so the matrix is unknown, as before)."""
    if isinstance(raw, str):
        if "${{" not in raw:
            return raw  # as written: `expr` reads a plain `true` as the boolean when it is used
        found = value(raw, ctx)
        return raw if found is UNKNOWN else found
    if isinstance(raw, list):
        return [matrix(v, ctx) for v in raw]
    if isinstance(raw, Mapping):
        return {k: matrix(v, ctx) for k, v in raw.items()}
    return raw


def bind(decl: Mapping[str, Any], given: Mapping[str, Any], ctx: ExprContext) -> Mapping[str, Any]:
    """The `inputs` context: *given* (`with:`) evaluated in *ctx*, else the declared default,
    else the type's zero; an ``OpenMap`` when some input cannot be known."""
    known: dict[str, Any] = {}
    unknown = False
    lowered = {str(k).lower(): v for k, v in given.items()}
    for name, spec in decl.items():
        spec = spec if isinstance(spec, Mapping) else {}
        kind = str(spec.get("type") or "string")
        if str(name).lower() in lowered:
            raw = lowered[str(name).lower()]
        elif "default" in spec:
            raw = spec["default"]
        elif booleans(spec.get("required")) is True:
            unknown = True  # GitHub refuses the call; nothing to read
            continue
        else:
            raw = {"boolean": False, "number": 0}.get(kind, "")
        found = value(raw, ctx)
        if found is UNKNOWN:
            unknown = True
            continue
        typed = _typed(found, kind)
        if typed is UNKNOWN:
            unknown = True
            continue
        known[str(name)] = typed
    return ghexpr.OpenMap(known) if unknown else known


def _typed(found: Any, kind: str) -> Any:
    if kind == "boolean":
        if isinstance(found, bool):
            return found
        text = ghexpr.render(found).strip().lower()
        return {"true": True, "false": False}.get(text, UNKNOWN)
    if kind == "number":
        if isinstance(found, (int, float)) and not isinstance(found, bool):
            return found
        try:
            number = float(ghexpr.render(found))
        except ValueError:
            return UNKNOWN
        return int(number) if number.is_integer() else number
    return found if isinstance(found, str) else ghexpr.render(found)


def direct_inputs(wf: Workflow) -> Mapping[str, Any] | None:
    """The `inputs` of a reusable workflow run by its own triggers (not by a caller): a
    `workflow_dispatch` run has that trigger's declared defaults (an input required without one
    is chosen by a person: unknown); any other event's run has none (`inputs.x` is null).
    None when both kinds of event start it (the inputs differ between them)."""
    events = [e for e in wf.on if e != "workflow_call"]
    if not events:
        return None
    if "workflow_dispatch" not in events:
        return {}
    if len(events) > 1:
        return None
    cfg = wf.on.get("workflow_dispatch")
    decl = cfg.get("inputs") if isinstance(cfg, dict) else None
    return bind(decl if isinstance(decl, dict) else {}, {}, ExprContext())


def declared(wf: Workflow) -> Mapping[str, Any]:
    return call_inputs(wf) or {}

"""Local composite actions (``uses: ./path``) as GitHub runs them for the calling job.

docs.github.com, "Metadata syntax for GitHub Actions": the directory's
``action.yml`` (or ``action.yaml``) declares ``inputs`` (each with an
optional ``default``), ``outputs`` (each a ``value`` expression, usually
``${{ steps.X.outputs.Y }}``) and ``runs``; ``runs.using: composite`` runs
``runs.steps`` in the calling job, each ``run:`` step with its required
``shell:``. An input the caller's ``with:`` does not give takes its
``default`` (itself an expression over github, env, ...), else ``""``; a
required input without a value is ``""`` too (the runner only warns).
``./`` in ``uses:`` is the workspace (the repository), also inside an action.
Composite actions nest up to ten levels ("Composite action depth exceeded");
a cycle never ends on GitHub, and is not followed here.

This module loads and parses the metadata and binds the inputs; the steps
are read by ``workflows.invocations`` as a job's steps are.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from linkgate.workflows import ghexpr, reusable
from linkgate.workflows.expr import ExprContext
from linkgate.workflows.model import Step, parse_step
from linkgate.workflows.yamlnodes import YamlError, YMap, load_bytes

# docs.github.com: a composite action may call others down to this many levels (the runner
# stops the job past it).
MAX_DEPTH = 10
NAMES = ("action.yml", "action.yaml")
# Each call runs the action's steps again, and calls nest: ten levels of ten calls each is 10^10
# runs. Past this many runs of local actions per audited workflow the rest is not followed (an
# `unresolved` note and a gap that may run cargo), so the work stays bounded.
MAX_RUNS = 1024


@dataclass(frozen=True)
class Action:
    rel: str  # the metadata file
    directory: str
    using: str
    inputs: Mapping[str, Any]
    outputs: Mapping[str, Any]
    steps: tuple[Step, ...]
    line: int  # of `runs:`


@dataclass(frozen=True)
class Unloadable:
    rel: str
    why: str
    line: int = 1


def directory_of(uses: str) -> str | None:
    """The repository directory of `uses: ./path` (or `./path/`), None when it leaves the repository."""
    rel = posixpath.normpath(uses.strip()[2:]) if uses.strip().startswith("./") else ""
    if not rel or rel.startswith(("..", "/")):
        return None
    return "" if rel == "." else rel


def load(directory: str, read: Callable[[str], str | None]) -> Action | Unloadable | None:
    """The action in *directory* (read through *read*, the repository's guarded reader); None
    when neither metadata file is there or could be read."""
    for name in NAMES:
        rel = f"{directory}/{name}" if directory else name
        text = read(rel)
        if text is None:
            continue
        try:
            root = load_bytes(text.encode("utf-8", "replace"))
        except YamlError as exc:
            return Unloadable(rel, f"it is not valid YAML ({exc.message})", exc.line or 1)
        if not isinstance(root, YMap) or not isinstance(root.get("runs"), YMap):
            return Unloadable(rel, "it has no `runs:` mapping", 1)
        runs = root["runs"]
        using = str(runs.get("using") or "").strip().lower()
        raw_steps = runs.get("steps")
        steps = tuple(parse_step(i, s) for i, s in enumerate(raw_steps if isinstance(raw_steps, list) else [])
                      if isinstance(s, YMap))
        inputs = root.get("inputs")
        outputs = root.get("outputs")
        return Action(rel, directory, using, inputs if isinstance(inputs, Mapping) else {},
                      outputs if isinstance(outputs, Mapping) else {}, steps, root.key_lines.get("runs", 1))
    return None


def bind(action: Action, given: Mapping[str, Any], caller: ExprContext) -> Mapping[str, Any]:
    """The action's `inputs` context: *given* (the step's `with:`) evaluated in the caller's
    context, else the declared default (evaluated there too), else ""; every value a string, as
    the runner passes them. An ``OpenMap`` when some input cannot be computed."""
    known: dict[str, Any] = {}
    unknown = False
    lowered = {str(k).lower(): v for k, v in given.items()}
    names = [str(n) for n in action.inputs] + [str(n) for n in given if str(n).lower() not in
                                              {str(d).lower() for d in action.inputs}]
    for name in names:
        spec = action.inputs.get(name)
        spec = spec if isinstance(spec, Mapping) else {}
        if name.lower() in lowered:
            raw = lowered[name.lower()]
        elif "default" in spec:
            raw = spec["default"]
        else:
            raw = ""
        found = reusable.value(raw, caller)
        if found is reusable.UNKNOWN:
            unknown = True
            continue
        known[name] = found if isinstance(found, str) else ghexpr.render(found)
    return ghexpr.OpenMap(known) if unknown else known


def outputs(action: Action, ctx: ExprContext) -> dict[str, str] | None:
    """The action's `outputs` as the caller's `steps.<id>.outputs`: each `value` computed from
    the action's steps; None when one cannot be (then every output of the step is unknown)."""
    out: dict[str, str] = {}
    for name, spec in action.outputs.items():
        raw = spec.get("value") if isinstance(spec, Mapping) else None
        if raw is None:
            continue
        found = reusable.value(raw, ctx)
        if found is reusable.UNKNOWN:
            return None
        out[str(name)] = found if isinstance(found, str) else ghexpr.render(found)
    return out

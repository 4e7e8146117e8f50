"""Matrices fed by another job's output, when that job writes a literal.

``strategy.matrix: ${{ fromJSON(needs.x.outputs.m) }}`` (the whole matrix) or
``target: ${{ fromJSON(needs.x.outputs.targets) }}`` (one axis) take their value
from job ``x``'s ``outputs.m``, which names a step output
(``${{ steps.s.outputs.m }}``); step ``s`` writes it with
``echo "m=VALUE" >> "$GITHUB_OUTPUT"`` (GitHub's step-output file) or the deprecated
``echo "::set-output name=m::VALUE"``. When VALUE is a
JSON literal written in the script (no variable, no command substitution), the
matrix is that literal; anything else is left as written (one unknown
combination, as before).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from linkgate.workflows.model import Job, Workflow

_FROM_JSON = re.compile(r"^\$\{\{\s*fromJSON\(\s*needs\.([\w-]+)\.outputs\.([\w-]+)\s*\)\s*\}\}$", re.I)
_STEP_OUTPUT = re.compile(r"^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$")


def resolve(wf: Workflow, job: Job) -> Any:
    """*job*'s matrix with every `fromJSON(needs.X.outputs.Y)` replaced by the literal X writes."""
    matrix = job.matrix
    if isinstance(matrix, str):
        found = _value(wf, job, matrix)
        return found if isinstance(found, Mapping) else matrix
    if not isinstance(matrix, Mapping):
        return matrix
    out: dict[str, Any] = {}
    for key, value in matrix.items():
        found = _value(wf, job, value) if isinstance(value, str) else None
        out[key] = found if isinstance(found, list) else value
    return out


def _value(wf: Workflow, job: Job, text: str) -> Any:
    m = _FROM_JSON.match(text.strip())
    if m is None or m.group(1) not in job.needs:
        return None
    producer = next((j for j in wf.jobs if j.id == m.group(1)), None)
    output = producer.outputs.get(m.group(2)) if producer is not None else None
    ref = _STEP_OUTPUT.match(output.strip()) if isinstance(output, str) else None
    if producer is None or ref is None:
        return None
    step = next((s for s in producer.steps if s.id == ref.group(1)), None)
    if step is None or step.run is None:
        return None
    written = _written(str(step.run), ref.group(2))
    if written is None:
        return None
    try:
        return json.loads(written)
    except ValueError:
        return None


def _written(script: str, name: str) -> str | None:
    """The literal `echo NAME=VALUE >> $GITHUB_OUTPUT` writes, when exactly one line does."""
    pattern = re.compile(
        rf"""^\s*echo\s+(?:'{re.escape(name)}=([^'$`]*)'|"{re.escape(name)}=((?:[^"$`\\]|\\.)*)"|{re.escape(name)}=(\S+))"""
        r"""\s*>>\s*"?\$\{?GITHUB_OUTPUT\}?"?\s*$""", re.M)
    # The deprecated workflow command `echo "::set-output name=NAME::VALUE"` writes the same output.
    legacy = re.compile(rf"""^\s*echo\s+(['"]?)::set-output name={re.escape(name)}::(.*?)\1\s*$""", re.M)
    older = [m.group(2) for m in legacy.finditer(script)]
    found = [m for m in pattern.finditer(script)]
    if len(found) + len(older) != 1:
        return None
    if older:
        value = older[0]
        return None if "$" in value or "`" in value else value.replace('\\"', '"')
    m = found[0]
    if m.group(1) is not None:
        return m.group(1)
    if m.group(2) is not None:
        return re.sub(r"\\(.)", r"\1", m.group(2))
    value = m.group(3)
    return None if "$" in value or "`" in value else value

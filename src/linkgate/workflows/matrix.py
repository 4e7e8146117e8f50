"""Expand ``strategy.matrix`` the way GitHub does.

Rules (docs.github.com, "Running variations of jobs in a workflow"):
- the axes (every key but ``include``/``exclude``) form a cartesian product;
- an ``exclude`` entry removes every combination it matches (it may name
  only some axes);
- each ``include`` entry is added to every combination where none of its
  keys would overwrite an *original* axis value (values added by an earlier
  include may be overwritten); an entry that fits no combination becomes a
  combination of its own.
GitHub refuses matrices of more than 256 jobs; so do we, by truncating.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

MAX_COMBINATIONS = 256


def expand(matrix: Any) -> list[dict[str, Any]] | None:
    """Combinations in GitHub's order; ``[{}]`` without a matrix; None when
    the matrix is an expression (``fromJSON(...)``) linkgate cannot evaluate."""
    if matrix is None:
        return [{}]
    if not isinstance(matrix, Mapping):
        return None
    axes = {k: v for k, v in matrix.items() if k not in ("include", "exclude")}
    if any(not isinstance(v, list) for v in axes.values()):
        return None
    include = matrix.get("include", [])
    exclude = matrix.get("exclude", [])
    if not isinstance(include, list) or not isinstance(exclude, list):
        return None
    combos: list[dict[str, Any]] = []
    if axes:
        names = list(axes)
        for values in itertools.product(*(axes[n] for n in names)):
            combos.append(dict(zip(names, values)))
            if len(combos) >= MAX_COMBINATIONS:
                break
    combos = [c for c in combos if not any(_matches(c, e) for e in exclude if isinstance(e, Mapping))]
    # Includes extend only the product's combinations; one that fits none is
    # appended as its own job, and later includes never extend appended ones.
    originals = [dict(c) for c in combos]
    added: list[dict[str, Any]] = []
    for entry in include:
        if not isinstance(entry, Mapping):
            continue
        fitted = False
        for combo, original in zip(combos, originals):
            if all(k not in original or _same(original[k], v) for k, v in entry.items()):
                combo.update({k: v for k, v in entry.items() if k not in original})
                fitted = True
        if not fitted:
            added.append(dict(entry))
    combos += added
    return combos[:MAX_COMBINATIONS] or [{}]


def product_size(matrix: Any) -> int:
    """How many combinations the axes make before excludes and includes (0 without a matrix)."""
    if not isinstance(matrix, Mapping):
        return 0
    axes = [v for k, v in matrix.items() if k not in ("include", "exclude")]
    if not axes or any(not isinstance(v, list) for v in axes):
        return 0
    total = 1
    for values in axes:
        total *= len(values)
    return total


def _matches(combo: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    return all(k in combo and _subset(v, combo[k]) for k, v in entry.items())


def _subset(pattern: Any, value: Any) -> bool:
    """An exclude value that is a mapping matches on the keys it names."""
    if isinstance(pattern, Mapping) and isinstance(value, Mapping):
        return all(k in value and _subset(v, value[k]) for k, v in pattern.items())
    return _same(pattern, value)


def _same(a: Any, b: Any) -> bool:
    """Equal as GitHub compares matrix values: an axis from `fromJSON('[true, false]')` holds
    booleans, an include entry's plain `true` is the same value."""
    return bool(_scalar(a) == _scalar(b))


def _scalar(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    return value

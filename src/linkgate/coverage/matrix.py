"""The coverage matrix: recipe x (gate, linker, runner), from recorded runs.

A cell is ``linked`` when some run in that column linked with the recipe
active, ``not-linked`` when runs there selected it and none linked, and
``not-selected`` otherwise. Columns are the (gate, linker, runner) triples
that recorded any run, so a runner whose documents were imported gets its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from linkgate.config import Recipe
from linkgate.coverage.status import runner_of
from linkgate.history.model import RunRecord

LINKED = "linked"
NOT_LINKED = "not-linked"
NOT_SELECTED = "not-selected"


@dataclass(frozen=True)
class Column:
    gate: str
    linker: str
    runner: str | None

    @property
    def label(self) -> str:
        return f"{self.gate} [{self.linker}] on {self.runner or 'unknown runner'}"


@dataclass(frozen=True)
class Cell:
    state: str
    last_linked: str | None = None   # started_at of the latest linking run
    runs: int = 0                    # runs in this column with the recipe active


@dataclass(frozen=True)
class Matrix:
    columns: tuple[Column, ...]
    rows: tuple[tuple[Recipe, tuple[Cell, ...]], ...]


def matrix(recipes: Sequence[Recipe], runs: Sequence[RunRecord]) -> Matrix:
    names = {r.name for r in recipes}
    seen: set[Column] = set()
    count: dict[tuple[str, Column], int] = {}
    latest: dict[tuple[str, Column], str] = {}
    for run in runs:
        if run.kind != "run":
            continue
        col = Column(run.gate, run.linker, runner_of(run))
        seen.add(col)
        for name in run.recipes:
            if name not in names:
                continue
            key = (name, col)
            count[key] = count.get(key, 0) + 1
            if run.verdict == "linked" and run.started_at > latest.get(key, ""):
                latest[key] = run.started_at
    columns = tuple(sorted(seen, key=lambda c: (c.gate, c.linker, c.runner or "")))
    rows = []
    for recipe in recipes:
        cells = []
        for col in columns:
            key = (recipe.name, col)
            if key in latest:
                cells.append(Cell(LINKED, latest[key], count[key]))
            elif key in count:
                cells.append(Cell(NOT_LINKED, None, count[key]))
            else:
                cells.append(Cell(NOT_SELECTED))
        rows.append((recipe, tuple(cells)))
    return Matrix(columns, tuple(rows))

"""Each recipe's coverage from recorded runs: covered, indistinct, never-linked or never-selected.

Pure over ``RunRecord``s, so history from any runner merges into one answer.
Only ``run`` rows count: a negative control's link is meant to fail, and a
``prove`` row's verdict is the control's outcome, not a link.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linkgate.config import Recipe
from linkgate.history.model import RunRecord
from linkgate.report.markdown import code

SCHEMA = "linkgate.coverage/1"
COVERED = "covered"
# A linked run printed this branch's directives, but another branch prints them too and no
# recorded value said which ran: not covered, and not known to be a gap either.
INDISTINCT = "indistinct"
NEVER_LINKED = "never-linked"
NEVER_SELECTED = "never-selected"


@dataclass(frozen=True)
class LinkedBy:
    gate: str
    linker: str
    runner: str | None
    commit: str | None
    date: str

    def to_dict(self) -> dict[str, Any]:
        return {"gate": self.gate, "linker": self.linker, "runner": self.runner,
                "commit": self.commit, "date": self.date}


@dataclass(frozen=True)
class RecipeCoverage:
    recipe: Recipe
    status: str
    linked_by: tuple[LinkedBy, ...]   # latest linked run per (gate, linker, runner)
    selected_by: tuple[str, ...]      # configured gates whose env, target and features select it
    selectable_by: tuple[str, ...]    # configured gates whose target and features allow it
    active_runs: int                  # recorded runs that had it active, linked or not
    indistinct_runs: int = 0          # linked runs that printed its directives but could not tell it apart
    cannot_tell: str = ""             # why, and which evidence would (coverage/printed.py)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.recipe.name,
            "status": self.status,
            "file": self.recipe.file,
            "line": self.recipe.line,
            "selected_by": list(self.selected_by),
            "selectable_by": list(self.selectable_by),
            "active_runs": self.active_runs,
            "linked_by": [b.to_dict() for b in self.linked_by],
            "indistinct_runs": self.indistinct_runs,
            **({"cannot_tell": self.cannot_tell} if self.status == INDISTINCT else {}),
        }


@dataclass(frozen=True)
class Coverage:
    recipes: tuple[RecipeCoverage, ...]
    runs: int
    runners: tuple[str, ...]

    @property
    def gaps(self) -> tuple[RecipeCoverage, ...]:
        return tuple(r for r in self.recipes if r.status != COVERED)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "runs": self.runs,
            "runners": list(self.runners),
            "recipes": [r.to_dict() for r in self.recipes],
        }


def runner_of(record: RunRecord) -> str | None:
    """The runner name, else the host: a laptop run has no $RUNNER_NAME but is still a machine."""
    return record.runner or record.host


def coverage(
    recipes: Sequence[Recipe],
    runs: Sequence[RunRecord],
    selected_by: Mapping[str, Sequence[str]],
    selectable_by: Mapping[str, Sequence[str]],
    cannot_tell: Mapping[str, str] | None = None,
) -> Coverage:
    """*selected_by* / *selectable_by* map a recipe name to configured gate names
    (``linkgate.gate.recipes.selected_by`` / ``selectable_by``).

    ``never-selected`` needs both: no gate's target and features allow the
    recipe, and no recorded run (from any runner) had it active.
    """
    link_runs = [r for r in runs if r.kind == "run"]
    # Each run filed under the recipes it had active, once: scanning every run per
    # recipe made 100 recipes over 100,000 runs ten million steps.
    by_recipe: dict[str, list[RunRecord]] = {}
    unclear: dict[str, int] = {}
    for run in link_runs:
        for active_name in dict.fromkeys(run.recipes):
            by_recipe.setdefault(active_name, []).append(run)
        if run.verdict == "linked":
            for unclear_name in dict.fromkeys(run.indistinct):
                unclear[unclear_name] = unclear.get(unclear_name, 0) + 1
    out = []
    for recipe in recipes:
        latest: dict[tuple[str, str, str | None], RunRecord] = {}
        active = 0
        for run in by_recipe.get(recipe.name, ()):
            active += 1
            if run.verdict != "linked":
                continue
            key = (run.gate, run.linker, runner_of(run))
            if key not in latest or run.started_at > latest[key].started_at:
                latest[key] = run
        by = tuple(
            LinkedBy(r.gate, r.linker, runner_of(r), r.commit, r.started_at)
            for _, r in sorted(latest.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or ""))
        )
        gates = tuple(selected_by.get(recipe.name, ()))
        could = tuple(selectable_by.get(recipe.name, ()))
        if by:
            status = COVERED
        elif unclear.get(recipe.name):
            status = INDISTINCT
        elif could or gates or active:
            status = NEVER_LINKED
        else:
            status = NEVER_SELECTED
        out.append(RecipeCoverage(recipe, status, by, gates, could, active, unclear.get(recipe.name, 0),
                                  (cannot_tell or {}).get(recipe.name, "")))
    runners = sorted({name for r in link_runs if (name := runner_of(r)) is not None})
    return Coverage(tuple(out), len(link_runs), tuple(runners))


def comment_block(cov: Coverage) -> str:
    """Markdown for a workflow comment: each recipe no recorded run linked, as a recorded gap.

    Reused by ``ci github``. Says what the history shows and no more: a gap
    means no recorded link, not a broken recipe, and an absent gap is only as
    good as the runs that were recorded.
    """
    source = f"{cov.runs} recorded run{'s' if cov.runs != 1 else ''}"
    if cov.runners:
        source += " from " + ", ".join(code(r) for r in cov.runners)
    gaps = cov.gaps
    if not cov.recipes:
        return f"linkgate coverage: no `[[recipe]]` is configured ({source}).\n"
    if not gaps:
        return f"linkgate coverage: every link recipe was linked by at least one of {source}.\n"
    lines = [
        f"linkgate coverage: {len(gaps)} of {len(cov.recipes)} link recipes "
        f"{'has' if len(gaps) == 1 else 'have'} no recorded link ({source}).",
        "",
    ]
    for item in gaps:
        where = f" ({code(item.recipe.location)})" if item.recipe.location else ""
        if item.status == INDISTINCT:
            why = (f"{item.indistinct_runs} linked run{'s' if item.indistinct_runs != 1 else ''} printed its "
                   f"directives, but {item.cannot_tell or 'another branch prints them too'}")
        elif item.status == NEVER_LINKED:
            why = "no recorded run on any runner linked with it active"
            if item.active_runs:
                why += f" ({item.active_runs} selected it and did not link)"
            elif not item.selected_by:
                why += f"; no gate's env selects it ({selection(item.recipe)})"
        else:
            why = ("no gate's target and features can select it "
                   f"({selection(item.recipe)}), so no configured gate can link it")
        why += ". This is a recorded gap, not a recipe known to link."
        lines.append(f"- {code(item.recipe.name)}{where}: {item.status}: {why}")
    return "\n".join(lines) + "\n"


def selection(recipe: Recipe) -> str:
    """The recipe's conditions in words: "needs $B set, $A unset"."""
    parts = [f"${v} set" if "=" not in v else f"${v.replace('=', ' = ', 1)}" for v in recipe.when_env]
    parts += [f"${v} unset" if "=" not in v else f"not ${v.replace('=', ' = ', 1)}" for v in recipe.unless_env]
    if recipe.when_target:
        parts.append(f"target {recipe.when_target}")
    if recipe.unless_target:
        parts.append(f"target not {recipe.unless_target}")
    parts += [f"feature {f}" for f in recipe.when_features]
    parts += [f"feature {f} off" for f in recipe.unless_features]
    return "needs " + ", ".join(parts)

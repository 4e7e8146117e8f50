"""Which recipes a run's build scripts really printed, from cargo's record of their output.

A recipe's ``when-*`` conditions only predict whether its branch of the build
script runs: a feature forwarded under another name (``turbo =
["calc/fast"]``) selects a branch the gate's ``--features`` never names, and
an ``else if`` that compares a value is skipped although its variable is set.
What the script printed is in ``<out_dir>/../output``. A recipe with a
``file`` and ``line`` counts as active in a run only when that script's
recorded output holds the directives written literally in that branch; a
recipe linkgate cannot check that way (no file, a script the run did not
build, a branch whose directives are all formatted at run time) keeps the
prediction.

A recorded line is evidence for a branch only when no other branch of the
script prints it too: when two branches both print ``static=z``, the output
cannot say which ran. Then the recorded value of each variable the recipe's
env conditions name decides (cargo keeps it in the script's run fingerprint
for every ``rerun-if-env-changed``); with no such record, the recipe is
*indistinct* in that run, never active.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs
from linkgate.config import Config, Recipe
from linkgate.coverage.branches import Occurrence, Scan
from linkgate.coverage.suggest import directive_pattern


def _pattern(directive: str) -> re.Pattern[str] | None:
    """``rustc-link-lib=static={}`` as a regex over recorded ``key=value`` lines; None when its
    value is nothing but placeholders (it would match anything)."""
    value = directive.partition("=")[2]
    if not re.sub(r"\{[^{}]*\}", "", value).strip(":="):
        return None
    return directive_pattern(directive)


@dataclass(frozen=True)
class Printed:
    """The recipes a run's build scripts printed the branch of, and those it cannot tell apart."""

    active: tuple[str, ...]
    indistinct: tuple[str, ...] = ()


def _branch(found: Scan, recipe: Recipe) -> list[Occurrence]:
    occs = [o for o in found.occurrences if o.branch_line == recipe.line]
    return occs or [o for o in found.occurrences if o.line == recipe.line]


def _scan(source: Path) -> Scan | None:
    from linkgate.coverage.branches import scan

    try:
        return scan(repofs.read_text(source, inside=None, errors="replace"))
    except OSError:
        return None


def twins(root: Path, recipe: Recipe) -> tuple[list[str], list[int]]:
    """(the directives of *recipe*'s branch that another branch prints too, those branches'
    lines), from the script alone; both empty when the branch has a directive of its own."""
    if recipe.file is None or recipe.line is None:
        return [], []
    found = _scan((root / recipe.file).resolve())
    if found is None:
        return [], []
    mine = _branch(found, recipe)
    others = [o for o in found.occurrences if o not in mine]
    shared: dict[str, None] = {}
    lines: dict[int, None] = {}
    for o in mine:
        p = _pattern(o.directive)
        same = [q for q in others if p is not None and (p.match(_literal(q.directive))
                                                        or ((qp := _pattern(q.directive)) and qp.match(_literal(o.directive))))]
        if not same:
            return [], []  # one directive only this branch prints: the output tells it apart
        shared[o.directive] = None
        lines.update(dict.fromkeys(q.branch_line or q.line for q in same))
    return list(shared), sorted(lines)


def _literal(directive: str) -> str:
    return re.sub(r" \(via \w+\(\)\)$", "", directive)


def _decided(recipe: Recipe, values: dict[str, str | None]) -> bool | None:
    """Do the recorded env values make *recipe*'s conditions true? None when a condition has no
    record (a variable the script does not watch, a feature: cargo keeps no value of either)."""
    if recipe.when_features or recipe.unless_features or not (recipe.when_env or recipe.unless_env):
        return None
    verdict = True
    for spec, want in [(e, True) for e in recipe.when_env] + [(e, False) for e in recipe.unless_env]:
        var, eq, expected = spec.partition("=")
        if var not in values:
            return None
        value = values[var]
        holds = value is not None and (not eq or value == expected)
        verdict = verdict and holds == want
    return verdict


def printed_recipes(
    config: Config, build_scripts: Sequence[tuple[str, str]], predicted: Sequence[str]
) -> Printed:
    """The recipes active in a run: for those that can be checked, the ones whose branch's
    directives the run's build scripts printed (and told apart from every other branch's);
    for the rest, *predicted*."""
    from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id, read_build_script_output
    from linkgate.cargo.fingerprint import record_for_out_dir

    outputs: dict[Path, list[str]] = {}
    values: dict[Path, dict[str, str | None]] = {}
    for package_id, out_dir in build_scripts:
        manifest = manifest_dir_from_package_id(package_id)
        script = build_script_source(manifest) if manifest else None
        out = read_build_script_output(Path(out_dir), package_id) if out_dir else None
        if script is None or out is None:
            continue
        lines = outputs.setdefault(script.resolve(), [])
        lines += [f"{d.key}={d.value}" for d in out.directives]
        record = record_for_out_dir(out_dir)
        values.setdefault(script.resolve(), {}).update(dict(record.env_values) if record else {})
    active: list[str] = []
    indistinct: list[str] = []
    scans: dict[Path, Scan | None] = {}
    for recipe in config.recipes:
        if recipe.file is None or recipe.line is None:
            if recipe.name in predicted:
                active.append(recipe.name)
            continue
        source = (config.root / recipe.file).resolve()
        found = scans[source] if source in scans else scans.setdefault(source, _scan(source))
        mine = _branch(found, recipe) if found is not None else []
        patterns = [p for o in mine if (p := _pattern(o.directive)) is not None]
        if found is None or not patterns:
            if recipe.name in predicted:
                active.append(recipe.name)
            continue
        recorded = outputs.get(source)
        if recorded is None:
            continue  # the run did not build that script: it printed nothing of it
        if not all(any(p.match(line) for line in recorded) for p in patterns):
            continue
        others = [q for o in found.occurrences if o not in mine if (q := directive_pattern(o.directive))]
        if any(p.match(line) and not any(q.match(line) for q in others) for p in patterns for line in recorded):
            active.append(recipe.name)  # a line only this branch prints
            continue
        decided = _decided(recipe, values.get(source, {}))
        if decided is None:
            indistinct.append(recipe.name)
        elif decided:
            active.append(recipe.name)
    return Printed(tuple(active), tuple(indistinct))


def cannot_tell(root: Path, recipe: Recipe) -> str:
    """Why coverage cannot credit *recipe* from a printed directive, and which evidence would."""
    shared, lines = twins(root, recipe)
    what = ", ".join(f"`{d}`" for d in shared) or "its directives"
    where = ", ".join(f"{recipe.file}:{n}" for n in lines) or "another branch"
    env = [e.partition("=")[0] for e in (*recipe.when_env, *recipe.unless_env)]
    record = (f"print `cargo:rerun-if-env-changed={env[0]}` in the script, so cargo records the value the "
              "branch was chosen by" if env else "a condition on a variable the script watches")
    return (f"the branch at {recipe.file}:{recipe.line} prints {what}, and so does the branch at {where}: "
            f"a recorded output cannot tell them apart. Evidence that would: {record}, or a directive only "
            "this branch prints")


def indistinct_warning(config: Config, name: str) -> str:
    recipe = next(r for r in config.recipes if r.name == name)
    return f"recipe {name!r} is not counted as linked: {cannot_tell(config.root, recipe)}"

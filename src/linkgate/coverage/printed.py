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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from linkgate import repofs
from linkgate.config import Config, Recipe


def _pattern(directive: str) -> re.Pattern[str] | None:
    """``rustc-link-lib=static={}`` as a regex over recorded ``key=value`` lines; None when its
    value is nothing but placeholders (it would match anything)."""
    from linkgate.coverage.suggest import directive_pattern

    value = directive.partition("=")[2]
    if not re.sub(r"\{[^{}]*\}", "", value).strip(":="):
        return None
    return directive_pattern(directive)


def _branch_directives(source: Path, recipe: Recipe) -> list[re.Pattern[str]] | None:
    from linkgate.coverage.branches import scan

    try:
        found = scan(repofs.read_text(source, inside=None, errors="replace"))
    except OSError:
        return None
    occs = [o for o in found.occurrences if o.branch_line == recipe.line]
    if not occs:
        occs = [o for o in found.occurrences if o.line == recipe.line]
    patterns = [p for o in occs if (p := _pattern(o.directive)) is not None]
    return patterns or None


def printed_recipes(
    config: Config, build_scripts: Sequence[tuple[str, str]], predicted: Sequence[str]
) -> tuple[str, ...]:
    """The recipes active in a run: for those that can be checked, the ones whose branch's
    directives the run's build scripts printed; for the rest, *predicted*."""
    from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id, read_build_script_output

    outputs: dict[Path, list[str]] = {}
    for package_id, out_dir in build_scripts:
        manifest = manifest_dir_from_package_id(package_id)
        script = build_script_source(manifest) if manifest else None
        out = read_build_script_output(Path(out_dir), package_id) if out_dir else None
        if script is None or out is None:
            continue
        lines = outputs.setdefault(script.resolve(), [])
        lines += [f"{d.key}={d.value}" for d in out.directives]
    active: list[str] = []
    for recipe in config.recipes:
        if recipe.file is None or recipe.line is None:
            if recipe.name in predicted:
                active.append(recipe.name)
            continue
        source = (config.root / recipe.file).resolve()
        patterns = _branch_directives(source, recipe)
        if patterns is None:
            if recipe.name in predicted:
                active.append(recipe.name)
            continue
        recorded = outputs.get(source)
        if recorded is None:
            continue  # the run did not build that script: it printed nothing of it
        if all(any(p.match(line) for line in recorded) for p in patterns):
            active.append(recipe.name)
    return tuple(active)

"""Propose ``[[recipe]]`` stanzas from build scripts alone, confirmed by built records.

Each distinct set of guards over link directives in a build script is one
recipe. Built records can only confirm, never propose: a target directory
shows the branch that ran in that build, not the ones that did not. A
recorded directive confirms a suggestion only when it matches that
suggestion's literal directives and no other branch's, so an ambiguous
``rustc-link-search={}`` confirms nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate.config import Recipe
from linkgate.coverage.branches import Occurrence, Scan
from linkgate.coverage.conditions import Atom

SCHEMA = "linkgate.coverage-suggest/1"
_NAME_JUNK = re.compile(r"[^a-z0-9._]+")


@dataclass(frozen=True)
class Confirmation:
    gate: str
    linker: str
    directive: str
    output: str        # the build script's recorded output, file:line

    def to_dict(self) -> dict[str, str]:
        return {"gate": self.gate, "linker": self.linker, "directive": self.directive, "output": self.output}


@dataclass(frozen=True)
class Suggestion:
    name: str
    file: str
    line: int
    package: str
    when_env: tuple[str, ...] = ()
    unless_env: tuple[str, ...] = ()
    when_target: str | None = None
    unless_target: str | None = None
    when_features: tuple[str, ...] = ()
    unless_features: tuple[str, ...] = ()
    directives: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()
    confirmed_by: tuple[Confirmation, ...] = ()
    configured: str | None = None     # the [[recipe]] already naming this branch
    # Why the stanza is written commented out: it would not load (a feature the package
    # does not have, so cargo never takes the branch).
    unusable: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "file": self.file, "line": self.line, "package": self.package,
            "when-env": list(self.when_env), "unless-env": list(self.unless_env),
            "when-target": self.when_target, "unless-target": self.unless_target,
            "when-features": list(self.when_features), "unless-features": list(self.unless_features),
            "directives": [{"directive": d, "line": n} for d, n in self.directives],
            "notes": list(self.notes),
            "confirmed_by": [c.to_dict() for c in self.confirmed_by],
            "configured": self.configured,
            "unusable": self.unusable,
        }

    def stanza(self) -> str:
        lines = [f"# {self.file}:{n}: {d}" for d, n in self.directives]
        lines += [f"# note: {n}" for n in self.notes]
        lines += [f"# confirmed: gate {c.gate} [{c.linker}] recorded {c.directive} ({c.output})"
                  for c in self.confirmed_by]
        body = ["[[recipe]]", f"name = {_toml(self.name)}"]
        for key, values in (("when-env", self.when_env), ("unless-env", self.unless_env),
                            ("when-features", self.when_features), ("unless-features", self.unless_features)):
            if values:
                body.append(f"{key} = [{', '.join(_toml(v) for v in values)}]")
        for key, value in (("when-target", self.when_target), ("unless-target", self.unless_target)):
            if value:
                body.append(f"{key} = {_toml(value)}")
        body += [f"file = {_toml(self.file)}", f"line = {self.line}"]
        if self.configured:
            lines.append(f"# already configured as recipe {self.configured!r}")
            body = ["# " + b for b in body]
        elif self.unusable:
            lines.append(f"# not a recipe: {self.unusable}")
            body = ["# " + b for b in body]
        return "\n".join(lines + body) + "\n"


def _toml(text: str) -> str:
    # A JSON string is a valid TOML basic string for everything json.dumps emits.
    return json.dumps(text)


def spelled(feature: str, table: Sequence[str]) -> str | None:
    """A feature as Cargo.toml spells it, or None when the package has no such feature: cargo
    exports ``static-z`` (and an optional dependency ``zng-sys``) as ``CARGO_FEATURE_STATIC_Z``,
    which reads back as ``static_z``; a recipe naming that can never match."""
    if feature in table:
        return feature
    return next((f for f in table if f.replace("-", "_").lower() == feature.replace("-", "_").lower()), None)


def _spell_all(fields: dict[str, Any], package: str, table: Sequence[str] | None) -> str | None:
    """Write the fields' features as Cargo.toml spells them; the reason the stanza cannot load, if any."""
    if table is None:
        return None  # the manifest could not be read: the names stay as the script wrote them
    missing: list[str] = []
    for key in ("when_features", "unless_features"):
        names = []
        for f in fields[key]:
            found = spelled(f, table)
            if found is None:
                missing.append(f)
            names.append(found or f)
        fields[key] = tuple(names)
    if not missing:
        return None
    return (f"package {package} has no feature {', '.join(repr(m) for m in missing)} (its features: "
            f"{', '.join(table) or 'none'}), so cargo never takes this branch")


def suggestions(scan: Scan, file: str, package: str, taken: set[str],
                features: Sequence[str] | None = None) -> list[Suggestion]:
    """One suggestion per distinct guard set over link directives; unguarded ones are common to all.
    *features*: every feature of the package (its table and optional dependencies' implicit
    features), for the names as Cargo.toml spells them; None when unknown."""
    groups: dict[frozenset[Atom], list[Occurrence]] = {}
    for occ in scan.occurrences:
        if occ.atoms:
            groups.setdefault(occ.atoms, []).append(occ)
    out = []
    for atoms, occs in sorted(groups.items(), key=lambda kv: min(o.branch_line or o.line for o in kv[1])):
        notes = [n for o in occs for n in o.notes]
        fields = _fields(atoms, notes)
        if fields is None:
            continue
        unusable = _spell_all(fields, package, features)
        name = _unique(_name(fields), taken)
        directives = tuple(dict.fromkeys(
            (o.directive + (f" (via {o.via}())" if o.via else ""), o.line) for o in occs))
        line = min(o.branch_line or o.line for o in occs)
        out.append(Suggestion(name=name, file=file, line=line, package=package, directives=directives,
                              notes=tuple(dict.fromkeys(notes)), unusable=unusable, **fields))
    return out


def _fields(atoms: frozenset[Atom], notes: list[str]) -> dict[str, Any] | None:
    env = sorted(a.value for a in atoms if a.kind == "env" and not a.negated)
    unless = sorted(a.value for a in atoms if a.kind == "env" and a.negated)
    features = sorted(a.value for a in atoms if a.kind == "feature" and not a.negated)
    no_features = sorted(a.value for a in atoms if a.kind == "feature" and a.negated)
    targets = sorted(a.value for a in atoms if a.kind == "target" and not a.negated)
    not_targets = sorted(a.value for a in atoms if a.kind == "target" and a.negated)
    if len(not_targets) > 1:
        notes.append("only the first of several excluded targets is kept: " + ", ".join(not_targets))
    fields: dict[str, Any] = {"when_env": tuple(env), "unless_env": tuple(unless), "when_features": tuple(features),
                              "unless_features": tuple(no_features),
                              "when_target": _merge_targets(targets, notes),
                              "unless_target": not_targets[0] if not_targets else None}
    if not any(fields.values()):
        return None
    return fields


def _merge_targets(globs: list[str], notes: list[str]) -> str | None:
    """One glob for several target conditions: arch ``aarch64-*`` and OS ``*-apple-darwin``
    become ``aarch64*-apple-darwin`` (the vendor may sit between them)."""
    if not globs:
        return None
    if len(globs) == 2:
        arch = [g for g in globs if g.endswith("-*") and not g.startswith("*")]
        other = [g for g in globs if g.startswith("*-")]
        if len(arch) == 1 and len(other) == 1:
            return arch[0][:-2] + "*" + other[0][1:]
    if len(globs) > 1:
        notes.append("several target conditions; only the first is kept: " + ", ".join(globs))
    return globs[0]


def _name(fields: dict[str, Any]) -> str:
    """``IREE_DIST`` -> ``iree-dist``; ``aarch64*-apple-darwin`` -> ``aarch64-apple-darwin``."""
    def clean(text: str) -> str:
        return _NAME_JUNK.sub("-", text.lower().replace("_", "-")).strip("-.")

    parts = [*fields["when_env"], fields["when_target"] or "", *fields["when_features"]]
    if not any(parts):
        parts = ["without", *fields["unless_env"], fields["unless_target"] or ""]
    return "-".join(c for p in parts if (c := clean(p))) or "recipe"


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    taken.add(candidate)
    return candidate


def directive_pattern(literal: str) -> re.Pattern[str]:
    """A literal from source (``rustc-link-lib=static={lib}``) as a pattern over recorded lines."""
    literal = re.sub(r" \(via \w+\(\)\)$", "", literal)
    parts = re.split(r"\{[^{}]*\}", literal)
    return re.compile(".+?".join(re.escape(p) for p in parts) + r"\Z")


def confirm(items: Sequence[Suggestion], common: Iterable[str],
            recorded: Iterable[tuple[str, str, str, str]]) -> list[Suggestion]:
    """Attach confirmations. *recorded* is (gate, linker, "key=value", "output:line") per directive."""
    from dataclasses import replace

    patterns = [[directive_pattern(d) for d, _ in s.directives] for s in items]
    shared = [directive_pattern(d) for d in common]
    found: list[list[Confirmation]] = [[] for _ in items]
    for gate, linker, directive, where in recorded:
        hits = [i for i, pats in enumerate(patterns) if any(p.match(directive) for p in pats)]
        if len(hits) == 1 and not any(p.match(directive) for p in shared):
            found[hits[0]].append(Confirmation(gate, linker, directive, where))
    return [replace(s, confirmed_by=tuple(dict.fromkeys(f))) for s, f in zip(items, found)]


def mark_configured(items: Sequence[Suggestion], recipes: Sequence[Recipe]) -> list[Suggestion]:
    from dataclasses import replace

    by_place = {(r.file, r.line): r.name for r in recipes if r.file}
    return [replace(s, configured=by_place.get((s.file, s.line))) for s in items]


def common_directives(scan: Scan) -> list[str]:
    return [o.directive for o in scan.occurrences if not o.atoms]


def read_recorded(target_dirs: Iterable[tuple[str, str, Path]], package: str,
                  root: Path) -> list[tuple[str, str, str, str]]:
    """Link directives a package's build script recorded in each (gate, linker) target dir."""
    from linkgate.cargo.buildscript import read_build_script_output

    out = []
    for gate, linker, tdir in target_dirs:
        outputs = sorted(tdir.glob(f"*/build/{package}-*/output")) + sorted(tdir.glob(f"*/*/build/{package}-*/output"))
        for output in outputs:
            if output.parent.name.rsplit("-", 1)[0] != package:
                continue   # `zsys-*` also matches package zsys-extra
            record = read_build_script_output(output.parent / "out")
            if record is None:
                continue
            try:
                shown = output.relative_to(root).as_posix()
            except ValueError:
                shown = output.as_posix()
            for d in record.link_directives():
                out.append((gate, linker, f"{d.key}={d.value}", f"{shown}:{d.line}"))
    return out

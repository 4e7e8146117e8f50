"""Which ``[[recipe]]`` entries a run selects, from its environment, target and features.

A recipe is active when every condition holds: each ``when-env`` variable is
set (any value, even empty: ``env::var(..).is_ok()`` and ``var_os(..).is_some()``
are true for an empty value; ``NAME=VALUE`` asks for that exact value), no
``unless-env`` entry holds, the target
triple matches ``when-target`` and not ``unless-target`` (shell-style globs,
case-sensitive like the triples themselves), and every ``when-features``
feature is enabled.

The target is the gate's ``--target``, else ``CARGO_BUILD_TARGET`` from its
environment, else the host triple that ``rustc -vV`` reports: that is the
triple cargo builds for when none is named.
"""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from linkgate import repofs
from linkgate.cargo.cargoargs import parse
from linkgate.config import Config, Gate, Recipe
from linkgate.errors import LinkgateError
from linkgate.gate import layout


@dataclass(frozen=True)
class Features:
    """The features a build enables: named ones, or all of them."""

    names: frozenset[str] = frozenset()
    all: bool = False

    def enabled(self, feature: str) -> bool:
        if self.all:
            return True
        # `--features pkg/x` enables x in pkg; a recipe names the feature as its build script sees it.
        return feature in self.names or any(n.rsplit("/", 1)[-1] == feature for n in self.names)


@dataclass(frozen=True)
class RunContext:
    """What selects recipes in one gate's build."""

    env: Mapping[str, str]
    target: str
    features: Features


def env_holds(spec: str, env: Mapping[str, str]) -> bool:
    """``NAME``: set to anything; ``NAME=VALUE``: set to exactly VALUE (a script comparing the value)."""
    name, eq, value = spec.partition("=")
    return name in env and (not eq or env[name] == value)


def recipe_active(recipe: Recipe, ctx: RunContext) -> bool:
    if not all(env_holds(spec, ctx.env) for spec in recipe.when_env):
        return False
    if any(env_holds(spec, ctx.env) for spec in recipe.unless_env):
        return False
    if recipe.when_target is not None and not fnmatch.fnmatchcase(ctx.target, recipe.when_target):
        return False
    if recipe.unless_target is not None and fnmatch.fnmatchcase(ctx.target, recipe.unless_target):
        return False
    if any(ctx.features.enabled(f) for f in recipe.unless_features):
        return False
    return all(ctx.features.enabled(f) for f in recipe.when_features)


def active_recipes(
    recipes: Sequence[Recipe], gate: Gate, env: Mapping[str, str], target: str, features: Features
) -> tuple[str, ...]:
    """Names of the recipes a run of *gate* with this env, target and features selects.

    *gate* is part of the signature so a recipe may later be scoped to gates;
    today every recipe applies to every gate.
    """
    del gate
    ctx = RunContext(env, target, features)
    return tuple(r.name for r in recipes if recipe_active(r, ctx))


def gate_features(config: Config, gate: Gate) -> Features:
    """Features from the gate's cargo arguments, plus the manifest's defaults unless turned off."""
    if gate.cargo is None:
        return Features()
    call = parse(("cargo", *gate.cargo))
    if call is None:
        return Features()
    names = set(call.features)
    if not call.no_default_features:
        manifest = Path(layout.work_dir(config, gate), call.manifest_path or "Cargo.toml")
        names |= set(_default_features(manifest))
    return Features(frozenset(names), call.all_features)


def _default_features(manifest: Path) -> Iterable[str]:
    try:
        with open(repofs.check(manifest, inside=None, limit=repofs.MAX_SOURCE), "rb") as fh:
            table = tomllib.load(fh).get("features", {})
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    default = table.get("default", []) if isinstance(table, dict) else []
    return [f for f in default if isinstance(f, str)]


def gate_target(gate: Gate, env: Mapping[str, str]) -> str:
    call = parse(("cargo", *gate.cargo)) if gate.cargo else None
    if call is not None and call.target_triples:
        return call.target_triples[0]
    return env.get("CARGO_BUILD_TARGET") or host_triple()


@functools.lru_cache(maxsize=1)
def host_triple() -> str:
    """The host triple; "unknown" (which no target glob but ``*`` matches) without rustc,
    because recording recipes must never fail the run it records."""
    from linkgate.cargo import hosttriple

    try:
        return hosttriple.host_triple("rustc")
    except LinkgateError:
        return "unknown"


def run_context(config: Config, gate: Gate, env: Mapping[str, str]) -> RunContext:
    """The context of a run of *gate* whose process environment is *env* (gate env included)."""
    return RunContext(env, gate_target(gate, env), gate_features(config, gate))


def active_for_run(config: Config, gate: Gate, env: Mapping[str, str]) -> tuple[str, ...]:
    """What a run records: the recipes its effective environment, target and features select."""
    if not config.recipes:
        return ()
    ctx = run_context(config, gate, env)
    return active_recipes(config.recipes, gate, ctx.env, ctx.target, ctx.features)


def selected_by(config: Config, recipe: Recipe) -> list[str]:
    """Gates whose configured env (not the caller's), target and features select *recipe*.

    The configuration is the stable part: a variable a CI runner sets outside
    linkgate.toml shows up in recorded runs instead.
    """
    return [g.name for g in config.gates
            if recipe_active(recipe, RunContext(g.env, gate_target(g, g.env), gate_features(config, g)))]


def selectable_by(config: Config, recipe: Recipe) -> list[str]:
    """Gates that could select *recipe* with some environment: their target and features allow it.

    An environment variable is one line in a gate's ``env``; a target or a
    feature set needs a gate (or a runner) of its own. A recipe no gate can
    select this way is ``never-selected``.
    """
    envless = replace(recipe, when_env=(), unless_env=())
    return [g.name for g in config.gates
            if recipe_active(envless, RunContext({}, gate_target(g, g.env), gate_features(config, g)))]

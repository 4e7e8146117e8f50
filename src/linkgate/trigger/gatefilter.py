"""A gate's path filter: its own ``paths``, or a dorny/paths-filter step's filter.

With ``paths-from = {workflow, filter}`` the workflow stays the single source
of truth: the step's ``filters`` input is a YAML string (or a path to a YAML
file) mapping filter names to rules, as paths-filter's ``Filter.load`` reads
it. This module is on ``should-run``'s start-up path, so it uses PyYAML's C
loader and nothing heavier.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.config import Config, Gate
from linkgate.errors import ConfigError
from linkgate.trigger.pathfilter import QUANTIFIERS, PathFilter, Rule


def _loader() -> Any:
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        """YAML 1.2 booleans only: js-yaml (paths-filter) reads `on`/`yes` as text."""

    bool_tag = "tag:yaml.org,2002:bool"
    Loader.yaml_implicit_resolvers = {
        key: [(tag, rx) for tag, rx in resolvers if tag != bool_tag]
        for key, resolvers in base.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver(bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    return Loader


def load_yaml(text: str, where: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=_loader())  # noqa: S506 - a safe loader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(
            f"invalid YAML: {getattr(exc, 'problem', None) or exc}",
            file=where,
            line=(mark.line + 1) if mark is not None else None,
        ) from None


def parse_filters(doc: Any, where: str) -> dict[str, list[Rule]]:
    """paths-filter's rule parsing: strings, nested lists (anchors), change types."""
    if not isinstance(doc, Mapping):
        raise ConfigError("the filters document is not a mapping of filter names to rules", file=where)
    return {str(name): _rules(item, where, str(name)) for name, item in doc.items()}


def _rules(item: Any, where: str, name: str) -> list[Rule]:
    if isinstance(item, list):
        return [rule for sub in item for rule in _rules(sub, where, name)]
    if isinstance(item, str):
        return [Rule.of(item)]
    if isinstance(item, Mapping):
        rules = []
        for key, pattern in item.items():
            if isinstance(pattern, str):
                patterns: tuple[str, ...] = (pattern,)
            elif isinstance(pattern, list) and all(isinstance(p, str) for p in pattern):
                patterns = tuple(pattern)
            else:
                raise ConfigError(f"filter {name!r}: {key!r} must map to a pattern or a list of patterns", file=where)
            statuses = frozenset(s.strip().lower() for s in str(key).split("|") if s.strip())
            rules.append(Rule(patterns, statuses))
        return rules
    raise ConfigError(f"filter {name!r}: unexpected rule {item!r}", file=where)


def _filter_steps(workflow: Any) -> list[Mapping[str, Any]]:
    steps = []
    jobs = workflow.get("jobs") if isinstance(workflow, Mapping) else None
    for job in (jobs.values() if isinstance(jobs, Mapping) else ()):
        job_steps = job.get("steps") if isinstance(job, Mapping) else None
        for step in job_steps if isinstance(job_steps, list) else ():
            uses = step.get("uses") if isinstance(step, Mapping) else None
            if isinstance(uses, str) and uses.split("@")[0].rstrip("/").endswith("paths-filter"):
                steps.append(step)
    return steps


def _filters_text(value: str, root: Path, where: str) -> tuple[str, str]:
    # paths-filter treats an input with no newline and no colon as a file path.
    if "\n" in value or ":" in value:
        return value, where
    path = root / value
    try:
        return repofs.read_text(value, inside=root), str(path)
    except OSError as exc:
        raise ConfigError(f"filters file {value!r} cannot be read: {exc.strerror}", file=where) from None


def filter_from_workflow(root: Path, workflow: str, name: str) -> PathFilter:
    path = root / workflow
    where = str(path)
    try:
        text = repofs.read_text(workflow, inside=root)
    except OSError as exc:
        raise ConfigError(
            f"workflow cannot be read: {exc.strerror}", file=where, hint="check paths-from.workflow"
        ) from None
    seen: list[str] = []
    for step in _filter_steps(load_yaml(text, where)):
        inputs = step.get("with") or {}
        raw = inputs.get("filters")
        if not isinstance(raw, str):
            continue
        filters_text, filters_where = _filters_text(raw, root, where)
        filters = parse_filters(load_yaml(filters_text, filters_where), filters_where)
        seen += filters
        if name in filters:
            quantifier = str(inputs.get("predicate-quantifier") or "some")
            if quantifier not in QUANTIFIERS:
                raise ConfigError(f"predicate-quantifier must be some or every, not {quantifier!r}", file=where)
            return PathFilter(filters[name], quantifier, name=name)
    raise ConfigError(
        f"no dorny/paths-filter step in this workflow defines a filter named {name!r}",
        file=where,
        hint=("filters found: " + ", ".join(seen)) if seen else "add a dorny/paths-filter step with a filters input",
    )


def gate_filter(config: Config, gate: Gate) -> PathFilter | None:
    """The gate's filter, or None when it declares none (it always runs)."""
    if gate.paths_from is not None:
        return filter_from_workflow(config.root, gate.paths_from.workflow, gate.paths_from.filter)
    if gate.paths:
        return PathFilter(gate.paths, gate.predicate_quantifier, name=gate.name)
    return None

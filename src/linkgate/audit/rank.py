"""Rank findings so the few that matter come first, grouped by rule.

Errors before warnings before notes. Within a level, findings about what
gates a link (a paths filter that misses the link's causal surface) come
first: they are how a pull request breaks a link with every check green.
Then the feature sets CI never links, then the rest; ties by place.
"""

from __future__ import annotations

from collections.abc import Iterable

from linkgate.audit.model import DEFAULT_SEVERITY, RawFinding

LEVELS = ("error", "warning", "note")
RULE_ORDER = (
    "filter-misses-surface",
    # A workflow that is not valid YAML hides all its jobs from every other rule.
    "invalid-workflow",
    "never-linked",
    "filter-misses-manifest",
    "link-only-on-schedule",
    "shared-target-dir",
    "no-timeout",
    "debug-link-on-large-target",
    "unresolved",
)


def key(finding: RawFinding, level: str) -> tuple[int, int, str, int, str]:
    level_rank = LEVELS.index(level) if level in LEVELS else len(LEVELS)
    rule_rank = RULE_ORDER.index(finding.rule) if finding.rule in RULE_ORDER else len(RULE_ORDER)
    return (level_rank, rule_rank, finding.file or "", finding.line or 0, finding.subject)


def ranked(findings: Iterable[RawFinding]) -> list[RawFinding]:
    """*findings* in rank order at their default severities."""
    return sorted(findings, key=lambda f: key(f, DEFAULT_SEVERITY.get(f.rule, "warning")))


def ranked_levels(items: Iterable[tuple[RawFinding, str]]) -> list[tuple[RawFinding, str]]:
    """(finding, configured level) pairs in rank order."""
    return sorted(items, key=lambda item: key(*item))

"""Path filters that decide exactly as dorny/paths-filter does.

paths-filter (v3/v4, ``src/filter.ts``) compiles each rule on its own with
``picomatch(rule, {dot: true})`` and combines the per-rule results with
``some`` (default) or ``every``. A ``!x`` rule is therefore not an
exclusion but a rule matching everything ``x`` does not: under ``some``,
``['src/**', '!**/*.md']`` matches nearly every path. A rule may carry
change types (``added|modified: 'src/**'``) and then only matches files
whose git status is one of them. Matching itself is ``linkgate.picomatch``,
a port of picomatch 2.3.1; see that package for why it is hand-written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from linkgate import picomatch

__all__ = ["matches", "PathFilter", "Rule", "STATUSES"]

QUANTIFIERS = ("some", "every")
# paths-filter's ChangeStatus values; git's T (type change) maps to none.
STATUSES = ("added", "copied", "deleted", "modified", "renamed", "unmerged")


def matches(pattern: str, path: str) -> bool:
    """True when ``picomatch(pattern, {dot: true})(path)`` is true."""
    return picomatch.matches(pattern, path)


@dataclass(frozen=True)
class Rule:
    """One filter rule: a bare pattern, or change types with one or more patterns.

    ``added|modified: [a, b]`` is one rule (picomatch given an array matches
    when any pattern does), which matters under ``every``.
    """

    patterns: tuple[str, ...]
    statuses: frozenset[str] | None = None

    @classmethod
    def of(cls, pattern: str) -> Rule:
        return cls((pattern,))

    @property
    def pattern(self) -> str:
        return self.patterns[0] if len(self.patterns) == 1 else "[" + ", ".join(self.patterns) + "]"

    def __str__(self) -> str:
        if self.statuses is None:
            return self.pattern
        return f"{'|'.join(sorted(self.statuses))}: {self.pattern}"

    def matches(self, path: str, status: str | None = "modified") -> bool:
        if self.statuses is not None and status not in self.statuses:
            return False
        return any(picomatch.matches(p, path) for p in self.patterns)

    def regex_body(self) -> str:
        return "|".join(f"(?:{picomatch.python_source(p)})" for p in self.patterns)


class PathFilter:
    """A named list of rules with paths-filter's ``predicate-quantifier``.

    With only bare patterns, all rules are joined into one regex so that
    testing thousands of changed paths costs one search per path.
    """

    def __init__(self, rules: Iterable[str | Rule], quantifier: str = "some", name: str | None = None) -> None:
        if quantifier not in QUANTIFIERS:
            raise ValueError(f"predicate-quantifier must be 'some' or 'every', not {quantifier!r}")
        self.rules: tuple[Rule, ...] = tuple(r if isinstance(r, Rule) else Rule.of(r) for r in rules)
        self.quantifier = quantifier
        self.name = name
        self._combined = self._combine()

    def __repr__(self) -> str:
        return f"PathFilter({[str(r) for r in self.rules]!r}, quantifier={self.quantifier!r})"

    def _combine(self) -> re.Pattern[str] | None:
        if not self.rules or any(r.statuses is not None for r in self.rules):
            return None
        bodies = [r.regex_body() for r in self.rules]
        if self.quantifier == "some":
            joined = "|".join(f"(?:{b})" for b in bodies)
        else:
            # Every rule's regex is anchored at the start, so lookaheads at
            # position 0 test them all against the same path.
            joined = "".join(f"(?=(?:{b}))" for b in bodies)
        try:
            return re.compile(joined, re.ASCII)
        except re.error:  # e.g. the same group name in two rules
            return None

    def matches(self, path: str, status: str | None = "modified") -> bool:
        """Would a change of *status* to *path* trigger this filter?

        *status* only matters for rules with change types; ``modified`` is
        the default because that is what a surface check asks about.
        """
        if not path:
            return False
        if self._combined is not None:
            return self._combined.match(path) is not None
        test = any if self.quantifier == "some" else all
        return test(rule.matches(path, status) for rule in self.rules)

    def matching(self, paths: Sequence[tuple[str, str | None]]) -> list[str]:
        """The paths (with their statuses) this filter matches, in order."""
        return [path for path, status in paths if self.matches(path, status)]

    def rules_matching_nothing(self, paths: Iterable[str]) -> list[Rule]:
        """Rules that match none of *paths* (any status)."""
        remaining = list(self.rules)
        for path in paths:
            if not remaining:
                break
            remaining = [r for r in remaining if not any(picomatch.matches(p, path) for p in r.patterns)]
        return remaining

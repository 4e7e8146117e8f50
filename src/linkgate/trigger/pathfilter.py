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

import functools
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

    @functools.cached_property
    def _regexes(self) -> tuple[re.Pattern[str], ...]:
        # Held by the rule, not only by picomatch's cache of 4,096: a filter of 10,000
        # patterns tested path by path would recompile every pattern for every path.
        return tuple(picomatch.compile(p) for p in self.patterns)

    def matches(self, path: str, status: str | None = "modified") -> bool:
        if self.statuses is not None and status not in self.statuses:
            return False
        # picomatch rejects the empty path before anything else.
        return bool(path) and any(rx.search(path) is not None for rx in self._regexes)


class PathFilter:
    """A named list of rules with paths-filter's ``predicate-quantifier``.

    should-run tests thousands of changed paths, and compiling fifty
    picomatch regexes costs more than matching them, so for bare patterns
    under ``some`` each pattern's regex is compiled only when a path starts
    with the literal prefix every match of it needs (``crates/x/`` for
    ``crates/x/{build.rs,src/**}``); patterns without one share a regex.
    """

    def __init__(self, rules: Iterable[str | Rule], quantifier: str = "some", name: str | None = None) -> None:
        if quantifier not in QUANTIFIERS:
            raise ValueError(f"predicate-quantifier must be 'some' or 'every', not {quantifier!r}")
        self.rules: tuple[Rule, ...] = tuple(r if isinstance(r, Rule) else Rule.of(r) for r in rules)
        self.quantifier = quantifier
        self.name = name
        self._fast = quantifier == "some" and all(r.statuses is None for r in self.rules)
        if self._fast:
            self._index()

    def __repr__(self) -> str:
        return f"PathFilter({[str(r) for r in self.rules]!r}, quantifier={self.quantifier!r})"

    def _index(self) -> None:
        patterns = [p for r in self.rules for p in r.patterns]
        # picomatch's `input === glob` shortcut, for every pattern at once.
        self._texts = frozenset(patterns)
        self._by_prefix: dict[str, list[str]] = {}
        self._open: list[str] = []
        for p in patterns:
            prefix = picomatch.literal_prefix(p)
            if prefix:
                self._by_prefix.setdefault(prefix, []).append(p)
            else:
                self._open.append(p)
        self._prefixes = tuple(self._by_prefix)
        self._open_regex: re.Pattern[str] | None = None

    def _open_matches(self, path: str) -> bool:
        if not self._open:
            return False
        if self._open_regex is None:
            joined = "|".join(f"(?:{picomatch.python_source(p)})" for p in self._open)
            try:
                self._open_regex = re.compile(joined, re.ASCII)
            except re.error:  # e.g. one group name in two patterns
                return any(picomatch.matches(p, path) for p in self._open)
        return self._open_regex.match(path) is not None

    def matches(self, path: str, status: str | None = "modified") -> bool:
        """Would a change of *status* to *path* trigger this filter?

        *status* only matters for rules with change types; ``modified`` is
        the default because that is what a surface check asks about.
        """
        if not path:
            return False
        if not self._fast:
            test = any if self.quantifier == "some" else all
            return test(rule.matches(path, status) for rule in self.rules)
        if path in self._texts or self._open_matches(path):
            return True
        if self._prefixes and path.startswith(self._prefixes):
            for prefix, patterns in self._by_prefix.items():
                if path.startswith(prefix) and any(picomatch.compile(p).match(path) for p in patterns):
                    return True
        return False

    def any_match(self, changes: Iterable[tuple[str, str | None]]) -> bool:
        """Does any (path, status) trigger the filter? One tight loop for should-run."""
        if not self._fast:
            return any(self.matches(path, status) for path, status in changes)
        paths = [path for path, _ in changes if path]
        if not self._texts.isdisjoint(paths):
            return True
        if self._open and any(map(self._open_matches, paths)):
            return True
        if self._prefixes:
            prefixes = self._prefixes
            return any(self.matches(p) for p in paths if p.startswith(prefixes))
        return False

    def matching(self, paths: Sequence[tuple[str, str | None]]) -> list[str]:
        """The paths (with their statuses) this filter matches, in order."""
        return [path for path, status in paths if self.matches(path, status)]

    def rules_matching_nothing(self, paths: Iterable[str]) -> list[Rule]:
        """Rules that match none of *paths* (any status)."""
        remaining = list(self.rules)
        for path in paths:
            if not remaining:
                break
            remaining = [r for r in remaining if not (path and any(rx.search(path) is not None for rx in r._regexes))]
        return remaining

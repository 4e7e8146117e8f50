"""A port of picomatch 2.3.1's glob compiler, as dorny/paths-filter calls it.

Why hand-written: dorny/paths-filter compiles every rule with
``picomatch(rule, {dot: true})``, and whether a CI job runs depends on that
exact behaviour, quirks included (``X/**`` matches ``X``; ``[!a]`` is not a
negated class; ``a.{1..2}`` loses its ``a`` when a brace range forces a
rebuild). No Python glob library (fnmatch, pathspec, wcmatch, glob) reproduces
those, so linkgate ports picomatch's parser token for token and produces the
same JavaScript regular-expression source, which ``jsregex`` then translates
into Python's dialect. Only the options paths-filter uses are supported:
``dot`` on, POSIX paths, everything else at its default.

``source(pattern)`` equals ``picomatch.makeRe(pattern, {dot: true}).source``
and the differential test checks exactly that against the real package.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linkgate.picomatch import jsregex
from linkgate.picomatch.fastpaths import fastpaths
from linkgate.picomatch.parse import parse

__all__ = ["source", "python_source", "compile", "matches", "PatternError"]

MAX_LENGTH = 1024 * 64
INVALID = "$^"


class PatternError(ValueError):
    """A pattern picomatch itself rejects (empty, or longer than 64 KiB)."""


def source(pattern: str) -> str:
    """The regex source picomatch.makeRe(pattern, {dot: true}) builds."""
    return _compile_source(pattern)[0]


@lru_cache(maxsize=4096)
def _js_source(pattern: str) -> tuple[str, str, bool]:
    """(makeRe source before validation, parser output, negated)."""
    if not pattern:
        raise PatternError("a pattern must be a non-empty string")
    if len(pattern) > MAX_LENGTH:
        raise PatternError(f"pattern length {len(pattern)} exceeds picomatch's maximum of {MAX_LENGTH}")
    negated = False
    output: str | None = None
    if pattern[0] in ".*":
        output = fastpaths(pattern)
    if not output:
        state = parse(pattern)
        output, negated = state.output, state.negated
    src = f"^(?:{output})$"
    if negated:
        src = f"^(?!{src}).*$"
    return src, output, negated


def literal_prefix(pattern: str) -> str:
    """Text every path matching *pattern*'s regex starts with ('' if none).

    The equality picomatch checks first is not covered: callers test
    ``path == pattern`` themselves.
    """
    _, output, negated = _js_source(pattern)
    return "" if negated else jsregex.literal_prefix(output)


@lru_cache(maxsize=4096)
def _compile_source(pattern: str) -> tuple[str, str]:
    """(JavaScript source, Python source) for *pattern*."""
    src = _js_source(pattern)[0]
    try:
        body = jsregex.translate(src)
    except jsregex.JSRegexError:
        # picomatch.toRegex swallows the SyntaxError and returns /$^/, which
        # matches no non-empty path: only the equality below is left.
        src, body = INVALID, "(?!)"
    # picomatch's matcher compares the path with the pattern text itself
    # (`input === glob`) before running the regex, so a path spelled like the
    # pattern always matches; that equality is folded into the regex.
    return src, rf"\A{re.escape(pattern)}\Z|{body}"


def python_source(pattern: str) -> str:
    """Python regex source matching exactly what picomatch's matcher accepts."""
    return _compile_source(pattern)[1]


@lru_cache(maxsize=4096)
def compile(pattern: str) -> re.Pattern[str]:  # noqa: A001 - mirrors re.compile
    """A compiled ``python_source(pattern)``."""
    return re.compile(python_source(pattern), re.ASCII)


def matches(pattern: str, path: str) -> bool:
    # picomatch rejects the empty path before anything else.
    return bool(path) and compile(pattern).search(path) is not None

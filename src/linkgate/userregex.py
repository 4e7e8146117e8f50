"""Regular expressions a repository wrote, run where they cannot blow up.

A control's ``delete`` and ``replace.pattern``, its ``expect-match``, and a
CI script's ``[[ $x =~ re ]]`` come from the repository being judged, which
may be a pull request's. Python's ``re`` backtracks: ``(a+)+$`` over 30
``a`` and a ``b`` runs for minutes. RE2 (the google-re2 wheel) matches in
time linear in the text and never backtracks, so no pattern can hang
linkgate. What RE2 cannot run (backreferences such as ``\\1``, lookaround
such as ``(?=``, ``(?<=``) it refuses when compiling; the caller turns that
into a message naming the pattern's key, never a silent fallback to ``re``.

Where the two engines differ, Python's meaning is kept for what the
configuration documents: a pattern searched in one line matches ``$``
before the line's newline (``search_line``), and replacement templates
(``\\1``, ``\\g<name>``) are expanded by RE2's binding as ``re.sub`` does.
Classes such as ``\\d`` and ``\\w`` match ASCII only (docs/configuration.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any


class RegexRefused(ValueError):
    """The pattern cannot be run by RE2; ``reason`` says why, in RE2's words."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"{pattern!r}: {reason}")
        self.pattern = pattern
        self.reason = reason


@dataclass(frozen=True)
class UserRegex:
    pattern: str
    compiled: Any  # re2._Regexp; the binding ships no type stubs

    def search(self, text: str) -> bool:
        return self.compiled.search(text) is not None

    def search_line(self, line: str) -> bool:
        """Search one line read with its line end, as ``re.search`` would: ``$``
        matches before the final newline too."""
        return self.search(line[:-1] if line.endswith("\n") else line)

    def fullmatch(self, text: str) -> bool:
        return self.compiled.fullmatch(text) is not None

    def subn(self, repl: str, text: str, count: int = 0) -> tuple[str, int]:
        try:
            out, done = self.compiled.subn(repl, text, count=count)
        except (IndexError, ValueError) as exc:  # `\9` with no group 9, a bad `\g<...>`
            raise RegexRefused(repl, f"bad replacement: {exc}") from None
        return str(out), int(done)

    def replace_literal(self, literal: str, text: str, count: int = 0) -> str:
        """*text* with matches replaced by *literal*, no template expansion (bash's `${x//p/r}`)."""
        return str(self.compiled.subn(lambda _: literal, text, count=count)[0])


def compile_user(pattern: str, *, multiline: bool = False, dotall: bool = False) -> UserRegex:
    """*pattern* compiled by RE2; RegexRefused when RE2 cannot run it."""
    flags = ("m" if multiline else "") + ("s" if dotall else "")
    return _compile((f"(?{flags})" if flags else "") + pattern, pattern)


@functools.lru_cache(maxsize=256)
def _compile(text: str, pattern: str) -> UserRegex:
    import re2  # type: ignore[import-untyped]  # lazily: a 5 ms C extension most commands never need; no stubs

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own error on stderr; the caller says it once
    try:
        return UserRegex(pattern, re2.compile(text, options=options))
    except re2.error as exc:
        reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise RegexRefused(pattern, reason) from None

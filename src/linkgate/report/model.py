"""What every command hands to a reporter: collect first, render once at the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["error", "warning", "note"]


@dataclass(frozen=True)
class Finding:
    """One thing worth a reader's attention, located as precisely as known.

    Reporters that annotate (GitHub, SARIF) use these; ``rule`` is a stable
    identifier such as ``link-failed``, ``dso-missing`` or ``never-linked``.
    """

    rule: str
    level: Level
    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Case:
    """One JUnit test case: a (gate, linker) pair, a control, an audit check."""

    suite: str
    name: str
    ok: bool
    message: str = ""
    details: str = ""
    duration_s: float = 0.0
    skipped: bool = False


@dataclass
class Report:
    """A command's complete result.

    ``document`` is the JSON document (it carries its own ``schema`` key);
    ``human`` and ``markdown`` are command-specific renderers, others are
    generic over ``findings`` and ``cases``.
    """

    command: str
    document: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    summary: str = ""
    human: Callable[[Report, Any], None] | None = None
    markdown: Callable[[Report], str] | None = None
    exit_code: int = 0


def count(n: int, noun: str) -> str:
    """``1 run``, ``2 runs``: every summary line counts this way."""
    return f"{n} {noun}{'' if n == 1 else 's'}"

"""Evaluate the small part of GitHub's ``${{ }}`` language the audit needs.

Understood: ``matrix.a.b``, ``env.X``, string and number literals, and
``x || y`` fallbacks over those. Everything else (``inputs``, ``secrets``,
``github``, ``steps``, function calls, comparisons) is unknown: its text is
replaced by a shell-safe placeholder so the command around it can still be
split and classified, and the placeholder maps back to the original text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
_PATH = re.compile(r"^(matrix|env)((?:\.[A-Za-z_][\w-]*|\[\s*'[^']*'\s*\])+)$")
_SEGMENT = re.compile(r"\.([A-Za-z_][\w-]*)|\[\s*'([^']*)'\s*\]")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")

PLACEHOLDER = "LGEXPR{}X"
_PLACEHOLDER_RE = re.compile(r"LGEXPR(\d+)X")


class _Unknown(Exception):
    pass


@dataclass(frozen=True)
class ExprContext:
    """``matrix`` is None when the job's matrix itself cannot be evaluated."""

    matrix: Mapping[str, Any] | None = None
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Substituted:
    text: str
    unknown: dict[str, str] = field(default_factory=dict)

    def restore(self, token: str) -> tuple[str, list[str]]:
        """Put original expression text back into *token*; list what was unknown."""
        found: list[str] = []

        def back(m: re.Match[str]) -> str:
            original = self.unknown.get(m.group(0), m.group(0))
            found.append(original)
            return original

        return _PLACEHOLDER_RE.sub(back, token), found


def render(value: Any) -> str:
    """How GitHub turns a value into text inside a ``run:`` script."""
    if value is None:
        return ""
    if isinstance(value, str):
        return str.__str__(value)
    return json.dumps(value)


def evaluate(expr: str, ctx: ExprContext) -> str | None:
    """The text of *expr*, or None when linkgate cannot know it."""
    try:
        return _eval(expr.strip(), ctx)
    except _Unknown:
        return None


def _eval(expr: str, ctx: ExprContext) -> str:
    if "||" in expr:
        parts = [p.strip() for p in expr.split("||")]
        for part in parts[:-1]:
            text = _eval(part, ctx)
            if text not in ("", "false", "0"):
                return text
        return _eval(parts[-1], ctx)
    if len(expr) >= 2 and expr[0] == expr[-1] == "'":
        return expr[1:-1].replace("''", "'")
    if _NUMBER.match(expr) or expr in ("true", "false"):
        return expr
    m = _PATH.match(expr)
    if not m:
        raise _Unknown(expr)
    keys = [a or b for a, b in _SEGMENT.findall(m.group(2))]
    value: Any
    if m.group(1) == "matrix":
        if ctx.matrix is None:
            raise _Unknown(expr)
        value = ctx.matrix
    else:
        value = ctx.env
        if keys and keys[0] not in ctx.env:
            raise _Unknown(expr)
    for key in keys:
        value = value.get(key) if isinstance(value, Mapping) else None
    return render(value)


def substitute(text: str, ctx: ExprContext) -> Substituted:
    """Replace every ``${{ }}``: known ones by their text, others by placeholders."""
    out = Substituted(text)
    counter = 0

    def repl(m: re.Match[str]) -> str:
        nonlocal counter
        value = evaluate(m.group(1), ctx)
        if value is not None:
            return value
        key = PLACEHOLDER.format(counter)
        counter += 1
        out.unknown[key] = m.group(0)
        return key

    out.text = _EXPR.sub(repl, text)
    return out


def substitute_plain(text: str, ctx: ExprContext) -> tuple[str, list[str]]:
    """Substitute for a value that is not shell (env values, action inputs)."""
    sub = substitute(text, ctx)
    return sub.restore(sub.text)

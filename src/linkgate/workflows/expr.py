"""Substitute ``${{ }}`` expressions and decide ``if:`` conditions for one
matrix combination (the language itself is in ``ghexpr``).

A known expression is replaced by its text; an unknown one (``secrets``,
``steps``, ``github.event``, ...) by a shell-safe placeholder that maps back
to the original text, so the command around it can still be read and the
unknown part named.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linkgate.workflows import ghexpr
from linkgate.workflows.ghexpr import render as render
from linkgate.workflows.shell.state import WORKSPACE
from linkgate.workflows.yamlnodes import YStr

_EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)

PLACEHOLDER = "LGEXPR{}X"
_PLACEHOLDER_RE = re.compile(r"LGEXPR(\d+)X")
_RUNNER_OS = {"ubuntu": "Linux", "windows": "Windows", "macos": "macOS"}


@dataclass(frozen=True)
class ExprContext:
    """``matrix`` is None when the job's matrix itself cannot be evaluated;
    ``runner_os`` is known only on GitHub-hosted runners; ``inputs`` is None when the
    workflow's inputs cannot be known (an ``ghexpr.OpenMap`` when only some can)."""

    matrix: Mapping[str, Any] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    runner_os: str | None = None
    inputs: Mapping[str, Any] | None = None
    # Outputs of the job's earlier steps that linkgate read (step id -> name -> value); any
    # other step output is unknown.
    steps: Mapping[str, Mapping[str, str]] | None = None
    # In a composite action's steps: the action's directory (`github.action_path`).
    action_path: str | None = None

    @functools.cached_property
    def _contexts(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "env": ghexpr.OpenMap(self.env),
            "github": ghexpr.OpenMap(workspace=WORKSPACE, **({"action_path": self.action_path}
                                                               if self.action_path is not None else {})),
            "runner": ghexpr.OpenMap(**({"os": self.runner_os} if self.runner_os else {})),
        }
        if self.matrix is not None:
            out["matrix"] = ghexpr.numbers(_booleans(self.matrix))
        if self.inputs is not None:
            known = ghexpr.numbers(dict(self.inputs))
            out["inputs"] = ghexpr.OpenMap(known) if isinstance(self.inputs, ghexpr.OpenMap) else known
        if self.steps:
            out["steps"] = ghexpr.OpenMap({sid: ghexpr.OpenMap(outputs=ghexpr.OpenMap(values))
                                           for sid, values in self.steps.items()})
        return out

    def contexts(self) -> dict[str, Any]:
        return self._contexts


_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}


def _booleans(value: Any) -> Any:
    """A plain (unquoted) `true`/`false` of the workflow is the boolean GitHub reads
    (YAML 1.2's core schema), so `if: ${{ matrix.run-tests }}` with `run-tests: false`
    is false; a quoted 'false' stays a string, which is truthy, as on GitHub."""
    if isinstance(value, YStr):
        return _BOOLEANS.get(value, value) if not value.style else value  # plain: None or ""
    if isinstance(value, list):
        return [_booleans(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _booleans(v) for k, v in value.items()}
    return value


booleans = _booleans


def runner_os(labels: list[str]) -> str | None:
    """``runner.os`` of a GitHub-hosted image label such as ``ubuntu-24.04``."""
    found = {_RUNNER_OS.get(label.split("-", 1)[0].lower()) for label in labels}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


@dataclass
class Substituted:
    text: str
    unknown: dict[str, str] = field(default_factory=dict)
    values: list[str | None] = field(default_factory=list)
    originals: list[str] = field(default_factory=list)

    def restore(self, token: str) -> tuple[str, list[str]]:
        """Put original expression text back into *token*; list what was unknown."""
        found: list[str] = []

        def back(m: re.Match[str]) -> str:
            original = self.unknown.get(m.group(0), m.group(0))
            found.append(original)
            return original

        return _PLACEHOLDER_RE.sub(back, token), found


def evaluate(expr: str, ctx: ExprContext) -> str | None:
    """The text of *expr*, or None when linkgate cannot know it."""
    value = ghexpr.evaluate(expr, ctx.contexts())
    return None if isinstance(value, ghexpr.Unknown) else render(value)


def condition(text: str | None, ctx: ExprContext) -> bool | None:
    """Whether an ``if:`` runs: True, False, or None when it cannot be known.

    GitHub reads ``if:`` as an expression with or without ``${{ }}``, and
    adds ``success() &&`` unless a status function is named."""
    if text is None or not str(text).strip():
        return True
    expr = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", expr, re.S)
    if m:
        expr = m.group(1)
    elif "${{" in expr:
        rendered = substitute_plain(expr, ctx)[0]
        return None if "${{" in rendered else rendered != ""
    return ghexpr.truth(ghexpr.evaluate(expr, ctx.contexts()))


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


def placeholders(text: str, ctx: ExprContext) -> Substituted:
    """Replace *every* ``${{ }}`` by a placeholder, its value kept in ``values``.

    The text, and so its parse, is then the same for every combination."""
    out = Substituted(text)

    def repl(m: re.Match[str]) -> str:
        key = PLACEHOLDER.format(len(out.values))
        out.values.append(evaluate(m.group(1), ctx))
        out.originals.append(m.group(0))
        out.unknown[key] = m.group(0)
        return key

    out.text = _EXPR.sub(repl, text)
    return out


def substitute_plain(text: str, ctx: ExprContext) -> tuple[str, list[str]]:
    """Substitute for a value that is not shell (env values, action inputs)."""
    sub = substitute(text, ctx)
    return sub.restore(sub.text)


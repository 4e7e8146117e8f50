"""GitHub Actions' expression language, evaluated over what the audit can know.

Follows docs.github.com, "Evaluate expressions in workflows and actions":
literals (``null``, booleans, numbers, ``'strings'`` with ``''``), property
access (``a.b``, ``a['b']``), ``! < <= > >= == != && ||`` and parentheses.
``==`` between strings ignores case; operands of different types are compared
as numbers; ``&&`` and ``||`` return an operand, not a boolean. Functions:
``contains``, ``startsWith``, ``endsWith`` (case-insensitive), ``format``,
``join``, ``toJSON``, ``fromJSON``; ``success()`` and ``always()`` are true
and ``failure()``/``cancelled()`` false, because the audit describes a green
run. Known contexts: ``matrix``, ``env`` (the workflow, job and step env),
``github.workspace`` and ``runner.os`` when the runner is GitHub-hosted.
Everything else is unknown, and unknown propagates: a condition is decided
only when its value does not depend on anything unknown.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_TOKEN = re.compile(
    r"\s*(?:(?P<num>0x[0-9a-fA-F]+|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<str>'(?:[^']|'')*')"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\],.*])|(?P<name>[A-Za-z_][\w-]*))"
)


@dataclass(frozen=True)
class Unknown:
    """A value linkgate cannot know; ``truth`` is known sometimes (``x || true``)."""

    truth: bool | None = None


UNKNOWN = Unknown()


class OpenMap(dict[str, Any]):
    """A context only partly known: a key it lacks is unknown, not null."""


class _Syntax(Exception):
    pass


def evaluate(expr: str, contexts: Mapping[str, Any]) -> Any:
    """The value of *expr*, or an ``Unknown``. *contexts* maps a context name
    to its value; a name absent from it is unknown."""
    try:
        tokens = _tokens(expr)
        parser = _Parser(tokens, contexts)
        value = parser.or_()
        if parser.pos != len(tokens):
            raise _Syntax(expr)
        return value
    except (_Syntax, IndexError, ValueError, TypeError, RecursionError):
        return UNKNOWN


def truth(value: Any) -> bool | None:
    if isinstance(value, Unknown):
        return value.truth
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return not (value == 0 or math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True


@functools.lru_cache(maxsize=4096)
def _tokens(expr: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    pos = 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise _Syntax(expr)
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return tuple(out)


class _Parser:
    def __init__(self, tokens: tuple[tuple[str, str], ...], contexts: Mapping[str, Any]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.contexts = contexts

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, text: str) -> None:
        if self.take()[1] != text:
            raise _Syntax(text)

    def or_(self) -> Any:
        left = self.and_()
        while self.peek() == "||":
            self.take()
            right = self.and_()
            t = truth(left)
            if t is True:
                continue
            if t is False:
                left = right
            else:
                left = Unknown(True) if truth(right) is True else UNKNOWN
        return left

    def and_(self) -> Any:
        left = self.compare()
        while self.peek() == "&&":
            self.take()
            right = self.compare()
            t = truth(left)
            if t is False:
                continue
            if t is True:
                left = right
            else:
                left = Unknown(False) if truth(right) is False else UNKNOWN
        return left

    def compare(self) -> Any:
        left = self.unary()
        while self.peek() in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            right = self.unary()
            left = _compare(op, left, right)
        return left

    def unary(self) -> Any:
        if self.peek() == "!":
            self.take()
            value = self.unary()
            t = truth(value)
            return Unknown() if t is None else not t
        return self.postfix(self.primary())

    def primary(self) -> Any:
        kind, text = self.take()
        if text == "(":
            value = self.or_()
            self.expect(")")
            return value
        if kind == "num":
            return float(int(text, 16)) if text.startswith("0x") else float(text)
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind != "name":
            raise _Syntax(text)
        if text in ("true", "false"):
            return text == "true"
        if text == "null":
            return None
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.or_())
                if self.peek() == ",":
                    self.take()
            self.take()
            return _call(text.lower(), args)
        return self.contexts.get(text, UNKNOWN)

    def postfix(self, value: Any) -> Any:
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                kind, key = self.take()
                if key == "*":
                    value = UNKNOWN
                    continue
            else:
                key = self.or_()
                self.expect("]")
            value = _member(value, key)
        return value


def _member(value: Any, key: Any) -> Any:
    if isinstance(value, Unknown) or isinstance(key, Unknown):
        return UNKNOWN
    if isinstance(value, Mapping):
        if isinstance(key, str):
            for k, v in value.items():
                if isinstance(k, str) and k.lower() == key.lower():
                    return v
        return UNKNOWN if isinstance(value, OpenMap) else None
    if isinstance(value, list) and isinstance(key, float) and key.is_integer():
        return value[int(key)] if 0 <= key < len(value) else None
    return None


def _number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        try:
            return float(int(text, 16)) if text.lower().startswith("0x") else float(text)
        except ValueError:
            return math.nan
    return math.nan


def _compare(op: str, left: Any, right: Any) -> Any:
    if isinstance(left, Unknown) or isinstance(right, Unknown):
        return UNKNOWN
    if isinstance(left, str) and isinstance(right, str):
        a: Any = left.lower()
        b: Any = right.lower()
    elif type(left) is type(right) and not isinstance(left, (Mapping, list)):
        a, b = left, right
    elif isinstance(left, (Mapping, list)) or isinstance(right, (Mapping, list)):
        return (left is right) if op == "==" else (left is not right) if op == "!=" else False
    else:
        a, b = _number(left), _number(right)
    if op == "==":
        return bool(a == b)
    if op == "!=":
        return bool(a != b)
    try:
        return bool({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])
    except TypeError:
        return False


def _call(name: str, args: list[Any]) -> Any:
    if name in ("success", "always"):
        return True
    if name in ("failure", "cancelled"):
        return False
    if any(isinstance(a, Unknown) for a in args):
        return UNKNOWN
    if name == "contains" and len(args) == 2:
        hay, needle = args
        if isinstance(hay, list):
            return any(_compare("==", item, needle) is True for item in hay)
        return render(needle).lower() in render(hay).lower()
    if name in ("startswith", "endswith") and len(args) == 2:
        text, part = render(args[0]).lower(), render(args[1]).lower()
        return text.startswith(part) if name == "startswith" else text.endswith(part)
    if name == "format" and args:
        template = render(args[0])
        out = re.sub(r"\{(\d+)\}", lambda m: render(args[1 + int(m.group(1))]) if 1 + int(m.group(1)) < len(args)
                     else m.group(0), template.replace("{{", "\0").replace("}}", "\1"))
        return out.replace("\0", "{").replace("\1", "}")
    if name == "join" and args:
        sep = render(args[1]) if len(args) > 1 else ","
        return sep.join(render(v) for v in args[0]) if isinstance(args[0], list) else render(args[0])
    if name == "tojson" and len(args) == 1:
        return json.dumps(args[0], indent=2)
    if name == "fromjson" and len(args) == 1:
        return numbers(json.loads(render(args[0])))
    return UNKNOWN


def numbers(value: Any) -> Any:
    """Numbers as the expression language has them: one type (YAML gives ints and floats)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [numbers(v) for v in value]
    if isinstance(value, Mapping):
        return {k: numbers(v) for k, v in value.items()}
    return value


def render(value: Any) -> str:
    """How GitHub turns a value into text inside a ``run:`` script."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (int,)):
        return str(value)
    return json.dumps(value)

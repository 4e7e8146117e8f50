"""``$(( ))`` over integers: ``+ - * / % << >> & | ^``, unary ``- + ~``,
parentheses, and variables whose values are known integers. Anything else
(assignment operators, ``++``, comparisons, the ternary) stays unknown.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

_NAME = re.compile(r"\$\{?([A-Za-z_]\w*|\d+)\}?|\b([A-Za-z_]\w*)\b")
_OPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}


def arithmetic(body: str, value_of: Callable[[str], str | None]) -> int | None:
    """The value of *body*, or None; *value_of* gives a variable's text if known."""

    def name(m: re.Match[str]) -> str:
        key = m.group(1) or m.group(2)
        text = (value_of(key) or "").strip() if value_of(key) is not None else None
        if text is None or not re.fullmatch(r"-?\d*", text):
            raise ValueError(key)
        return text or "0"

    try:
        # bash's `/` truncates like Python's `//` for the non-negative values CI uses.
        source = _NAME.sub(name, body.strip()).replace("/", "//").replace("////", "//")
        return _int(ast.parse(source, mode="eval").body)
    except (ValueError, SyntaxError, ZeroDivisionError, TypeError, RecursionError, KeyError):
        return None


def _int(node: ast.AST) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        value = _int(node.operand)
        return -value if isinstance(node.op, ast.USub) else (~value if isinstance(node.op, ast.Invert) else value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        right = _int(node.right)
        if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= right < 64:
            raise ValueError(right)
        return _OPS[type(node.op)](_int(node.left), right)
    raise ValueError(node)

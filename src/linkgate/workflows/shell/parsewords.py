"""Words of bash's grammar, as ``syntax`` parts: quoting, escapes,
``$x``/``${x op arg}``, command substitution, and ``${{ }}`` placeholders
(``EXPR_PLACEHOLDER``), which are plain word text to the grammar.

tree-sitter-bash leaves the text between some children out of the tree (the
space in ``${x%% *}``), so parts are rebuilt from byte spans, not children.
"""

from __future__ import annotations

import re
from typing import Any

from linkgate.workflows.shell.syntax import Expr, Lit, Opaque, Param, Part, Seq, Subst, Word

# `${{ expr }}` number N becomes this word-safe text before parsing.
EXPR_PLACEHOLDER = "LGEXPR{}X"
_EXPR_RE = re.compile(r"LGEXPR(\d+)X")
_ESCAPE_IN_DQ = re.compile(r'\\([$`"\\\n])')
_ESCAPE = re.compile(r"\\(.)", re.S)


_PATTERN_OPS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%"})


class WordReader:
    def __init__(self, src: bytes) -> None:
        self.src = src

    def text(self, node: Any) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def seq(self, nodes: list[Any]) -> Seq:
        raise NotImplementedError

    def word(self, node: Any, quoted: bool = False) -> Word:
        return tuple(self.parts(node, quoted))

    def parts(self, node: Any, quoted: bool) -> list[Part]:
        kind = node.type
        text = self.text(node)
        # A quoted empty string (`""`, `''`, `$''`) is still a word: an empty argument.
        if kind in ("string", "translated_string"):
            inner_start = node.start_byte + (2 if kind == "translated_string" else 1)
            return self.spans(node, inner_start, node.end_byte - 1, True, dq=True) or [Lit("", True)]
        if kind == "raw_string":
            return _lits(text[1:-1], True) or [Lit("", True)]
        if kind == "ansi_c_string":
            return _lits(_ansi_c(text[2:-1]), True) or [Lit("", True)]
        if kind == "concatenation":
            return self.spans(node, node.start_byte, node.end_byte, quoted)
        if kind == "simple_expansion":
            return [Param(text[1:], (), quoted, text)]
        if kind == "expansion":
            return [self.expansion(node, quoted)]
        if kind in ("command_substitution", "process_substitution"):
            return [Subst(self.seq(node.named_children), text, quoted)]
        if kind == "arithmetic_expansion":
            return [Opaque(text, quoted)]
        if quoted:
            return _lits(text, True)
        if text.startswith("~"):
            return [Opaque(text.split("/", 1)[0], False), *_lits(text[len(text.split("/", 1)[0]):], False)]
        return _lits(_ESCAPE.sub(r"\1", text.replace("\\\n", "")), False)

    def spans(self, node: Any, start: int, end: int, quoted: bool, dq: bool = False) -> list[Part]:
        """Named children as parts; the bytes between them as literal text."""
        out: list[Part] = []
        pos = start
        for child in node.named_children:
            if child.start_byte > pos:
                out += self.literal(self.src[pos : child.start_byte].decode("utf-8", "replace"), quoted, dq)
            if child.type == "string_content":
                out += self.literal(self.text(child), quoted, dq)
            else:
                out += self.parts(child, quoted)
            pos = child.end_byte
        if pos < end:
            out += self.literal(self.src[pos:end].decode("utf-8", "replace"), quoted, dq)
        return out

    def literal(self, text: str, quoted: bool, dq: bool) -> list[Part]:
        if dq:
            return _lits(_ESCAPE_IN_DQ.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text), True)
        return _lits(_ESCAPE.sub(r"\1", text.replace("\\\n", "")), quoted)

    def expansion(self, node: Any, quoted: bool) -> Param:
        text = self.text(node)
        name = ""
        index: str | None = None
        length = False
        groups: list[tuple[str, int, list[Any]]] = []  # (operator, start byte of its argument, argument nodes)
        closing = node.end_byte - 1
        for child in node.children:
            kind = child.type
            if kind == "}":
                closing = child.start_byte
                continue
            if kind == "${":
                continue
            if not name and kind in ("variable_name", "special_variable_name"):
                name = self.text(child)
            elif not name and kind == "subscript":
                base = child.child_by_field_name("name")
                idx = child.child_by_field_name("index")
                name = self.text(base) if base is not None else ""
                index = self.text(idx) if idx is not None else None
            elif not name and kind in ("#", "!"):
                if kind == "!":
                    return Param("!", (), quoted, text)
                length = True
            elif name and not child.is_named and kind not in ("[", "]"):
                groups.append((kind, child.end_byte, []))
            elif name and groups:
                groups[-1][2].append(child)
        if not name:
            return Param("", (("?", ()),), quoted, text)
        ops: list[tuple[str, Word]] = []
        for i, (op, begin, nodes) in enumerate(groups):
            stop = groups[i + 1][1] - len(groups[i + 1][0]) if i + 1 < len(groups) else closing
            # In "${x#i?86-}" the pattern is still a pattern: the outer double
            # quotes do not make its `?` literal (only quotes inside it do).
            inner = quoted and not (i == 0 and op in _PATTERN_OPS)
            parts: list[Part] = []
            pos = begin
            for child in nodes:
                if child.start_byte > pos:
                    parts += self.literal(self.src[pos : child.start_byte].decode("utf-8", "replace"), inner, False)
                parts += self.parts(child, inner)
                pos = child.end_byte
            if pos < stop:
                parts += self.literal(self.src[pos:stop].decode("utf-8", "replace"), inner, False)
            ops.append((op, tuple(parts)))
        return Param(name, tuple(ops), quoted, text, length, index)


def _lits(text: str, quoted: bool) -> list[Part]:
    """Literal text, with ``${{ }}`` placeholders split out."""
    if "LGEXPR" not in text:
        return [Lit(text, quoted)] if text else []
    out: list[Part] = []
    pos = 0
    for m in _EXPR_RE.finditer(text):
        if m.start() > pos:
            out.append(Lit(text[pos : m.start()], quoted))
        out.append(Expr(int(m.group(1)), quoted))
        pos = m.end()
    if pos < len(text):
        out.append(Lit(text[pos:], quoted))
    return out


def _ansi_c(body: str) -> str:
    table = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), "\\" + m.group(1)), body)

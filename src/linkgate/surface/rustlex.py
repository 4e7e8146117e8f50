"""Split Rust source into tokens, enough to read a build script's paths.

Not a Rust parser: it knows string literals (plain, byte, raw with any
number of ``#``), char literals versus lifetimes, nested block comments,
identifiers and punctuation. That is what the static scan needs so a path in
a comment is not read as a path and a ``//`` inside a string is not read as
a comment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9][0-9A-Za-z_.]*")
_RAW = re.compile(r'b?r(#*)"')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}
_PUNCT2 = ("::", "=>", "->", "..", "==", "!=", "&&", "||")


@dataclass(frozen=True)
class Token:
    kind: str  # "str" | "ident" | "punct" | "num" | "char"
    text: str  # a string's value (escapes resolved); otherwise the source text
    line: int


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "\n":  # a line continuation swallows the newline and leading blanks
            i += 2
            while i < len(body) and body[i] in " \t\r\n":
                i += 1
        elif nxt == "u" and body[i + 2:i + 3] == "{":
            end = body.find("}", i)
            out.append(chr(int(body[i + 3:end].replace("_", "") or "0", 16)))
            i = end + 1
        elif nxt == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += text.count("\n", i, j)
            i = j
        elif (raw := _RAW.match(text, i)) is not None:
            close = '"' + raw.group(1)
            end = text.find(close, raw.end())
            end = n if end < 0 else end
            tokens.append(Token("str", text[raw.end():end], line))
            line += text.count("\n", i, end)
            i = end + len(close)
        elif ch == '"' or text.startswith('b"', i):
            j = i + (2 if ch == "b" else 1)
            start = j
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            tokens.append(Token("str", _unescape(text[start:j]), line))
            line += text.count("\n", i, j)
            i = j + 1
        elif ch == "'":
            # 'a' or '\n' is a char; 'a (no closing quote right after) is a lifetime.
            m = re.match(r"'(\\(?:u\{[0-9A-Fa-f_]+\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n])'", text[i:i + 12])
            if m:
                tokens.append(Token("char", _unescape(m.group(1)), line))
                i += m.end()
            else:
                i += 1
        elif (ident := _IDENT.match(text, i)) is not None:
            tokens.append(Token("ident", ident.group(), line))
            i = ident.end()
        elif (num := _NUMBER.match(text, i)) is not None:
            tokens.append(Token("num", num.group(), line))
            i = num.end()
        else:
            two = text[i:i + 2]
            width = 2 if two in _PUNCT2 else 1
            tokens.append(Token("punct", text[i:i + width], line))
            i += width
    return tokens


def closure_params(body: Sequence[Token]) -> tuple[list[str] | None, Sequence[Token]]:
    toks = list(body)
    if toks and toks[0].text == "move":
        toks = toks[1:]
    if not toks or toks[0].text not in ("|", "||"):
        return None, ()
    if toks[0].text == "||":
        return [], toks[1:]
    end = next((k for k in range(1, len(toks)) if toks[k].text == "|"), None)
    if end is None:
        return None, ()
    params = [tok.text for tok in toks[1:end] if tok.kind == "ident" and tok.text not in ("mut", "ref")]
    return params[:1], toks[end + 1:]


_OPEN = {"(": ")", "[": "]", "{": "}"}


def matching(t: Sequence[Token], i: int) -> int:
    """Index of the bracket closing the one at *i* (or the last token)."""
    depth = 0
    for j in range(i, len(t)):
        if t[j].kind != "punct":
            continue
        if t[j].text in _OPEN:
            depth += 1
        elif t[j].text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    return len(t) - 1


def skip_generics(t: Sequence[Token], i: int) -> int:
    """*i* is at ``<``; return the index after the matching ``>``."""
    depth = 0
    for j in range(i, len(t)):
        if t[j].text == "<":
            depth += 1
        elif t[j].text == ">":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(t)


def split_top(t: Sequence[Token], sep: str) -> list[list[Token]]:
    """Split on *sep* outside brackets."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in t:
        if tok.kind == "punct" and tok.text in _OPEN:
            depth += 1
        elif tok.kind == "punct" and tok.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and tok.kind == "punct" and tok.text == sep:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def strip_attributes(part: list[Token]) -> list[Token]:
    """Drop ``#[cfg(...)]`` in front of an array element: either way it may be compiled."""
    while len(part) > 1 and part[0].text == "#" and part[1].text == "[":
        part = part[matching(part, 1) + 1:]
    return part


def token_text(tokens: Sequence[Token]) -> str:
    out = " ".join(f'"{t.text}"' if t.kind == "str" else t.text for t in tokens)
    out = re.sub(r" ?(::|\.|\(|\)|\[|\]|,|&|!) ?", lambda m: m.group(1) + (" " if m.group(1) == "," else ""), out)
    return out if len(out) <= 80 else out[:77] + "..."

"""Split Rust source into tokens, enough to read a build script's paths.

Not a Rust parser: it knows string literals (plain, byte, raw with any
number of ``#``), char literals versus lifetimes, nested block comments,
identifiers and punctuation. That is what the static scan needs so a path in
a comment is not read as a path and a ``//`` inside a string is not read as
a comment.
"""

from __future__ import annotations

import re
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

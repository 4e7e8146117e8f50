"""Split Rust source into tokens: enough to read a build script, not to compile it.

Not a Rust parser: it knows string literals (plain, byte, C, raw with any
number of ``#``; escapes resolved), char literals versus lifetimes, nested
block comments, raw identifiers, numbers (``1..2`` is a range, not a number),
identifiers and punctuation, and gives every token its 1-based line. That is
what the surface's static scan and coverage's branch reading need: a path or
a ``println!`` in a comment is not read, a ``//`` inside a string is not a
comment. One tokenizer serves both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}
_PUNCT2 = frozenset({"::", "=>", "->", "..", "==", "!=", "&&", "||", "<=", ">=", "+=", "-="})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CHAR = re.compile(r"'(\\(?:u\{[0-9A-Fa-f_]+\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n])'")


class Token(NamedTuple):
    """One token. A named tuple, not a dataclass: a build script of 100,000 lines is
    600,000 tokens, and a frozen dataclass's constructor cost more than finding them."""

    kind: str  # "str" | "ident" | "punct" | "num" | "char" | "lifetime"
    text: str  # a string's or char's value (escapes resolved); otherwise the source text
    line: int

    def is_(self, text: str) -> bool:
        """This keyword, identifier or punctuation (never a string that spells it)."""
        return self.kind in ("ident", "punct") and self.text == text


def _char(digits: str) -> str:
    """The character of a hex escape; U+FFFD for what rustc refuses (`\\u{110000}`,
    a surrogate, `\\xZZ`), which the lexer must still get past."""
    try:
        code = int(digits or "0", 16)
    except ValueError:
        return "\ufffd"
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body  # most literals: nothing to resolve, no walk character by character
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
            end = len(body) if end < 0 else end
            out.append(_char(body[i + 3:end].replace("_", "")))
            i = end + 1
        elif nxt == "x":
            out.append(_char(body[i + 2:i + 4]))
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def tokenize(text: str) -> list[Token]:
    """The tokens of *text*. A build script is read by several scanners (what it compiles,
    its modules, its directives): the last few texts are tokenized once (a copy of the
    list each time, so no caller's edit reaches another)."""
    return list(_tokenize(text))


# The common tokens of ASCII source, one regular-expression match each (a build
# script of 100,000 println! lines is 600,000 tokens: a loop in Python over
# each character took most of `surface --static`'s time). Each alternative
# matches only where ``_step`` would make exactly the same token and stop at the
# same place; everything else (block comments, raw strings and identifiers,
# char literals and lifetimes, non-ASCII text, a string with no end) goes to
# ``_step``, the reference, one token at a time. tests/unit/test_rustlex.py
# checks both paths give the same tokens on generated text.
_FAST = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>//[^\n]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*+)(?![^\x00-\x7f]|["\#])
  | (?P<num>[0-9](?:[A-Za-z0-9_]|\.(?=[0-9]))*+)(?![^\x00-\x7f]|\.[^\x00-\x7f])
  | [bc]?"(?P<str>[^"\\]*+(?:\\[\s\S][^"\\]*+)*+)"
  | (?P<punct>::|=>|->|\.\.|==|!=|&&|\|\||<=|>=|\+=|-=|/(?![/*])|[!\#$%&()*+,\-.:;<=>?@\[\]^`{|}~\\])
  | (?P<slow>[\s\S])
""", re.VERBOSE)


@functools.lru_cache(maxsize=4)
def _tokenize(text: str, fast: bool = True) -> tuple[Token, ...]:
    tokens: list[Token] = []
    append, new = tokens.append, tuple.__new__  # Token(...) without its Python-level __new__
    pos, line, n = 0, 1, len(text)
    while pos < n:
        if fast:
            for m in _FAST.finditer(text, pos):
                kind = m.lastgroup
                if kind == "ws":
                    line += m.group().count("\n")
                elif kind == "str":
                    raw = m.group("str")
                    append(new(Token, ("str", _unescape(raw), line)))
                    line += raw.count("\n")
                elif kind == "slow":
                    pos = m.start()
                    break
                elif kind != "comment":
                    append(new(Token, (kind, m.group(), line)))
            else:
                break
        pos, line = _step(text, pos, line, tokens)
    return tuple(tokens)


def _step(text: str, i: int, line: int, tokens: list[Token]) -> tuple[int, int]:
    """One token (or blank, or comment) at *i*, character by character: (next i, line)."""
    n = len(text)
    ch = text[i]
    if ch == "\n":
        line += 1
        i += 1
    elif ch.isspace():
        i += 1
    elif text.startswith("//", i):
        end = text.find("\n", i)
        i = n if end < 0 else end
    elif text.startswith("/*", i):
        depth, j = 1, i + 2  # Rust block comments nest
        while j < n and depth:
            if text.startswith("/*", j):
                depth, j = depth + 1, j + 2
            elif text.startswith("*/", j):
                depth, j = depth - 1, j + 2
            else:
                j += 1
        line += text.count("\n", i, j)
        i = j
    elif (raw := _raw_string_start(text, i)) is not None:
        start, hashes = raw
        close = '"' + "#" * hashes
        end = text.find(close, start)
        end = n if end < 0 else end
        tokens.append(Token("str", text[start:end], line))
        line += text.count("\n", i, end)
        i = end + len(close)
    elif ch == '"' or (ch in "bc" and text.startswith('"', i + 1)):
        j = i + (1 if ch == '"' else 2)
        start = j
        while j < n and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        tokens.append(Token("str", _unescape(text[start:j]), line))
        line += text.count("\n", i, j)
        i = j + 1
    elif ch == "'":
        if (m := _CHAR.match(text, i)) is not None:  # 'a', '\n', '\u{1F600}'
            tokens.append(Token("char", _unescape(m.group(1)), line))
            i = m.end()
        else:  # a lifetime or label: 'a, 'static, 'outer
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(Token("lifetime", text[i:j], line))
            i = max(j, i + 1)
    elif ch.isalpha() or ch == "_":
        j = i
        while j < n and (text[j].isalnum() or text[j] == "_"):
            j += 1
        word = text[i:j]
        if word == "r" and j < n and text[j] == "#":  # raw identifier r#type
            k = j + 1
            while k < n and (text[k].isalnum() or text[k] == "_"):
                k += 1
            word, j = text[j + 1:k], k
        tokens.append(Token("ident", word, line))
        i = j
    elif ch.isdigit():
        j = i
        while j < n and (text[j].isalnum() or text[j] == "_" or (text[j] == "." and text[j + 1:j + 2].isdigit())):
            j += 1
        tokens.append(Token("num", text[i:j], line))
        i = j
    else:
        two = text[i:i + 2]
        width = 2 if two in _PUNCT2 else 1
        tokens.append(Token("punct", text[i:i + width], line))
        i += width
    return i, line


def _raw_string_start(text: str, i: int) -> tuple[int, int] | None:
    """(content start, number of #) when a raw string (r"..", r#".."#, br"..", cr"..") starts at *i*."""
    j = i + (1 if text.startswith(("br", "cr"), i) else 0)
    if not text.startswith("r", j) or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
        return None
    k = j + 1
    while k < len(text) and text[k] == "#":
        k += 1
    if k < len(text) and text[k] == '"':
        return k + 1, k - j - 1
    return None


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


def bracket_pairs(tokens: Sequence[Token]) -> dict[int, int]:
    """Index of each opening bracket -> index of its closing one (unbalanced ones are left out)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for idx, tok in enumerate(tokens):
        if tok.kind != "punct":
            continue
        if tok.text in _OPEN:
            stack.append(idx)
        elif tok.text in (")", "]", "}"):
            # Pop to the nearest opener of the same kind: one stray bracket must not shift every pair.
            for k in range(len(stack) - 1, -1, -1):
                if _OPEN[tokens[stack[k]].text] == tok.text:
                    pairs[stack[k]] = idx
                    del stack[k:]
                    break
    return pairs

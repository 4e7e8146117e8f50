"""A small Rust tokenizer: enough to see a build script's branches, not to compile it.

Comments are dropped (a commented-out ``println!`` must not count), string
literals keep their raw text (so ``"cargo:rustc-link-lib=..."`` is found
whole), and every token carries its 1-based line.
"""

from __future__ import annotations

from dataclasses import dataclass

_TWO = {"::", "=>", "==", "!=", "&&", "||", "->", "<=", ">=", "..", "+=", "-="}
_OPEN = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class Token:
    kind: str   # ident, str, num, char, lifetime, punct
    text: str   # for str: the literal's content, without quotes or raw-string hashes
    line: int

    def is_(self, text: str) -> bool:
        return self.kind in ("ident", "punct") and self.text == text


def tokenize(src: str) -> list[Token]:
    out: list[Token] = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 1
        elif src.startswith("/*", i):
            depth, i = 1, i + 2   # Rust block comments nest
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += src[i] == "\n"
                    i += 1
        elif _raw_string_start(src, i) is not None:
            start, hashes = _raw_string_start(src, i) or (0, 0)
            close = '"' + "#" * hashes
            end = src.find(close, start)
            end = n if end < 0 else end
            out.append(Token("str", src[start:end], line))
            line += src.count("\n", start, end)
            i = end + len(close)
        elif c == '"' or (c in "bc" and src.startswith('"', i + 1)):
            j = i + (1 if c == '"' else 2)
            start = j
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(Token("str", src[start:j], line))
            line += src.count("\n", start, j)
            i = j + 1
        elif c == "'":
            i = _quote(src, i, line, out)
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[i:j]
            if word == "r" and j < n and src[j] == "#":   # raw identifier r#type
                k = j + 1
                while k < n and (src[k].isalnum() or src[k] == "_"):
                    k += 1
                word, j = src[j + 1:k], k
            out.append(Token("ident", word, line))
            i = j
        elif c.isdigit():
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_" or (src[j] == "." and src[j + 1:j + 2].isdigit())):
                j += 1
            out.append(Token("num", src[i:j], line))
            i = j
        else:
            two = src[i:i + 2]
            text = two if two in _TWO else c
            out.append(Token("punct", text, line))
            i += len(text)
    return out


def _raw_string_start(src: str, i: int) -> tuple[int, int] | None:
    """(content start, number of #) when a raw string (r"..", r#".."#, br"..") starts at *i*."""
    j = i + (1 if src.startswith(("br", "cr"), i) else 0)
    if not src.startswith("r", j) or (i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")):
        return None
    k = j + 1
    while k < len(src) and src[k] == "#":
        k += 1
    if k < len(src) and src[k] == '"':
        return k + 1, k - j - 1
    return None


def _quote(src: str, i: int, line: int, out: list[Token]) -> int:
    """A char literal ('a', '\\n', '\\u{1F600}') or a lifetime ('a, 'static)."""
    if src.startswith("\\", i + 1):
        end = src.find("'", i + 2)
        end = len(src) if end < 0 else end
        out.append(Token("char", src[i + 1:end], line))
        return end + 1
    if i + 2 < len(src) and src[i + 2] == "'":
        out.append(Token("char", src[i + 1], line))
        return i + 3
    j = i + 1
    while j < len(src) and (src[j].isalnum() or src[j] == "_"):
        j += 1
    out.append(Token("lifetime", src[i:j], line))
    return j


def matching(tokens: list[Token]) -> dict[int, int]:
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

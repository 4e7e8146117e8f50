"""Translate a JavaScript regular expression (no flags) into Python's dialect.

picomatch hands its output to ``new RegExp(source)``, which follows the
web-compatibility grammar (ECMA-262 Annex B): a ``{`` that is no quantifier
is a literal, ``\\a`` means ``a``, ``[]`` never matches and ``[^]`` matches
anything, ``.`` stops at \\r and U+2028 too, ``$`` is the very end, and
``\\d``/``\\w`` are ASCII. Python differs on each, and accepts things
JavaScript rejects (``a*+`` is possessive in 3.11), so every construct is
re-emitted explicitly and JavaScript's syntax errors are raised as
``JSRegexError``, which picomatch turns into a regex that matches nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_DOT = "[^\\n\\r\\u2028\\u2029]"
_JS_SPACE = "\\t\\n\\v\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_SETS = {"d": "0-9", "w": "A-Za-z0-9_", "s": _JS_SPACE}
_CONTROL = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_QUANT = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")
_NAME = re.compile(r"<([A-Za-z_$][A-Za-z0-9_$]*)>")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


class JSRegexError(ValueError):
    """``new RegExp(source)`` would throw a SyntaxError."""


def _char(c: str) -> str:
    """One literal character, safe anywhere in a Python pattern (short, for compile speed)."""
    if c.isascii() and (c.isalnum() or c == "_"):
        return c
    if c.isascii() and c.isprintable() and c != " ":
        return "\\" + c
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else (f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")


def _syntax(src: str) -> Iterator[tuple[int, str]]:
    """(index, char) of each regex metacharacter position: not escaped, not in a [...] class."""
    i, in_class = 0, False
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        else:
            yield i, c
        i += 1


def _count_groups(src: str) -> int:
    return sum(
        1
        for i, c in _syntax(src)
        if c == "(" and (src[i + 1 : i + 2] != "?" or (src[i + 2 : i + 3] == "<" and src[i + 3 : i + 4] not in "=!"))
    )


class _Translator:
    def __init__(self, src: str) -> None:
        self.src, self.i = src, 0
        self.out: list[str] = []
        self.groups = _count_groups(src)
        self.names: dict[str, str] = {}
        self.has_names = _NAME.search(src) is not None and "(?<" in src

    def fail(self, why: str) -> JSRegexError:
        return JSRegexError(f"{why} at {self.i} in /{self.src}/")

    def run(self) -> str:
        src, stack = self.src, list[str]()
        last: str | None = None  # None | atom | quantified | assertion
        while self.i < len(src):
            c = src[self.i]
            if c in "*+?" or (c == "{" and _QUANT.match(src, self.i)):
                self._quantifier(last)
                last = "quantified"
                continue
            self.i += 1
            if c == "\\":
                last = self._escape()
            elif c == "[":
                self.out.append(self._class())
                last = "atom"
            elif c == "(":
                stack.append(self._open_group())
                last = None
            elif c == ")":
                if not stack:
                    raise self.fail("unmatched ')'")
                self.out.append(")")
                last = "assertion" if stack.pop() == "lookbehind" else "atom"
            elif c == "|":
                self.out.append("|")
                last = None
            elif c in "^$":
                self.out.append("^" if c == "^" else "\\Z")
                last = "assertion"
            elif c == ".":
                self.out.append(_DOT)
                last = "atom"
            else:
                self.out.append(_char(c))
                last = "atom"
        if stack:
            raise self.fail("unterminated group")
        return "".join(self.out)

    def _quantifier(self, last: str | None) -> None:
        if last in (None, "assertion", "quantified"):
            raise self.fail("nothing to repeat")
        src = self.src
        m = _QUANT.match(src, self.i)
        if src[self.i] == "{" and m is not None:
            lo, comma, hi = m.group(1), m.group(2), m.group(3)
            if comma and hi and int(lo) > int(hi):
                raise self.fail("numbers out of order in {} quantifier")
            self.out.append(m.group(0))
            self.i = m.end()
        else:
            self.out.append(src[self.i])
            self.i += 1
        if src[self.i : self.i + 1] == "?":
            self.out.append("?")
            self.i += 1

    def _open_group(self) -> str:
        src, i = self.src, self.i
        if src[i : i + 1] != "?":
            self.out.append("(")
            return "group"
        for head, kind in (("?:", "group"), ("?=", "lookahead"), ("?!", "lookahead"),
                           ("?<=", "lookbehind"), ("?<!", "lookbehind")):
            if src.startswith(head, i):
                self.out.append("(" + head)
                self.i += len(head)
                return kind
        m = _NAME.match(src, i + 1) if src[i + 1 : i + 2] == "<" else None
        if m is None:
            raise self.fail("invalid group")
        name = m.group(1)
        if name in self.names:
            raise self.fail("duplicate capture group name")
        self.names[name] = f"n{len(self.names)}"
        self.out.append(f"(?P<{self.names[name]}>")
        self.i = m.end()
        return "group"

    def _escape(self) -> str:
        """An escape outside a class; returns what it is for quantifiers."""
        src = self.src
        if self.i >= len(src):
            raise self.fail("\\ at end of pattern")
        c = src[self.i]
        if c in "bB":
            self.i += 1
            self.out.append("\\" + c)
            return "assertion"
        if c.lower() in _SETS:
            self.i += 1
            self.out.append(f"[{'^' if c.isupper() else ''}{_SETS[c.lower()]}]")
            return "atom"
        if c in "123456789":
            digits = re.match(r"\d+", src[self.i :])
            assert digits is not None
            if int(digits.group(0)) <= self.groups:
                self.i += len(digits.group(0))
                self.out.append(f"(?:\\{int(digits.group(0))})")
                return "atom"
        if c == "k" and self.has_names:
            m = _NAME.match(src, self.i + 1)
            if m is None:
                raise self.fail("invalid named reference")
            self.i = m.end()
            self.out.append(f"(?P={self.names.get(m.group(1), m.group(1))})")
            return "atom"
        if c == "c" and not re.match(r"[A-Za-z]", src[self.i + 1 : self.i + 2]):
            self.out.append(_char("\\"))  # Annex B: a lone \c is a backslash
            return "atom"
        self.out.append(_char(self._char_escape(in_class=False)))
        return "atom"

    def _char_escape(self, in_class: bool) -> str:
        """The character a non-class escape denotes; self.i is past the backslash."""
        src, c = self.src, self.src[self.i]
        self.i += 1
        if c in _CONTROL:
            return _CONTROL[c]
        if c == "b" and in_class:
            return "\b"
        if c == "c":
            ctl = src[self.i : self.i + 1]
            if ctl and (ctl.isascii() and (ctl.isalpha() or (in_class and (ctl.isdigit() or ctl == "_")))):
                self.i += 1
                return chr(ord(ctl) % 32)
            self.i -= 1  # `\c` then `c` as text
            return "\\"
        if c in "x":
            m = _HEX2.match(src, self.i)
            if m:
                self.i = m.end()
                return chr(int(m.group(0), 16))
            return c
        if c == "u":
            m = _HEX4.match(src, self.i)
            if m:
                self.i = m.end()
                return chr(int(m.group(0), 16))
            return c
        if c in "01234567":
            # Legacy octal: up to three digits, value at most 0o377.
            digits = c
            while len(digits) < 3 and src[self.i : self.i + 1] in tuple("01234567") and int(
                digits + src[self.i], 8
            ) <= 0o377:
                digits += src[self.i]
                self.i += 1
            return chr(int(digits, 8))
        return c

    def _class(self) -> str:
        src = self.src
        negated = src[self.i : self.i + 1] == "^"
        if negated:
            self.i += 1
        items: list[str] = []
        while True:
            if self.i >= len(src):
                raise self.fail("unterminated character class")
            if src[self.i] == "]":
                self.i += 1
                break
            first = self._class_atom()
            if src[self.i : self.i + 1] == "-" and src[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                second = self._class_atom()
                if len(first) == 1 and len(second) == 1:
                    if ord(first) > ord(second):
                        raise self.fail("range out of order in character class")
                    items.append(f"{_char(first)}-{_char(second)}")
                    continue
                # Annex B: a range with a class escape at either end is literal.
                items.extend(_class_item(x) for x in (first, "-", second))
                continue
            items.append(_class_item(first))
        if not items:
            return "[\\s\\S]" if negated else "(?!)"
        return f"[{'^' if negated else ''}{''.join(items)}]"

    def _class_atom(self) -> str:
        """One class member: a character, or a two-char marker like ``\\d``."""
        src = self.src
        c = src[self.i]
        self.i += 1
        if c != "\\":
            return c
        if self.i >= len(src):
            raise self.fail("\\ at end of pattern")
        e = src[self.i]
        if e.lower() in _SETS:
            self.i += 1
            return "\\" + e
        if e in "89":
            self.i += 1
            return e
        return self._char_escape(in_class=True)


def _class_item(atom: str) -> str:
    if len(atom) == 2 and atom[0] == "\\":
        e = atom[1]
        # Inside a class Python's \D, \W (ASCII mode) equal JavaScript's;
        # \S there is ASCII-only, a difference only for exotic spaces.
        return _SETS[e] if e.islower() else atom
    return _char(atom)


def translate(src: str) -> str:
    return _Translator(src).run()


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-,=@#%&~`;:<>'\" !/")


def literal_prefix(body: str) -> str:
    """Text every match of ``^(?:body)`` must start with ('' when unsure).

    Used to skip compiling rules no path can match: a rule such as
    ``crates/x/{build.rs,src/**}`` can only match paths starting ``crates/x/``.
    Conservative by construction: it stops at the first metacharacter, drops
    a literal that a quantifier makes optional, and gives up on a top-level
    alternation.
    """
    depth, first_close = 0, -1
    for i, c in _syntax(body):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and first_close < 0:
                first_close = i
        elif c == "|" and depth == 0:
            return ""
    if body.startswith("^(?:") and first_close == len(body) - 2 and body.endswith(")$"):
        # picomatch's shortcut for slash-free patterns wraps its output once more.
        return literal_prefix(body[4:-2])
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and not body[i + 1].isalnum():
            out.append(body[i + 1])
            i += 2
        elif c in _PLAIN:
            out.append(c)
            i += 1
        else:
            break
        if body[i : i + 1] in ("*", "+", "?", "{"):
            out.pop()
            break
    return "".join(out)

"""picomatch's two shortcuts, which produce different regexes from the parser.

``fastpaths`` is ``parse.fastpaths`` (tried by makeRe when a pattern starts
with ``.`` or ``*``); ``simple`` is the shortcut at the top of ``parse`` for
patterns with no brackets, braces, parens, slashes or leading ``*``/``!``.
Both must be copied because their output differs in small ways (``*.md``
here allows a trailing slash; the parser's own would not add ``(?=.)``...).
"""

from __future__ import annotations

import re

from linkgate.picomatch.constants import (
    DOT_LITERAL,
    GLOBSTAR,
    NO_DOTS,
    NO_DOTS_SLASH,
    ONE_CHAR,
    QMARK,
    REPLACEMENTS,
    SLASH_LITERAL,
    SPECIAL_CHARS_BACKREF,
    STAR,
    remove_prefix,
)

_EXT = re.compile(r"^(.*?)\.([A-Za-z0-9_]+)$")
_NOT_SIMPLE = re.compile(r"^[*!]|[/()\[\]{}\"]")


def _create(text: str) -> str | None:
    nodot, slash_dot, star = NO_DOTS, NO_DOTS_SLASH, STAR
    if text == "*":
        return f"{nodot}{ONE_CHAR}{star}"
    if text == ".*":
        return f"{DOT_LITERAL}{ONE_CHAR}{star}"
    if text == "*.*":
        return f"{nodot}{star}{DOT_LITERAL}{ONE_CHAR}{star}"
    if text == "*/*":
        return f"{nodot}{star}{SLASH_LITERAL}{ONE_CHAR}{slash_dot}{star}"
    if text == "**":
        return nodot + GLOBSTAR
    if text == "**/*":
        return f"(?:{nodot}{GLOBSTAR}{SLASH_LITERAL})?{slash_dot}{ONE_CHAR}{star}"
    if text == "**/*.*":
        return f"(?:{nodot}{GLOBSTAR}{SLASH_LITERAL})?{slash_dot}{star}{DOT_LITERAL}{ONE_CHAR}{star}"
    if text == "**/.*":
        return f"(?:{nodot}{GLOBSTAR}{SLASH_LITERAL})?{DOT_LITERAL}{ONE_CHAR}{star}"
    m = _EXT.match(text)
    if m is None:
        return None
    inner = _create(m.group(1))
    if not inner:
        return None
    return inner + DOT_LITERAL + m.group(2)


def fastpaths(pattern: str) -> str | None:
    text = remove_prefix(REPLACEMENTS.get(pattern, pattern))
    out = _create(text)
    return out + f"{SLASH_LITERAL}?" if out else None


def is_simple(text: str) -> bool:
    return _NOT_SIMPLE.search(text) is None


def simple(text: str) -> str:
    """The parser's shortcut: escape specials, turn ``?``/``*`` into classes."""
    backslashes = False

    def replace(m: re.Match[str]) -> str:
        nonlocal backslashes
        esc, chars, first, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        if first == "\\":
            backslashes = True
            return m.group(0)
        if first == "?":
            if esc:
                return esc + first + (QMARK * len(rest) if rest else "")
            # At index 0 picomatch uses qmarkNoDot, which is QMARK under dot.
            return QMARK * len(chars)
        if first == ".":
            return DOT_LITERAL * len(chars)
        if first == "*":
            if esc:
                return esc + first + (STAR if rest else "")
            return STAR
        return m.group(0) if esc else "\\" + m.group(0)

    output = SPECIAL_CHARS_BACKREF.sub(replace, text)
    if backslashes:
        output = re.sub(r"\\+", lambda m: "\\\\" if len(m.group(0)) % 2 == 0 else "\\", output)
    return f"^(?:{output})$"

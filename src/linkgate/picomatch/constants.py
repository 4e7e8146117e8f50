"""picomatch 2.3.1's regex building blocks for POSIX paths (lib/constants.js).

Only the POSIX set is needed: paths-filter runs on Linux runners and git
reports paths with forward slashes.
"""

from __future__ import annotations

import re

DOT_LITERAL = r"\."
PLUS_LITERAL = r"\+"
SLASH_LITERAL = r"\/"
ONE_CHAR = "(?=.)"
QMARK = "[^/]"
END_ANCHOR = rf"(?:{SLASH_LITERAL}|$)"
START_ANCHOR = rf"(?:^|{SLASH_LITERAL})"
DOTS_SLASH = rf"{DOT_LITERAL}{{1,2}}{END_ANCHOR}"
NO_DOT = rf"(?!{DOT_LITERAL})"
NO_DOTS = rf"(?!{START_ANCHOR}{DOTS_SLASH})"
NO_DOT_SLASH = rf"(?!{DOT_LITERAL}{{0,1}}{END_ANCHOR})"
NO_DOTS_SLASH = rf"(?!{DOTS_SLASH})"
QMARK_NO_DOT = rf"[^.{SLASH_LITERAL}]"
STAR = f"{QMARK}*?"

# With {dot: true} a globstar may cross dot-segments but never `.`/`..`.
GLOBSTAR = rf"(?:(?:(?!{START_ANCHOR}{DOTS_SLASH}).)*?)"

POSIX_REGEX_SOURCE = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "ascii": "\\x00-\\x7F",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9",
    "graph": "\\x21-\\x7E",
    "lower": "a-z",
    "print": "\\x20-\\x7E ",
    "punct": "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
    "space": " \\t\\r\\n\\v\\f",
    "upper": "A-Z",
    "word": "A-Za-z0-9_",
    "xdigit": "A-Fa-f0-9",
}

# type -> (open, close) of an extglob; `!` closes with a star, see parse.
EXTGLOB_CHARS = {
    "!": ("negate", "(?:(?!(?:", f")){STAR})"),
    "?": ("qmark", "(?:", ")?"),
    "+": ("plus", "(?:", ")+"),
    "*": ("star", "(?:", ")*"),
    "@": ("at", "(?:", ")"),
}

REPLACEMENTS = {"***": "*", "**/**": "**", "**/**/**": "**"}

# JavaScript's \W is ASCII-only, so these spell the classes out.
NON_SPECIAL_CHARS = re.compile(r"[^@!\[\].,$*+?^{}()|\\/]+")
SPECIAL_CHARS = re.compile(r"[-*+?.^${}(|)\[\]]")
SPECIAL_CHARS_BACKREF = re.compile(r"(\\?)(([^A-Za-z0-9_])(\3*))")


def escape_regex(text: str) -> str:
    return SPECIAL_CHARS.sub(lambda m: "\\" + m.group(0), text)


def has_regex_chars(text: str) -> bool:
    return SPECIAL_CHARS.search(text) is not None


def remove_prefix(text: str) -> str:
    return text[2:] if text.startswith("./") else text


def escape_last(text: str, char: str, last: int | None = None) -> str:
    """Escape the last unescaped *char* (utils.escapeLast)."""
    idx = text.rfind(char, 0, (last + 1) if last is not None else len(text))
    if idx == -1:
        return text
    if idx > 0 and text[idx - 1] == "\\":
        return escape_last(text, char, idx - 1)
    return f"{text[:idx]}\\{text[idx:]}"

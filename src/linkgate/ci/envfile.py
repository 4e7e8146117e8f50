"""Turn a provisioning script's ``export VAR=value`` output into $GITHUB_ENV lines.

The usual ``script --env | sed 's/^export //' >> "$GITHUB_ENV"`` breaks on
quoted values (the quotes land in the value), on values with newlines (each
line becomes a bogus entry) and on ``$HOME``-style references. This module
reads the output as bash would read it and writes GitHub's format, choosing
the ``NAME<<DELIM`` form when a value spans lines.

Hand-written because the quoting rules matter: ``shlex`` drops the kind of
quote, so it cannot tell ``'$x'`` (literal) from ``"$x"`` (expanded), and it
knows nothing of ``$'\\n'``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EXPORTERS = {("export",), ("declare", "-x"), ("typeset", "-x"), ("declare", "-gx")}
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b",
         "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v"}


class EnvSyntaxError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Assignment:
    name: str
    value: str
    line: int


def parse(text: str, environ: Mapping[str, str] | None = None) -> list[Assignment]:
    """Every assignment in *text*, later ones seeing earlier ones in ``$VAR``."""
    scope = dict(environ or {})
    out: list[Assignment] = []
    for line, words in _statements(text, scope):
        if not words:
            continue
        i = 0
        for prefix in sorted(_EXPORTERS, key=len, reverse=True):
            if tuple(w for w, _ in words[: len(prefix)]) == prefix and all(not q for _, q in words[: len(prefix)]):
                i = len(prefix)
                break
        rest = words[i:]
        if not rest:
            continue
        for word, _quoted in rest:
            name, eq, value = word.partition("=")
            if not eq or not _NAME.fullmatch(name):
                raise EnvSyntaxError(
                    f"expected NAME=value or export NAME=value, found {word!r}", line
                )
            scope[name] = value
            out.append(Assignment(name, value, line))
    return out


def _statements(text: str, scope: dict[str, str]) -> Iterator[tuple[int, list[tuple[str, bool]]]]:
    """Split into statements (newline or ``;``) of words, expanding as bash does.

    Assignments in one statement see earlier statements' values only, which is
    what ``export A=1 B=$A`` does in bash too (B sees the old A).
    """
    i, n, line = 0, len(text), 1
    words: list[tuple[str, bool]] = []
    start_line = 1
    while i < n:
        c = text[i]
        if c in " \t":
            i += 1
        elif c in "\n;":
            if c == "\n":
                line += 1
            yield start_line, words
            words, start_line = [], line
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        else:
            word, quoted, i, line = _word(text, i, line, scope)
            words.append((word, quoted))
    yield start_line, words


def _word(text: str, i: int, line: int, scope: Mapping[str, str]) -> tuple[str, bool, int, int]:
    n = len(text)
    buf: list[str] = []
    quoted = False
    while i < n and text[i] not in " \t\n;":
        c = text[i]
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise EnvSyntaxError("unterminated single quote", line)
            chunk = text[i + 1 : end]
            line += chunk.count("\n")
            buf.append(chunk)
            quoted, i = True, end + 1
        elif c == "$" and i + 1 < n and text[i + 1] == "'":
            i, line = _ansi(text, i + 2, line, buf)
            quoted = True
        elif c == '"':
            i, line = _double(text, i + 1, line, buf, scope)
            quoted = True
        elif c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                line += 1  # line continuation
            elif i + 1 < n:
                buf.append(text[i + 1])
            i += 2
        elif c == "$":
            value, i = _expand(text, i, scope, line)
            buf.append(value)
        else:
            buf.append(c)
            i += 1
    return "".join(buf), quoted, i, line


def _double(text: str, i: int, line: int, buf: list[str], scope: Mapping[str, str]) -> tuple[int, int]:
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1, line
        if c == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] == "\n":
                line += 1
            else:
                buf.append(text[i + 1])
            i += 2
        elif c == "$":
            value, i = _expand(text, i, scope, line)
            buf.append(value)
        else:
            if c == "\n":
                line += 1
            buf.append(c)
            i += 1
    raise EnvSyntaxError("unterminated double quote", line)


def _ansi(text: str, i: int, line: int, buf: list[str]) -> tuple[int, int]:
    """``$'...'``: escapes as bash reads them. ``\\NNN`` and ``\\xHH`` are bytes
    (``printf %q`` writes UTF-8 that way), so the value is built as bytes."""
    n = len(text)
    out = bytearray()
    while i < n:
        c = text[i]
        if c == "'":
            buf.append(out.decode("utf-8", errors="replace"))
            return i + 1, line
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt in _ANSI:
                out += _ANSI[nxt].encode()
                i += 2
                continue
            if nxt == "x" and (m := re.match(r"[0-9A-Fa-f]{1,2}", text[i + 2 :])):
                out.append(int(m.group(), 16))
                i += 2 + len(m.group())
                continue
            if nxt in "uU" and (m := re.match(r"[0-9A-Fa-f]{1,%d}" % (4 if nxt == "u" else 8), text[i + 2 :])):
                out += chr(int(m.group(), 16)).encode("utf-8", errors="replace")
                i += 2 + len(m.group())
                continue
            if (m := re.match(r"[0-7]{1,3}", text[i + 1 :])):
                out.append(int(m.group(), 8) & 0xFF)
                i += 1 + len(m.group())
                continue
        if c == "\n":
            line += 1
        out += c.encode("utf-8", errors="surrogatepass")
        i += 1
    raise EnvSyntaxError("unterminated $'...' quote", line)


def _expand(text: str, i: int, scope: Mapping[str, str], line: int) -> tuple[str, int]:
    """``$NAME`` or ``${NAME}``; anything fancier is refused, not guessed."""
    if text.startswith("${", i):
        end = text.find("}", i)
        name = text[i + 2 : end] if end > 0 else ""
        if not _NAME.fullmatch(name):
            raise EnvSyntaxError(f"unsupported expansion ${{{name}...}}: print the value instead", line)
        return scope.get(name, ""), end + 1
    m = _NAME.match(text, i + 1)
    if not m:
        return "$", i + 1
    return scope.get(m.group(), ""), m.end()


def render(assignments: list[Assignment]) -> str:
    """$GITHUB_ENV text: ``NAME=value``, or the delimiter form for multi-line values."""
    out = []
    for a in assignments:
        if "\n" in a.value or "\r" in a.value:
            delim = f"ghadelimiter_{secrets.token_hex(8)}"
            while delim in a.value:
                delim = f"ghadelimiter_{secrets.token_hex(8)}"
            out.append(f"{a.name}<<{delim}\n{a.value}\n{delim}\n")
        else:
            out.append(f"{a.name}={a.value}\n")
    return "".join(out)


def read_github_env(text: str) -> dict[str, str]:
    """Parse $GITHUB_ENV text as the runner does (used to check round trips)."""
    env: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        entry = lines[i]
        i += 1
        if not entry:
            continue
        if "<<" in entry and ("=" not in entry or entry.index("<<") < entry.index("=")):
            name, delim = entry.split("<<", 1)
            body = []
            while i < len(lines) and lines[i] != delim:
                body.append(lines[i])
                i += 1
            i += 1
            env[name] = "\n".join(body)
        else:
            name, _, value = entry.partition("=")
            env[name] = value
    return env

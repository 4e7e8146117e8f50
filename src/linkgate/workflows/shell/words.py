"""Expand words as bash does, over values that may be unknown.

A value is a ``Val``: its text, and the causes that make it unknown (empty
when it is known). Unknown parts keep their text as written (``$X``,
``$(cmd)``), so a command is never dropped and its unknown words can be named.
Unquoted expansions are split on whitespace (bash's default IFS); quoted ones
are not; ``"$@"`` and ``"${a[@]}"`` give one field per element. Pathname
expansion is not done: a ``*`` stays a ``*``.

Bounded: no value grows past ``MAX_VALUE`` characters. A script can double a
string (``x=$x$x`` 64 times, ``${x//?/$x}``) far past any memory; a value
that would pass the cap is unknown instead (``Scope.capped`` records a note).
Patterns run on RE2 (``linkgate.userregex``): linear in the text, whatever
the script wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Union

from linkgate.userregex import RegexRefused, UserRegex, compile_user
from linkgate.workflows.shell.arith import arithmetic
from linkgate.workflows.shell.syntax import Expr, Lit, Opaque, Param, Subst, Word


@dataclass(frozen=True)
class Val:
    text: str
    causes: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return not self.causes


Value = Union[Val, tuple[Val, ...]]
EMPTY = Val("")
# 64 KiB: ARG_MAX caps one argument near 128 KiB on Linux (MAX_ARG_STRLEN),
# and no cargo command line seen in CI comes near 64 KiB; half of that keeps
# the slow parts (pattern strips, substitutions) well under a second per value.
MAX_VALUE = 1 << 16
# `${x#pat}` and friends try every cut of the value, each one match: quadratic,
# so only values up to 4 KiB (longer than any path or flag list) are stripped.
MAX_STRIP = 1 << 12
OUTSIDE = Val("", ("<outside>",))


class Scope(Protocol):
    def lookup(self, name: str) -> Value | None:
        """The variable's value; None when the script has not set it."""

    def outside(self, name: str) -> bool:
        """Whether an unset *name* may come from the runner's environment (so is unknown)."""

    def positional(self) -> tuple[Val, ...]: ...

    def arg0(self) -> Val: ...

    def assign(self, name: str, value: Val) -> None: ...

    def expr(self, index: int) -> Val: ...

    def subst(self, part: Subst) -> Val: ...

    def capped(self, written: str, limit: int = MAX_VALUE) -> Val:
        """The value of *written*, unknown because it grew past MAX_VALUE (a note is recorded)."""


def unknown(text: str) -> Val:
    return Val(text, (text,))


def join(vals: Sequence[Val], sep: str = " ") -> Val:
    return Val(sep.join(v.text for v in vals), tuple(c for v in vals for c in v.causes))


def written(word: Word) -> str:
    """The word as the script wrote it, near enough to name it in a note."""
    return "".join(p.text if isinstance(p, (Lit, Param, Subst, Opaque)) else "${{ ... }}" for p in word)


def expand_word(word: Word, scope: Scope) -> list[Val]:
    """Fields of *word* after parameter expansion and word splitting."""
    fields = _expand_word(word, scope)
    if sum(len(f.text) for f in fields) > MAX_VALUE:
        return [scope.capped(written(word))]
    return fields


def _expand_word(word: Word, scope: Scope) -> list[Val]:
    if len(word) == 1 and isinstance(word[0], Lit):  # the common case: plain text
        return [Val(word[0].text)] if word[0].text or word[0].quoted else []
    fields: list[Val] = []
    text: list[str] = []
    causes: list[str] = []
    keep = False  # a quoted part makes an empty field survive

    def flush() -> None:
        nonlocal keep
        if text or keep:
            fields.append(Val("".join(text), tuple(dict.fromkeys(causes))))
        text.clear()
        causes.clear()
        keep = False

    for part in word:
        if isinstance(part, Lit):
            text.append(part.text)
            keep = keep or part.quoted
            continue
        if _is_list(part):
            assert isinstance(part, Param)
            items = _items(part, scope)
            if part.quoted and (part.name == "@" or part.index == "@"):
                for i, item in enumerate(items):
                    if i:
                        flush()
                    text.append(item.text)
                    causes.extend(item.causes)
                    keep = True
                continue
            # Quoted `"${a[*]}"` joins with IFS's first character (`IFS=','`), as bash does.
            ifs = scope.lookup("IFS") if part.quoted else None
            sep = ifs.text[:1] if isinstance(ifs, Val) and ifs.known else " "
            value = join(items, sep)
        else:
            value = _scalar(part, scope)
        causes.extend(value.causes)
        if part.quoted:
            text.append(value.text)
            keep = True
            continue
        if value.causes and value.text in value.causes:
            # Wholly unknown (`$X`, `$(cmd)`): one word, kept as written.
            text.append(value.text)
            continue
        pieces = value.text.split()
        if not pieces:
            continue
        if value.text[:1].isspace():
            flush()
        for i, piece in enumerate(pieces):
            if i:
                flush()
                causes.extend(value.causes)
            text.append(piece)
        if value.text[-1:].isspace():
            flush()
    flush()
    return fields


def expand_joined(word: Word, scope: Scope) -> Val:
    """The word as one string, as in an assignment or ``[[ ]]`` (no splitting)."""
    if len(word) == 1 and isinstance(word[0], Lit):
        return Val(word[0].text)
    text: list[str] = []
    causes: list[str] = []
    for part in word:
        if isinstance(part, Lit):
            text.append(part.text)
            continue
        value = join(_items(part, scope)) if isinstance(part, Param) and _is_list(part) else _scalar(part, scope)
        text.append(value.text)
        causes.extend(value.causes)
        if sum(map(len, text)) > MAX_VALUE:
            return scope.capped(written(word))
    return Val("".join(text), tuple(dict.fromkeys(causes)))


def expand_pattern(word: Word, scope: Scope) -> str | None:
    """A regex for the glob *word* (quoted parts literal), or None if unknown."""
    out: list[str] = []
    for part in word:
        if isinstance(part, Lit):
            out.append(re.escape(part.text) if part.quoted else glob_regex(part.text))
            continue
        value = expand_joined((part,), scope)
        if not value.known:
            return None
        out.append(re.escape(value.text) if part.quoted else glob_regex(value.text))
    return "".join(out)


def glob_compiled(regex: str) -> UserRegex | None:
    """*regex* (from ``glob_regex``) compiled, ``.`` matching newlines as bash's
    ``*`` and ``?`` do; None when RE2 cannot run it (a bracket it cannot read)."""
    try:
        return compile_user(regex, dotall=True)
    except RegexRefused:
        return None


def glob_matches(regex: str, text: str) -> bool | None:
    """Whether the glob *regex* matches all of *text*; None when it cannot be run."""
    compiled = glob_compiled(regex)
    return None if compiled is None else compiled.fullmatch(text)


def glob_regex(pattern: str) -> str:
    """bash's ``*``, ``?``, ``[...]`` (``!`` or ``^`` negates) and ``\\x``."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                out.append("[" + ("^" if neg else "") + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _is_list(part: object) -> bool:
    if not isinstance(part, Param):
        return False
    return (part.index is None and part.name in ("@", "*")) or part.index in ("@", "*")


def _items(part: Param, scope: Scope) -> tuple[Val, ...]:
    if part.index is None:
        return scope.positional()
    value = scope.lookup(part.name)
    if value is None:
        return (unknown(part.text),) if scope.outside(part.name) else ()
    return value if isinstance(value, tuple) else (value,)


def _scalar(part: object, scope: Scope) -> Val:
    if isinstance(part, Expr):
        return scope.expr(part.index)
    if isinstance(part, Subst):
        return scope.subst(part)
    if isinstance(part, Opaque):
        if part.text.startswith("$(("):
            # Variables inside `$(( ))` are known when their values are integers.
            number = arithmetic(part.text[3:-2], lambda key: _known(_param(Param(key, (), False, "$" + key), scope)))
            return Val(str(number)) if number is not None else unknown(part.text)
        return unknown(part.text)
    assert isinstance(part, Param)
    return _param(part, scope)


def _base(part: Param, scope: Scope) -> Val | None:
    """The parameter's value; None when unset; ``OUTSIDE`` when it may come
    from the runner's environment."""
    name = part.name
    if name.isdigit():
        if name == "0":
            return scope.arg0()
        args = scope.positional()
        n = int(name)
        return args[n - 1] if n <= len(args) else None
    if name == "#":
        return Val(str(len(scope.positional())))
    if name in ("?", "$", "!", "-", ""):
        return unknown(part.text)
    value = scope.lookup(name)
    if value is None:
        return OUTSIDE if scope.outside(name) else None
    if isinstance(value, tuple):
        if part.index is None or part.index == "0":
            return value[0] if value else None
        if part.index.isdigit():
            i = int(part.index)
            return value[i] if i < len(value) else None
        return unknown(part.text)
    return value if part.index in (None, "0") else unknown(part.text)


def _param(part: Param, scope: Scope) -> Val:
    value = _base(part, scope)
    if value is OUTSIDE:
        # Set outside the script, if at all: with a default, the script says
        # what it expects there; without one, the value is unknown.
        if part.ops and part.ops[0][0] in (":-", "-", ":=", "="):
            value = None
        else:
            return unknown(part.text)
    if part.length:
        if value is None:
            return Val("0")
        return Val(str(len(value.text))) if value.known else unknown(part.text)
    if not part.ops:
        return value if value is not None else EMPTY
    op, arg = part.ops[0]
    if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
        unset = value is None or (op.startswith(":") and value.known and value.text == "")
        if value is not None and not value.known and op.startswith(":"):
            return unknown(part.text)
        if op in (":+", "+"):
            return EMPTY if unset else expand_joined(arg, scope)
        if not unset:
            assert value is not None
            return value
        if op in (":?", "?"):
            return unknown(part.text)
        default = expand_joined(arg, scope)
        if op in (":=", "="):
            scope.assign(part.name, default)
        return default
    if value is None:
        value = EMPTY
    if not value.known:
        return unknown(part.text)
    if op in ("#", "##", "%", "%%"):
        pattern = expand_pattern(arg, scope)
        regex = glob_compiled(pattern) if pattern is not None else None
        if regex is None:
            return unknown(part.text)
        if len(value.text) > MAX_STRIP:
            return scope.capped(part.text, MAX_STRIP)
        return Val(_strip(value.text, regex, op))
    if op in ("/", "//", "/#", "/%"):
        pattern = expand_pattern(arg, scope)
        repl = expand_joined(part.ops[1][1], scope) if len(part.ops) > 1 else EMPTY
        if pattern is None or not repl.known:
            return unknown(part.text)
        if op == "//" and len(value.text) * max(len(repl.text), 1) > MAX_VALUE:
            # Checked before substituting: `${x//?/$x}` squares the length.
            return scope.capped(part.text)
        anchor = {"/#": "^", "/%": ""}.get(op, "")
        tail = "$" if op == "/%" else ""
        regex = glob_compiled(anchor + "(?:" + pattern + ")" + tail)
        if regex is None:
            return unknown(part.text)
        return Val(regex.replace_literal(repl.text, value.text, count=0 if op == "//" else 1))
    if op in ("^^", ",,", "^", ","):
        upper = op.startswith("^")
        if len(op) == 2:
            return Val(value.text.upper() if upper else value.text.lower())
        first = value.text[:1].upper() if upper else value.text[:1].lower()
        return Val(first + value.text[1:])
    return unknown(part.text)


def _strip(text: str, regex: UserRegex, op: str) -> str:
    # One match per cut (bash's own way: shortest or longest prefix or suffix),
    # so quadratic in the text: MAX_STRIP bounds it.
    cuts = range(len(text) + 1)
    if op in ("#", "##"):
        order = cuts if op == "#" else reversed(cuts)
        for n in order:
            if regex.fullmatch(text[:n]):
                return text[n:]
    else:
        order = reversed(cuts) if op == "%" else cuts
        for n in order:
            if regex.fullmatch(text[n:]):
                return text[:n]
    return text


def _known(value: Val) -> str | None:
    return value.text if value.known else None

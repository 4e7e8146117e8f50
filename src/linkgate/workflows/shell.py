"""Split a shell script into simple commands, each with its source line.

Nothing is executed. What is understood, in bash's order of operations:
backslash-newline continuations; comments; here-documents (skipped);
``$NAME``/``${NAME}``/``${NAME:-default}`` expansion from known variables
(word splitting only when unquoted, as in bash); ``&&``, ``||``, ``;``, ``|``
and ``&`` chains; redirections (dropped); ``VAR=x`` and ``export VAR=x``;
``cd``/``pushd``/``popd``; and the wrappers ``env``, ``sudo``, ``time``, ``nice``.

Limits of splitting with ``shlex`` (posix mode, punctuation_chars): no
functions, loops or ``case`` (their bodies are still seen as commands, loop
variables stay unknown); command substitution ``$(...)`` is kept verbatim and
marked unknown; an assignment is not visible to expansions later on its own
line. Anything linkgate cannot resolve stays in the argument and is listed in
``unknown``, so the command is never dropped silently.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

_SEPARATORS = {"&&", "||", ";", "|", "&", ";;", "|&", "(", ")"}
_LEADING_KEYWORDS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"}
_CLOSING = {"fi", "done", "esac", "}"}
_SKIP_COMMANDS = {"for", "case", "function", "select"}
_FD_BEFORE_REDIRECT = re.compile(r"(?<![\w$-])\d+(?=[<>])")
_HEREDOC = re.compile(r"(?<!<)<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")
_ASSIGNMENT = re.compile(r"^([A-Za-z_]\w*)=(.*)$", re.S)
_VAR_NAME = re.compile(r"[A-Za-z_]\w*")
_UNRESOLVED = re.compile(r"\$(\{|\(|[A-Za-z_])")


@dataclass(frozen=True)
class ShellCommand:
    argv: tuple[str, ...]
    line: int
    cwd: str
    cwd_unknown: bool
    env: Mapping[str, str]
    unknown: tuple[str, ...]


@dataclass
class _State:
    env: dict[str, str]
    cwd: str = ""
    cwd_unknown: bool = False
    stack: list[tuple[str, bool]] = field(default_factory=list)


def split_commands(script: str, first_line: int, env: Mapping[str, str]) -> list[ShellCommand]:
    """Every simple command in *script*; line numbers start at *first_line*.

    Memoised: a matrix job runs the same script under many combinations, and
    most combinations leave a given script's text unchanged."""
    key = (script, first_line, tuple(sorted(env.items())))
    cached = _CACHE.get(key)
    if cached is None:
        if len(_CACHE) > 4096:
            _CACHE.clear()
        cached = _CACHE[key] = tuple(_split(script, first_line, env))
    return list(cached)


_CACHE: dict[tuple[str, int, tuple[tuple[str, str], ...]], tuple[ShellCommand, ...]] = {}


def _split(script: str, first_line: int, env: Mapping[str, str]) -> Iterator[ShellCommand]:
    state = _State(env=dict(env))
    for text, tokens, offsets in _logical_lines(script, first_line, state):
        cursor = 0
        for argv in _simple_commands(tokens):
            word = argv[0]
            found = text.find(word, cursor)
            if found >= 0:
                cursor = found + len(word)
            command = _apply(argv, _line_at(offsets, max(found, 0)), state)
            if command is not None:
                yield command


def _logical_lines(
    script: str, first_line: int, state: _State
) -> Iterator[tuple[str, list[str], list[tuple[int, int]]]]:
    """Yield (expanded text, tokens, [(offset, line)]) per logical line.

    Continuations are removed exactly as bash does (backslash-newline vanishes);
    a quote left open pulls in the next line."""
    physical = script.split("\n")
    i = 0
    heredoc: str | None = None
    while i < len(physical):
        if heredoc is not None:
            if physical[i].strip() == heredoc:
                heredoc = None
            i += 1
            continue
        text = ""
        offsets: list[tuple[int, int]] = []
        tokens: list[str] = []
        while i < len(physical):
            raw = physical[i]
            offsets.append((len(text), first_line + i))
            i += 1
            continued = _continues(raw)
            text += _expand(raw[:-1] if continued else raw, state.env)
            if continued and i < len(physical):
                continue
            try:
                tokens = _lexer(text)
                break
            except ValueError:  # an open quote: the word goes on on the next line
                text += "\n"
        m = _HEREDOC.search(text)
        if m:
            heredoc = m.group(2)
        yield text, tokens, offsets


def _continues(raw: str) -> bool:
    stripped = raw.rstrip("\\")
    return (len(raw) - len(stripped)) % 2 == 1


def _lexer(text: str) -> list[str]:
    protected, saved = _protect_substitutions(text)
    lex = shlex.shlex(_FD_BEFORE_REDIRECT.sub("", protected), posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    tokens = list(lex)
    if saved:
        tokens = [_SUBST_RE.sub(lambda m: saved[int(m.group(1))], t) for t in tokens]
    return tokens


_SUBST_RE = re.compile(r"LGSUBST(\d+)X")


def _protect_substitutions(text: str) -> tuple[str, list[str]]:
    """Hide ``$(...)`` from shlex, which would split it at the parenthesis;
    the text comes back verbatim in the token (and is then marked unknown)."""
    if "$(" not in text:
        return text, []
    saved: list[str] = []
    out: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$(", i):
            depth, j = 0, i + 1
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append(f"LGSUBST{len(saved)}X")
            saved.append(text[i : j + 1])
            i = j + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out), saved


def _line_at(offsets: list[tuple[int, int]], pos: int) -> int:
    line = offsets[0][1]
    for start, no in offsets:
        if start > pos:
            break
        line = no
    return line


def _simple_commands(tokens: list[str]) -> Iterator[list[str]]:
    current: list[str] = []
    skip_next = False
    for tok in tokens:
        if skip_next:
            skip_next = False
            continue
        if tok in _SEPARATORS:
            if current:
                yield current
            current = []
        elif tok and set(tok) <= set("<>&") and ("<" in tok or ">" in tok):
            skip_next = True
        else:
            current.append(tok)
    if current:
        yield current


def _apply(argv: list[str], line: int, state: _State) -> ShellCommand | None:
    """Update the script state for *argv*; return it if it runs a program."""
    while argv and (argv[0] in _LEADING_KEYWORDS or argv[0] in _CLOSING):
        argv = argv[1:]
    if not argv or argv[0] in _SKIP_COMMANDS:
        return None
    prefix: dict[str, str] = {}
    while argv and _ASSIGNMENT.match(argv[0]):
        name, value = _ASSIGNMENT.match(argv[0]).groups()  # type: ignore[union-attr]
        prefix[name] = value
        argv = argv[1:]
    if not argv:
        state.env.update(prefix)
        return None
    argv = _unwrap(argv, prefix)
    if not argv:
        return None
    head = argv[0]
    if head in ("export", "declare", "typeset", "readonly", "local"):
        for arg in argv[1:]:
            m = _ASSIGNMENT.match(arg)
            if m:
                state.env[m.group(1)] = m.group(2)
        return None
    if head in ("cd", "pushd", "popd"):
        _change_directory(head, argv[1:], state)
        return None
    unknown = tuple(tok for tok in argv if _UNRESOLVED.search(tok))
    return ShellCommand(
        argv=tuple(argv),
        line=line,
        cwd=state.cwd,
        cwd_unknown=state.cwd_unknown,
        env={**state.env, **prefix},
        unknown=unknown,
    )


def _unwrap(argv: list[str], prefix: dict[str, str]) -> list[str]:
    """Strip wrappers that run the rest of the line as a command."""
    while argv:
        head = argv[0]
        if head == "env":
            argv = argv[1:]
            while argv and (argv[0].startswith("-") or _ASSIGNMENT.match(argv[0])):
                m = _ASSIGNMENT.match(argv[0])
                if m:
                    prefix[m.group(1)] = m.group(2)
                argv = argv[1:]
        elif head in ("sudo", "nice", "time", "command", "exec", "nohup"):
            argv = argv[1:]
            while argv and argv[0].startswith("-"):
                argv = argv[1:]
        else:
            return argv
    return argv


def _change_directory(head: str, args: list[str], state: _State) -> None:
    import posixpath

    if head == "popd":
        if state.stack:
            state.cwd, state.cwd_unknown = state.stack.pop()
        else:
            state.cwd_unknown = True
        return
    if head == "pushd":
        state.stack.append((state.cwd, state.cwd_unknown))
    target = args[0] if args else ""
    if not target or target == "-" or _UNRESOLVED.search(target) or target.startswith("~"):
        state.cwd_unknown = True
        return
    state.cwd = posixpath.normpath(posixpath.join(state.cwd, target)) if not target.startswith("/") else target


def _expand(text: str, env: Mapping[str, str]) -> str:
    """Expand known variables the way bash would, leaving unknown ones as written.

    A value expanded inside double quotes is escaped so it stays one word; an
    unquoted one is inserted raw so shlex splits it, as bash's IFS would."""
    out: list[str] = []
    i, n = 0, len(text)
    quote: str | None = None
    while i < n:
        c = text[i]
        if c == "\\" and quote != "'" and i + 1 < n:
            out.append(text[i : i + 2])
            i += 2
            continue
        if c in "'\"" and (quote is None or quote == c):
            quote = None if quote == c else c
        elif c == "$" and quote != "'":
            name, default, end = _parse_var(text, i)
            if name is not None and (name in env or default is not None):
                value = env.get(name) or (default or "")
                if quote == '"':
                    value = re.sub(r'(["\\$`])', r"\\\1", value)
                out.append(value)
                i = end
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _parse_var(text: str, i: int) -> tuple[str | None, str | None, int]:
    if text.startswith("${", i):
        close = text.find("}", i)
        if close < 0:
            return None, None, i + 1
        body = text[i + 2 : close]
        m = re.match(r"^([A-Za-z_]\w*)(?::?-(.*))?$", body, re.S)
        if not m:
            return None, None, i + 1
        return m.group(1), m.group(2), close + 1
    m = _VAR_NAME.match(text, i + 1)
    if not m:
        return None, None, i + 1
    return m.group(0), None, m.end()

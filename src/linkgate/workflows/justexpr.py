"""just's expressions, as ``{{ }}`` interpolations and ``:=`` assignments use them (casey/just).

Understood: string literals (``'raw'``, ``"escaped"``, and their triple-quoted forms),
variables and parameters, ``+`` (concatenation) and ``/`` (path join), and the
built-in functions CI recipes lean on: ``env_var('X')``, ``env_var_or_default('X',
'd')`` and ``env('X'[, 'd'])`` against the job's environment, ``justfile_directory()``,
``justfile()``, ``invocation_directory()``, ``join(a, b, ...)``, ``quote(s)``,
``uppercase``, ``lowercase``, ``trim``, ``replace(s, from, to)``, ``arch()``, ``os()``,
``os_family()``, ``num_cpus()`` (None: not known). Anything else (a backtick, ``if``,
another function) is None: unknown to the shell, never a guess.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

_TOKEN = re.compile(r"""\s*(?:('''.*?'''|'[^']*')|(\"\"\".*?\"\"\"|"(?:[^"\\]|\\.)*")|([A-Za-z_][\w-]*)|(\S))""", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}

Lookup = Callable[[str], "str | None"]


class _Unknown(Exception):
    pass


def evaluate(text: str, lookup: Lookup, env: Mapping[str, str], home: str) -> str | None:
    """The value of just expression *text*: *lookup* gives variables and parameters, *env*
    the job's environment, *home* the justfile's directory as the runner sees it."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    parser = _Parser(tokens, lookup, env, home)
    try:
        value = parser.expr()
    except (_Unknown, IndexError):
        return None
    return value if parser.at_end() else None


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        pos = m.end()
        raw, cooked, name, op = m.groups()
        if raw is not None:
            out.append(("str", raw[3:-3] if raw.startswith("'''") else raw[1:-1]))
        elif cooked is not None:
            body = cooked[3:-3] if cooked.startswith('"""') else cooked[1:-1]
            out.append(("str", re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), "\\" + e.group(1)), body)))
        elif name is not None:
            out.append(("name", name))
        elif op is not None:
            out.append(("op", op))
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], lookup: Lookup, env: Mapping[str, str], home: str) -> None:
        self.tokens, self.pos, self.lookup, self.env, self.home = tokens, 0, lookup, env, home

    def at_end(self) -> bool:
        return self.pos == len(self.tokens)

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expr(self) -> str:
        value = self.atom()
        while self.peek() in (("op", "+"), ("op", "/")):
            op = self.take()[1]
            right = self.atom()
            value = value + right if op == "+" else f"{value.rstrip('/')}/{right}"
        return value

    def atom(self) -> str:
        kind, text = self.take()
        if kind == "str":
            return text
        if kind == "op" and text == "(":
            value = self.expr()
            self._expect(")")
            return value
        if kind != "name" or text in ("if", "else"):
            raise _Unknown
        if self.peek() == ("op", "("):
            self.take()
            args: list[str] = []
            while self.peek() != ("op", ")"):
                args.append(self.expr())
                if self.peek() == ("op", ","):
                    self.take()
            self._expect(")")
            return self.call(text, args)
        found = self.lookup(text)
        if found is None:
            raise _Unknown
        return found

    def _expect(self, op: str) -> None:
        if self.take() != ("op", op):
            raise _Unknown

    def call(self, name: str, args: list[str]) -> str:
        if name in ("env_var", "env") and len(args) == 1:
            if args[0] not in self.env:
                raise _Unknown  # just fails the recipe; what the job sets there is not known
            return self.env[args[0]]
        if name in ("env_var_or_default", "env") and len(args) == 2:
            return self.env.get(args[0], args[1])
        if name in ("justfile_directory", "invocation_directory", "source_directory") and not args:
            return self.home
        if name in ("justfile", "source_file") and not args:
            return posixpath.join(self.home, "justfile")
        if name == "join" and args:
            return posixpath.join(*args)
        if name == "quote" and len(args) == 1:
            return "'" + args[0].replace("'", "'\\''") + "'"  # just's own quoting, always quoted
        if name == "uppercase" and len(args) == 1:
            return args[0].upper()
        if name == "lowercase" and len(args) == 1:
            return args[0].lower()
        if name == "trim" and len(args) == 1:
            return args[0].strip()
        if name == "replace" and len(args) == 3:
            return args[0].replace(args[1], args[2])
        raise _Unknown

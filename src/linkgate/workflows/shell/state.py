"""What the evaluator knows along one path through a script, and what it reports.

A path forks where a condition cannot be decided; each fork carries the
conditions it assumed, so a command found on it is reported as conditional
and never merged with its sibling. Paths that end in the same state are
merged again (their common conditions kept), and past ``MAX_PATHS`` the
differing variables are joined into unknowns, so no script can make the work
explode.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from linkgate.workflows.shell.words import Val, Value, unknown

MAX_PATHS = 32
# Where actions/checkout puts the repository; `$GITHUB_WORKSPACE` and
# `${{ github.workspace }}` expand to it so `cd $GITHUB_WORKSPACE/x` is known.
WORKSPACE = "/github/workspace"


@dataclass(frozen=True)
class ShellCommand:
    """One program a script runs, as bash would run it."""

    argv: tuple[str, ...]
    file: str
    line: int
    cwd: str
    cwd_unknown: bool
    env: Mapping[str, str]
    unknown: tuple[str, ...]
    conditions: tuple[str, ...] = ()
    via: tuple[str, ...] = ()

    @property
    def name_unknown(self) -> bool:
        """Whether the program's name is unknown: `$RUNNER_TEMP/venv/bin/pip` is pip, wherever it lives."""
        name = self.argv[0].rsplit("/", 1)[-1] if self.argv else ""
        return bool(name) and any(c in name for c in self.unknown)


@dataclass(frozen=True)
class ShellProblem:
    """Something the evaluator could not follow; ``cargo`` says whether it may hide a cargo run."""

    file: str
    line: int
    cause: str
    message: str
    cargo: bool
    # The repository file left unread (a Python or nushell program), for a textual scan.
    unread: str = ""


@dataclass(frozen=True)
class Frame:
    """Where the code being run lives: file, line of its row 0, and how it was reached."""

    file: str
    base: int
    via: tuple[str, ...] = ()
    suffix: str = ""
    depth: int = 0

    def line(self, row: int) -> int:
        return self.base + row


@dataclass
class State:
    vars: dict[str, Value]
    exported: set[str]
    cwd: str = ""
    cwd_unknown: bool = False
    stack: list[tuple[str, bool]] = field(default_factory=list)
    args: tuple[Val, ...] = ()
    # A run: step is a temporary file on the runner, so its $0 is unknown.
    arg0: Val = field(default_factory=lambda: unknown("$0"))
    funcs: dict[str, tuple[Any, Frame]] = field(default_factory=dict)
    conds: tuple[str, ...] = ()
    status: str = "true"  # true | false | unknown (undecided test) | assumed (a command ran)
    stop: str | None = None  # exit | return | break | continue
    allexport: bool = False
    locals: list[dict[str, Value | None]] = field(default_factory=list)
    # Where the running function was called (file, line): its "$@" was written there.
    args_at: tuple[str, int] | None = None
    # The pass of each enclosing ``for`` loop over known values, as (file, row, pass): the same
    # command line run in two passes is two runs, where on two paths of one pass it is one.
    passes: tuple[tuple[str, int, int], ...] = ()

    def copy(self) -> State:
        return State(
            dict(self.vars), set(self.exported), self.cwd, self.cwd_unknown, list(self.stack), self.args,
            self.arg0, dict(self.funcs), self.conds, self.status, self.stop, self.allexport,
            [dict(d) for d in self.locals], self.args_at, self.passes,
        )

    def fork(self, condition: str) -> State:
        st = self.copy()
        st.conds = self.conds + (condition,)
        return st

    def set(self, name: str, value: Value, export: bool = False) -> None:
        self.vars[name] = value
        if export or self.allexport:
            self.exported.add(name)

    def env(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name in self.exported:
            value = self.vars.get(name)
            if isinstance(value, Val):
                out[name] = value.text
        return out

    def chdir(self, target: Val) -> None:
        if not target.known or target.text in ("", "-") or target.text.startswith("~"):
            self.cwd_unknown = True
            return
        path = target.text
        if path == WORKSPACE or path.startswith(WORKSPACE + "/"):
            self.cwd, self.cwd_unknown = clean(path[len(WORKSPACE) + 1 :]), False
        elif path.startswith("/"):
            self.cwd = posixpath.normpath(path)
        else:
            self.cwd = clean(posixpath.join(self.cwd, path))

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(sorted(self.vars.items())), frozenset(self.exported), self.cwd, self.cwd_unknown,
            tuple(self.stack), self.args, tuple(sorted((k, id(v[0])) for k, v in self.funcs.items())),
            self.stop, self.allexport, repr(self.locals), self.passes,
        )


def clean(path: str) -> str:
    if not path:
        return ""
    out = posixpath.normpath(path)
    return "" if out == "." else out


def common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    other = set(b)
    return tuple(c for c in a if c in other)


def merge(states: list[State]) -> list[State]:
    """Fold paths that reached the same state; widen when too many remain."""
    if len(states) < 2:
        return states
    by_key: dict[tuple[Any, ...], State] = {}
    for st in states:
        k = st.key()
        seen = by_key.get(k)
        if seen is None:
            by_key[k] = st
        else:
            seen.conds = common(seen.conds, st.conds)
            if seen.status != st.status:
                seen.status = "unknown"
    out = list(by_key.values())
    if len(out) <= MAX_PATHS:
        return out
    return [widen(out)]


def widen(states: list[State]) -> State:
    first = states[0].copy()
    for st in states[1:]:
        first.conds = common(first.conds, st.conds)
        for name in set(first.vars) | set(st.vars):
            if first.vars.get(name) != st.vars.get(name):
                first.vars[name] = unknown(f"${name}")
        first.exported |= st.exported
        if (st.cwd, st.cwd_unknown) != (first.cwd, first.cwd_unknown):
            first.cwd_unknown = True
        if st.status != first.status:
            first.status = "unknown"
        first.stop = first.stop if first.stop == st.stop else None
    return first


@dataclass(frozen=True)
class Recipe:
    """One Makefile recipe line, ready for a fresh shell."""

    file: str
    line: int
    text: str
    cwd: str
    goal: str
    # Shell variables standing for values the reader could not know: (name, what it stood for).
    unknowns: tuple[tuple[str, str], ...] = ()
    # Variables the task runner exports to the line (cargo-make's [env]).
    env: tuple[tuple[str, str], ...] = ()

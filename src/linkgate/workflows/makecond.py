"""GNU make's conditionals, decided when the values they test are known.

``ifeq (A,B)``, ``ifeq "A" "B"`` (and ``'A' 'B'``), ``ifneq``, ``ifdef VAR``,
``ifndef VAR``, ``else`` (also ``else ifeq ...``) and ``endif``, as make reads
them: when the Makefile is parsed, with the variables assigned above the
directive, the command line's ``NAME=VALUE`` (which win over the Makefile's
own assignments) and the environment. The functions a test commonly uses are
evaluated: ``findstring``, ``or``, ``and``, ``if``, ``strip``, ``subst``,
``filter``, ``filter-out``, ``firstword``, ``words``.

A test is undecided when it reads a variable neither the Makefile, the command
line nor the known environment sets (it may come from the runner's environment)
or a function not listed here: both branches are then read, as before this
module existed. Written by hand: no maintained Python library parses make's
conditionals, and make itself cannot be asked without running the Makefile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

# A value is looked up by name: its text, or None when it cannot be known here.
Lookup = Callable[[str], "str | None"]

_DIRECTIVE = re.compile(r"^(ifeq|ifneq|ifdef|ifndef)\b\s*(.*)$")
_ELSE = re.compile(r"^else\b\s*(.*)$")
_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")
_FUNCTIONS = {"findstring", "or", "and", "if", "strip", "subst", "filter", "filter-out", "firstword", "words"}
MAX_DEPTH = 32


@dataclass
class _Frame:
    # taking: this branch is read; skipping: not yet a taken branch; done: a branch was taken;
    # both: undecided, every branch read; outside: inside a branch that is not read.
    state: str


@dataclass
class Conditionals:
    """The conditional stack of one Makefile being parsed."""

    lookup: Lookup
    frames: list[_Frame] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return all(f.state in ("taking", "both") for f in self.frames)

    def line(self, stripped: str) -> bool:
        """Take *stripped* when it is a conditional directive (True), else leave it (False)."""
        m = _DIRECTIVE.match(stripped)
        if m:
            if not self.active:
                self.frames.append(_Frame("outside"))
            else:
                self.frames.append(_Frame(_state(test(m.group(1), m.group(2), self.lookup))))
            return True
        if stripped == "endif" or stripped.startswith("endif "):
            if self.frames:
                self.frames.pop()
            return True
        m = _ELSE.match(stripped)
        if m and self.frames:
            frame = self.frames[-1]
            rest = m.group(1).strip()
            if frame.state == "taking":
                frame.state = "done"
            elif frame.state == "skipping":
                if rest:
                    inner = _DIRECTIVE.match(rest)
                    frame.state = _state(test(inner.group(1), inner.group(2), self.lookup)) if inner else "both"
                else:
                    frame.state = "taking"
            return True
        return False


def _state(decided: bool | None) -> str:
    return "both" if decided is None else "taking" if decided else "skipping"


def test(kind: str, argument: str, lookup: Lookup) -> bool | None:
    """Whether the conditional holds; None when it cannot be decided here."""
    if kind in ("ifdef", "ifndef"):
        name = expand(argument.strip(), lookup)
        if name is None or not _NAME.match(name.strip()):
            return None
        value = lookup(name.strip())
        if value is None:
            return None
        return bool(value) == (kind == "ifdef")
    pair = _pair(argument.strip())
    if pair is None:
        return None
    left, right = (expand(p, lookup) for p in pair)
    if left is None or right is None:
        return None
    if argument.strip().startswith("("):
        left, right = left.strip(), right.strip()  # make strips around the comma in the paren form
    return (left == right) == (kind == "ifeq")


def _pair(argument: str) -> tuple[str, str] | None:
    if argument.startswith("(") and argument.endswith(")"):
        inner = argument[1:-1]
        depth = 0
        for i, ch in enumerate(inner):
            if ch in "({":
                depth += 1
            elif ch in ")}":
                depth -= 1
            elif ch == "," and depth == 0:
                return inner[:i], inner[i + 1:]
        return None
    m = re.fullmatch(r"""(["'])(.*?)\1\s+(["'])(.*?)\3""", argument)
    return (m.group(2), m.group(4)) if m else None


def expand(text: str, lookup: Lookup, depth: int = 0) -> str | None:
    """*text* with make's ``$(...)`` references expanded; None when any cannot be known."""
    if depth > MAX_DEPTH:
        return None
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "$":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(text):
            out.append("$")
            break
        nxt = text[i + 1]
        if nxt == "$":
            out.append("$")
            i += 2
            continue
        if nxt not in "({":
            value = _variable(nxt, lookup, depth)
            if value is None:
                return None
            out.append(value)
            i += 2
            continue
        end = _matching(text, i + 1)
        if end < 0:
            return None
        inner = text[i + 2:end]
        value = _reference(inner, lookup, depth)
        if value is None:
            return None
        out.append(value)
        i = end + 1
    return "".join(out)


def _matching(text: str, open_at: int) -> int:
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] in "({":
            depth += 1
        elif text[j] in ")}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _variable(name: str, lookup: Lookup, depth: int) -> str | None:
    raw = lookup(name)
    return None if raw is None else expand(raw, lookup, depth + 1)


def _reference(inner: str, lookup: Lookup, depth: int) -> str | None:
    if _NAME.match(inner):
        return _variable(inner, lookup, depth)
    head, _, rest = inner.partition(" ")
    if head not in _FUNCTIONS:
        return None
    args = _split_args(rest)
    if head in ("or", "and", "if"):
        return _logic(head, args, lookup, depth)
    values = [expand(a, lookup, depth + 1) for a in args]
    if any(v is None for v in values):
        return None
    vals = [v for v in values if v is not None]
    if head == "findstring" and len(vals) == 2:
        return vals[0] if vals[0] in vals[1] else ""
    if head == "strip" and len(vals) >= 1:
        return " ".join(",".join(vals).split())
    if head == "subst" and len(vals) == 3:
        return vals[2].replace(vals[0], vals[1]) if vals[0] else vals[2]
    if head in ("filter", "filter-out") and len(vals) == 2:
        patterns = vals[0].split()
        keep = [w for w in vals[1].split() if any(_pattern(p, w) for p in patterns) == (head == "filter")]
        return " ".join(keep)
    if head == "firstword" and len(vals) == 1:
        words = vals[0].split()
        return words[0] if words else ""
    if head == "words" and len(vals) == 1:
        return str(len(vals[0].split()))
    return None


def _logic(head: str, args: list[str], lookup: Lookup, depth: int) -> str | None:
    # Make expands these lazily, left to right, and stops as soon as the answer is known.
    if head == "if":
        if not 2 <= len(args) <= 3:
            return None
        cond = expand(args[0], lookup, depth + 1)
        if cond is None:
            return None
        chosen = args[1] if cond.strip() else (args[2] if len(args) == 3 else "")
        return expand(chosen, lookup, depth + 1)
    last = ""
    for arg in args:
        value = expand(arg, lookup, depth + 1)
        if value is None:
            return None
        value = value.strip()
        if head == "or" and value:
            return value
        if head == "and" and not value:
            return ""
        last = value
    return "" if head == "or" else last


def _split_args(text: str) -> list[str]:
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def _pattern(pattern: str, word: str) -> bool:
    if "%" not in pattern:
        return pattern == word
    before, _, after = pattern.partition("%")
    return len(word) >= len(before) + len(after) and word.startswith(before) and word.endswith(after)


def lookup_in(variables: Mapping[str, str], given: Mapping[str, str], env: Mapping[str, str] | None) -> Lookup:
    """Make's order: the command line's variables, then the Makefile's, then the environment;
    a name none of them sets is unknown when the environment is not wholly known (*env* None
    or missing the name), since the runner's environment may set it."""

    def look(name: str) -> str | None:
        if name in given:
            return given[name]
        if name in variables:
            return variables[name]
        if env is not None and name in env:
            return env[name]
        return None

    return look

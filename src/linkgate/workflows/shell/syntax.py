"""The syntax tree the evaluator walks: bash reduced to what decides which
commands run, with which words, where.

Built once per script text by ``parse`` from tree-sitter-bash's tree, so the
evaluator never touches the grammar library and one parse serves every matrix
combination. Rows are 0-based within the parsed text.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import Union

# --- words -----------------------------------------------------------------


@dataclass(frozen=True)
class Lit:
    text: str
    quoted: bool


@dataclass(frozen=True)
class Param:
    """``$x``, ``${x}``, ``${x:-w}``, ``${#x}``, ``${a[@]}``, ``$1``, ``"$@"``.

    ``ops`` holds (operator, argument word) pairs after the name; ``/`` and
    ``//`` have two (pattern, then replacement under operator ``/``)."""

    name: str
    ops: tuple[tuple[str, Word], ...]
    quoted: bool
    text: str
    length: bool = False
    index: str | None = None


@dataclass(frozen=True)
class Subst:
    """``$(...)``, backticks or ``<(...)``: the body runs (and may run cargo);
    its output is unknown."""

    body: Seq
    text: str
    quoted: bool


@dataclass(frozen=True)
class Opaque:
    """Text linkgate does not evaluate (arithmetic, ``~``)."""

    text: str
    quoted: bool


@dataclass(frozen=True)
class Expr:
    """A ``${{ }}`` GitHub expression, substituted before bash reads the line."""

    index: int
    quoted: bool


Part = Union[Lit, Param, Subst, Opaque, Expr]
Word = tuple[Part, ...]

# --- statements ------------------------------------------------------------


@dataclass(frozen=True)
class Assign:
    name: str
    value: Word | None
    array: tuple[Word, ...] | None = None
    append: bool = False


@dataclass(frozen=True)
class Command:
    row: int
    assigns: tuple[Assign, ...]
    words: tuple[Word, ...]
    heredoc: str | None = None
    # `<<EOF` expands `$x` in the text before the command reads it; `<<'EOF'` does not.
    heredoc_expands: bool = True
    # Where stdout goes with `>` or `>>`: `echo K=V >> $GITHUB_ENV` sets env for later steps.
    output: Word | None = None
    # The row of each word: after `env A=1 \` the program is a line further down.
    rows: tuple[int, ...] = ()


@dataclass(frozen=True)
class Decl:
    """``export``, ``local``, ``readonly``, ``declare``, ``typeset``."""

    row: int
    kind: str
    flags: tuple[str, ...]
    items: tuple[Assign, ...]


@dataclass(frozen=True)
class Unset:
    row: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Seq:
    items: tuple[Stmt, ...]


@dataclass(frozen=True)
class AndOr:
    left: Stmt
    op: str
    right: Stmt


@dataclass(frozen=True)
class Not:
    body: Stmt


@dataclass(frozen=True)
class Pipeline:
    items: tuple[Stmt, ...]


@dataclass(frozen=True)
class Subshell:
    body: Seq


@dataclass(frozen=True)
class If:
    row: int
    clauses: tuple[tuple[Seq, Seq], ...]
    orelse: Seq | None


@dataclass(frozen=True)
class CaseItem:
    patterns: tuple[Word, ...]
    body: Seq


@dataclass(frozen=True)
class Case:
    row: int
    value: Word
    items: tuple[CaseItem, ...]


@dataclass(frozen=True)
class For:
    row: int
    var: str
    values: tuple[Word, ...] | None
    body: Seq


@dataclass(frozen=True)
class Loop:
    """``while``, ``until``, C-style ``for``, ``select``: runs an unknown number of times."""

    row: int
    cond: Seq
    body: Seq


@dataclass(frozen=True)
class FuncDef:
    name: str
    body: Stmt


@dataclass(frozen=True)
class Test:
    """``[[ ... ]]`` or ``[ ... ]``, as a flat token list: tree-sitter-bash
    groups ``-n $a && $b = y`` wrongly, so ``conditions`` re-parses it."""

    row: int
    tokens: tuple[str | Word, ...]
    double: bool


@dataclass(frozen=True)
class Broken:
    """Text the grammar could not parse."""

    row: int
    text: str


Stmt = Union[
    Command, Decl, Unset, Seq, AndOr, Not, Pipeline, Subshell, If, Case, For, Loop, FuncDef, Test, Broken
]


def word_text(word: Word, exprs: Sequence[str] = ()) -> str:
    """The word roughly as written (quotes dropped), for messages; *exprs*
    gives the text of each ``${{ }}``."""
    out: list[str] = []
    for part in word:
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, (Param, Subst, Opaque)):
            out.append(part.text)
        else:
            out.append(exprs[part.index] if part.index < len(exprs) else "${{ ... }}")
    return "".join(out)

"""Names a script assigns anywhere.

bash expands an unset variable to nothing. The evaluator cannot tell an unset
variable from one the runner set (``HOME``, a value an earlier step wrote to
``$GITHUB_ENV``), except for names the script itself assigns: when a path
reaches ``$features`` without the assignment (an ``if`` not taken), the
variable is empty there, not unknown.
"""

from __future__ import annotations

from linkgate.workflows.shell.syntax import (
    AndOr, Case, Command, Decl, For, FuncDef, If, Lit, Loop, Not, Param, Pipeline, Seq, Stmt, Subshell, Subst,
    Word,
)

_CACHE: dict[int, tuple[Seq, frozenset[str]]] = {}


def assigned_names(seq: Seq) -> frozenset[str]:
    hit = _CACHE.get(id(seq))
    if hit is not None and hit[0] is seq:
        return hit[1]
    names: set[str] = set()
    _walk(seq, names)
    if len(_CACHE) > 2048:
        _CACHE.clear()
    frozen = frozenset(names)
    _CACHE[id(seq)] = (seq, frozen)
    return frozen


def _walk(stmt: Stmt, names: set[str]) -> None:
    if isinstance(stmt, Command):
        names.update(a.name for a in stmt.assigns)
        for word in stmt.words:
            _word(word, names)
        first = stmt.words[0] if stmt.words else ()
        if len(first) == 1 and isinstance(first[0], Lit) and first[0].text in ("read", "mapfile", "readarray"):
            for word in stmt.words[1:]:
                if len(word) == 1 and isinstance(word[0], Lit) and not word[0].text.startswith("-"):
                    names.add(word[0].text)
    elif isinstance(stmt, Decl):
        names.update(a.name for a in stmt.items)
    elif isinstance(stmt, Seq):
        for item in stmt.items:
            _walk(item, names)
    elif isinstance(stmt, AndOr):
        _walk(stmt.left, names)
        _walk(stmt.right, names)
    elif isinstance(stmt, (Not, FuncDef)):
        _walk(stmt.body, names)
    elif isinstance(stmt, Pipeline):
        for item in stmt.items:
            _walk(item, names)
    elif isinstance(stmt, Subshell):
        _walk(stmt.body, names)
    elif isinstance(stmt, If):
        for cond, body in stmt.clauses:
            _walk(cond, names)
            _walk(body, names)
        if stmt.orelse is not None:
            _walk(stmt.orelse, names)
    elif isinstance(stmt, Case):
        for case_item in stmt.items:
            _walk(case_item.body, names)
    elif isinstance(stmt, For):
        names.add(stmt.var)
        _walk(stmt.body, names)
    elif isinstance(stmt, Loop):
        _walk(stmt.cond, names)
        _walk(stmt.body, names)


def _word(word: Word, names: set[str]) -> None:
    for part in word:
        if isinstance(part, Param) and part.ops and part.ops[0][0] in (":=", "="):
            names.add(part.name)
        elif isinstance(part, Subst):
            _walk(part.body, names)

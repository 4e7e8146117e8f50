"""Find a build script's link directives and the branches that guard each one.

A guard is an ``if``/``else if``/``else`` branch, a ``match`` arm, or an item
or statement under ``#[cfg(...)]``. A later branch of a chain also carries
the negation of each earlier condition, because ``else if B`` runs only when
A did not hold. A directive printed by a helper function takes the guards of
the places that call it (two levels deep), since scripts often put each
recipe in its own ``fn link_cuda()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from linkgate.cargo.buildscript import LINK_KEYS
from linkgate.coverage.bindings import let_bindings, substitute
from linkgate.coverage.conditions import Atom, Reader
from linkgate.rustlex import Token, bracket_pairs, tokenize

_DIRECTIVE = re.compile(r"^cargo::?(?P<key>[a-z][a-z0-9_-]*)=(?P<value>.*)$", re.S)
_CALL_DEPTH = 2


@dataclass(frozen=True)
class Region:
    start: int            # token index of the first token inside
    end: int              # token index of the last token inside
    atoms: tuple[Atom, ...]
    line: int             # the branch's line (its `if`, `else`, arm or `#[cfg]`)
    notes: tuple[str, ...] = ()   # what of its condition could not be kept exactly


@dataclass(frozen=True)
class Occurrence:
    """One link directive under one set of guards."""

    directive: str        # "rustc-link-lib=static={}", as literally written
    line: int             # the directive's line
    atoms: frozenset[Atom]
    branch_line: int | None   # the innermost guarding branch, None when unconditional
    via: str | None = None    # the helper function it is printed from, when called
    notes: tuple[str, ...] = ()


@dataclass
class Scan:
    occurrences: list[Occurrence] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def scan(src: str) -> Scan:
    toks = tokenize(src)
    pairs = bracket_pairs(toks)
    reader = Reader()
    lets = let_bindings(toks)
    fns = _functions(toks, pairs)
    regions: list[Region] = []

    def scope(pos: int) -> tuple[int, int] | None:
        return next((span for span in fns.values() if span[0] <= pos <= span[1]), None)

    def cond(lo: int, hi: int) -> list[Token]:
        return substitute(toks[lo:hi], lets, lo, scope=scope(lo))

    for k, tok in enumerate(toks):
        if tok.is_("if") and not (k > 0 and toks[k - 1].is_("else")):
            regions += _if_chain(toks, pairs, k, cond, reader)
        elif tok.is_("match"):
            regions += _match_arms(toks, pairs, k, lambda ts, at: substitute(ts, lets, at, scope=scope(at)), reader)
        elif tok.is_("#") and k + 3 < len(toks) and toks[k + 1].is_("[") and toks[k + 2].is_("cfg"):
            close = pairs.get(k + 1)
            if close is not None and k + 3 in pairs:
                atoms = reader.cfg_predicate(toks[k + 4:pairs[k + 3]])
                end = _item_end(toks, pairs, close + 1)
                notes = reader.take()
                if atoms and end is not None:
                    regions.append(Region(close + 1, end, tuple(atoms), tok.line, notes))
    result = Scan()
    for k, tok in enumerate(toks):
        if tok.kind != "str":
            continue
        m = _DIRECTIVE.match(tok.text)
        if m is None or m.group("key") not in LINK_KEYS:
            continue
        directive = f"{m.group('key')}={m.group('value')}"
        for atoms, branch, via, notes in _contexts(k, regions, fns, toks, 0):
            result.occurrences.append(Occurrence(directive, tok.line, frozenset(atoms), branch, via, notes))
    result.notes = list(reader.take())
    return result


def _guards(pos: int, regions: list[Region]) -> list[Region]:
    inside = [r for r in regions if r.start <= pos <= r.end]
    return sorted(inside, key=lambda r: r.start)


Context = tuple[list[Atom], "int | None", "str | None", tuple[str, ...]]


def _contexts(pos: int, regions: list[Region], fns: dict[str, tuple[int, int]], toks: list[Token],
              depth: int) -> list[Context]:
    """(atoms, innermost branch line, helper name, notes) for each way control reaches *pos*."""
    inner = _guards(pos, regions)
    atoms = [a for r in inner for a in r.atoms]
    notes = tuple(dict.fromkeys(n for r in inner for n in r.notes))
    branch = inner[-1].line if inner else None
    owner = next((name for name, (lo, hi) in fns.items() if lo <= pos <= hi and name != "main"), None)
    if owner is None or depth >= _CALL_DEPTH:
        return [(atoms, branch, None, notes)]
    lo, hi = fns[owner]
    calls = [k for k, t in enumerate(toks)
             if t.is_(owner) and k + 1 < len(toks) and toks[k + 1].is_("(")
             and not (k > 0 and toks[k - 1].is_("fn")) and not lo <= k <= hi]
    if not calls:
        return [(atoms, branch, None, notes)]
    out: list[Context] = []
    for call in calls:
        for outer_atoms, outer_branch, _, outer_notes in _contexts(call, regions, fns, toks, depth + 1):
            # Guards inside the helper (or a #[cfg] on it) add to the caller's.
            out.append((outer_atoms + atoms, branch if inner else outer_branch, owner,
                        tuple(dict.fromkeys(outer_notes + notes))))
    return out


def _if_chain(toks: list[Token], pairs: dict[int, int], k: int,
              cond: Callable[[int, int], list[Token]], reader: Reader) -> list[Region]:
    regions: list[Region] = []
    negated: list[Atom] = []          # every earlier condition of the chain was false
    negated_notes: tuple[str, ...] = ()
    start, exits = k, True
    while True:
        brace = _block_start(toks, k + 1)
        if brace is None or brace not in pairs:
            return regions
        tokens = cond(k + 1, brace)
        atoms = reader.expr(tokens)
        here = tuple(negated + atoms)
        regions.append(Region(brace + 1, pairs[brace] - 1, here, toks[k].line, negated_notes + reader.take()))
        negated = negated + reader.negation(tokens)
        negated_notes = tuple(dict.fromkeys(negated_notes + reader.take()))
        exits = exits and _exits(toks, pairs, brace + 1, pairs[brace])
        after = pairs[brace] + 1
        if after < len(toks) and toks[after].is_("else"):
            if after + 1 < len(toks) and toks[after + 1].is_("if"):
                k = after + 1
                continue
            if after + 1 < len(toks) and toks[after + 1].is_("{") and after + 1 in pairs:
                b = after + 1
                regions.append(Region(b + 1, pairs[b] - 1, tuple(negated), toks[after].line, negated_notes))
        elif exits and after < len(toks):
            # `if let Ok(dir) = env::var("DIST") { ...; return; }`: what follows runs only without DIST.
            enclosing = [c for o, c in pairs.items() if toks[o].is_("{") and o < start and c >= after]
            if enclosing:
                regions.append(Region(after, min(enclosing) - 1, tuple(negated), toks[after].line, negated_notes))
        return regions


def _exits(toks: list[Token], pairs: dict[int, int], lo: int, hi: int) -> bool:
    """Whether the block's last statement leaves the function (return, panic!, process::exit)."""
    last, i = lo, lo
    while i < hi:
        if toks[i].is_(";") and i + 1 < hi:
            last = i + 1
        i = pairs[i] + 1 if i in pairs else i + 1
    stmt = [t.text for t in toks[last:min(last + 5, hi)]]
    return bool(stmt) and (stmt[0] == "return" or stmt[:2] in (["panic", "!"], ["unreachable", "!"])
                           or "exit" in stmt[:5] and "process" in stmt[:5])


def _negations(earlier: list[list[Atom]], reader: Reader) -> list[Atom]:
    out = []
    for atoms in earlier:
        if len(atoms) == 1:
            out.append(atoms[0].negate())
        elif atoms:
            reader.notes.append("a later branch after a compound condition does not carry its negation")
    return out


def _match_arms(toks: list[Token], pairs: dict[int, int], k: int,
                subst: Callable[[list[Token], int], list[Token]], reader: Reader) -> list[Region]:
    brace = _block_start(toks, k + 1)
    if brace is None or brace not in pairs:
        return []
    scrutinee = subst(toks[k + 1:brace], k + 1)
    regions: list[Region] = []
    earlier: list[list[Atom]] = []
    i, end = brace + 1, pairs[brace]
    while i < end:
        arrow = _next_at_depth(toks, pairs, i, end, "=>")
        if arrow is None:
            break
        pattern = toks[i:arrow]
        guard_at = next((j for j, t in enumerate(pattern) if t.is_("if")), None)
        atoms = reader.pattern(scrutinee, pattern[:guard_at])
        if guard_at is not None:
            atoms += reader.expr(subst(pattern[guard_at + 1:], i + guard_at + 1))
        if not atoms and pattern:
            atoms_here = _negations(earlier, reader)   # `_` or a binding: whatever the earlier arms did not take
        else:
            atoms_here = atoms
        body = arrow + 1
        if body < end and toks[body].is_("{") and body in pairs:
            last = pairs[body]
            nxt = last + 1 + (1 if last + 1 < end and toks[last + 1].is_(",") else 0)
        else:
            comma = _next_at_depth(toks, pairs, body, end, ",")
            last = (comma if comma is not None else end) - 1
            nxt = last + 2
        regions.append(Region(body, last, tuple(atoms_here), toks[i].line, reader.take()))
        earlier.append(atoms)
        i = nxt
    return regions


def _next_at_depth(toks: list[Token], pairs: dict[int, int], i: int, end: int, text: str) -> int | None:
    while i < end:
        if toks[i].is_(text):
            return i
        i = pairs[i] + 1 if i in pairs else i + 1
    return None


def _block_start(toks: list[Token], i: int) -> int | None:
    """The `{` opening an if/match block: the first one outside parentheses and brackets."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.is_("(") or t.is_("["):
            depth += 1
        elif t.is_(")") or t.is_("]"):
            depth -= 1
        elif t.is_("{") and depth == 0:
            return j
        elif t.is_(";") and depth == 0:
            return None
    return None


def _item_end(toks: list[Token], pairs: dict[int, int], i: int) -> int | None:
    """Last token of the item or statement starting at *i* (after more attributes)."""
    while i + 1 < len(toks) and toks[i].is_("#") and toks[i + 1].is_("[") and i + 1 in pairs:
        i = pairs[i + 1] + 1
    j = i
    while j < len(toks):
        if toks[j].is_(";"):
            return j
        if toks[j].is_("{") and j in pairs:
            end = pairs[j]
            return end + 1 if end + 1 < len(toks) and toks[end + 1].is_(";") else end
        j = pairs[j] + 1 if j in pairs else j + 1
    return None


def _functions(toks: list[Token], pairs: dict[int, int]) -> dict[str, tuple[int, int]]:
    fns: dict[str, tuple[int, int]] = {}
    for k, tok in enumerate(toks):
        if tok.is_("fn") and k + 1 < len(toks) and toks[k + 1].kind == "ident":
            brace = next((j for j in range(k + 2, len(toks)) if toks[j].is_("{") or toks[j].is_(";")), None)
            if brace is not None and toks[brace].is_("{") and brace in pairs:
                fns.setdefault(toks[k + 1].text, (brace, pairs[brace]))
    return fns

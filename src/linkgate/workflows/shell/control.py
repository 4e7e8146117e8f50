"""Control flow over paths: ``&&``/``||``, ``if``/``elif``, ``case``, ``for``
and loops. A condition decided from known values takes one branch; an
undecided one forks the path, each fork noting what it assumed. A command is
assumed to succeed for ``&&`` (a green run is what the audit describes) but
not for ``||``, ``if`` or ``case``, whose other branches stay alternatives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from linkgate.workflows.shell.dispatch import ShellEvaluator, register
from linkgate.workflows.shell.state import Frame, State, merge
from linkgate.workflows.shell.syntax import AndOr, Case, Command, For, If, Lit, Loop, Not, Pipeline, Seq, Stmt, \
    Subshell, Word, word_text, FuncDef
from linkgate.workflows.shell.words import Scope, Val, expand_joined, expand_pattern, expand_word, glob_matches, join, \
    unknown

MAX_LOOP = 64


@register(AndOr)
def and_or(ev: ShellEvaluator, stmt: AndOr, st: State, frame: Frame) -> list[State]:
    out: list[State] = []
    for s in ev.exec(stmt.left, st, frame):
        if s.stop:
            out.append(s)
            continue
        if stmt.op == "&&":
            go = {"true": True, "assumed": True, "false": False}.get(s.status)
        else:
            go = {"true": False, "false": True}.get(s.status)
        if go is True:
            out.extend(ev.exec(stmt.right, s, frame))
        elif go is False:
            out.append(s)
        else:
            where = f"{frame.file}:{frame.line(_row(stmt.left))} `{stmt.op}`"
            out.extend(ev.exec(stmt.right, s.fork(f"{where} right side runs"), frame))
            skipped = s.fork(f"{where} right side skipped")
            skipped.status = "false" if stmt.op == "&&" else "true"
            out.append(skipped)
    return out


@register(If)
def if_stmt(ev: ShellEvaluator, stmt: If, st: State, frame: Frame) -> list[State]:
    return if_(ev, stmt, 0, st, frame)


def if_(ev: ShellEvaluator, stmt: If, i: int, st: State, frame: Frame) -> list[State]:
    if i == len(stmt.clauses):
        if stmt.orelse is not None:
            return ev.exec(stmt.orelse, st, frame)
        st.status = "true"
        return [st]
    cond, body = stmt.clauses[i]
    out: list[State] = []
    for s in ev.exec(cond, st, frame):
        if s.stop:
            out.append(s)
            continue
        taken = {"true": True, "false": False}.get(s.status)
        if taken is True:
            out.extend(ev.exec(body, s, frame))
        elif taken is False:
            out.extend(if_(ev, stmt, i + 1, s, frame))
        else:
            where = f"{frame.file}:{frame.line(_row(cond))} {'if' if i == 0 else 'elif'}"
            out.extend(ev.exec(body, s.fork(f"{where} taken"), frame))
            out.extend(if_(ev, stmt, i + 1, s.fork(f"{where} not taken"), frame))
    return out

@register(Case)
def case_(ev: ShellEvaluator, stmt: Case, st: State, frame: Frame) -> list[State]:
    value = expand_joined(stmt.value, ev.scope(st, frame))
    texts = [v.text for v in ev.exprs]
    where = f"{frame.file}:{frame.line(stmt.row)} case {word_text(stmt.value, texts)}"
    out: list[State] = []
    pending = [st]
    for item in stmt.items:
        label = "|".join(word_text(p, texts) for p in item.patterns)
        waiting: list[State] = []
        for s in pending:
            matched = _case_match(item.patterns, value, ev.scope(s, frame))
            if matched is True:
                out.extend(ev.exec(item.body, s, frame))
            elif matched is False:
                waiting.append(s)
            else:
                out.extend(ev.exec(item.body, s.fork(f"{where} matches {label}"), frame))
                waiting.append(s.fork(f"{where} does not match {label}"))
        pending = waiting
    for s in pending:
        s.status = "true"
    return merge(out + pending)

@register(For)
def for_(ev: ShellEvaluator, stmt: For, st: State, frame: Frame) -> list[State]:
    scope = ev.scope(st, frame)
    if stmt.values is None:
        fields = list(st.args)
    else:
        fields = [f for w in stmt.values for f in _pathnames(ev, w, expand_word(w, scope), st)]
    known = [f for f in fields if f.known]
    rest = [f for f in fields if not f.known] + known[MAX_LOOP:]
    outer = st.passes

    def bind(s: State, value: Val) -> None:
        s.set(stmt.var, value)

    active, done = _passes(ev, stmt.body, stmt.row, st, frame, known[:MAX_LOOP], bind)
    if rest and active:
        where = f"{frame.file}:{frame.line(stmt.row)} for {stmt.var} over values not known"
        extra = [s.fork(where) for s in active]
        for s in extra:
            s.set(stmt.var, join(rest) if len(rest) == 1 else unknown(f"${stmt.var}"))
            s.passes = outer + ((frame.file, stmt.row, len(known)),)
        active = active + ev.run(stmt.body, extra, frame)
    for s in active + done:
        s.passes = outer
    return merge(_end_loop(active + done))


def _pathnames(ev: ShellEvaluator, word: Word, fields: list[Val], st: State) -> list[Val]:
    """*fields* after pathname expansion, as bash does it to an unquoted ``*``, ``?`` or ``[``:
    the repository's matching files, sorted; the word as written when nothing matches. Only a
    word that is one known field whose pattern characters are all unquoted text is expanded;
    one whose matches cannot be known here (outside the repository) is an unknown value."""
    if ev.host is None or len(fields) != 1 or not fields[0].known or st.cwd_unknown:
        return fields
    lits = [p for p in word if isinstance(p, Lit)]
    if not any(ch in p.text for p in lits if not p.quoted for ch in "*?["):
        return fields
    if any(ch in p.text for p in lits if p.quoted for ch in "*?["):
        return fields  # a quoted pattern character beside an unquoted one: not read
    found = ev.host.pathnames(fields[0].text, st.cwd)
    if found is None:
        return [unknown(f"{fields[0].text} (files that may lie outside the repository)")]
    return [Val(f) for f in found] or fields


@register(Loop)
def loop(ev: ShellEvaluator, stmt: Loop, st: State, frame: Frame) -> list[State]:
    """``while``/``until``/C-style ``for``: the body may run any number of times; a
    ``while getopts`` over known arguments runs once per option, as bash parses them."""
    options = _getopts(ev, stmt, st, frame)
    if options is not None:
        return _options_loop(ev, stmt, st, frame, *options)
    states = ev.exec(stmt.cond, st, frame) if stmt.cond.items else [st]
    where = f"{frame.file}:{frame.line(stmt.row)} loop body"
    body = ev.run(stmt.body, [s.fork(where) for s in states if not s.stop], frame)
    return merge(states + _end_loop(body))


T = TypeVar("T")


def _passes(ev: ShellEvaluator, body: Seq, row: int, st: State, frame: Frame, values: Sequence[T],
            bind: Callable[[State, T], None]) -> tuple[list[State], list[State]]:
    """Run *body* once per value, each pass bound by *bind* and marked as its own pass: the
    states still running after the last pass, and those that left the loop (break, exit, return)."""
    active = [st]
    done: list[State] = []
    outer = st.passes
    for n, value in enumerate(values):
        for s in active:
            bind(s, value)
            s.passes = outer + ((frame.file, row, n),)
        ended = ev.run(body, active, frame)
        active = [s for s in ended if not s.stop or s.stop == "continue"]
        done += [s for s in ended if s.stop and s.stop != "continue"]
        for s in active:
            s.stop = None
        if not active:
            break
    return active, done


def _getopts(ev: ShellEvaluator, stmt: Loop, st: State,
             frame: Frame) -> tuple[str, list[tuple[str, str | None]], int] | None:
    """(NAME, [(option, OPTARG)], OPTIND after the loop) of `while getopts OPTSTRING NAME [ARGS]`
    when the option string, the name and the arguments (else "$@") are all known; None otherwise.
    Bash's rules: options end at `--` or at the first word not starting with `-`; a letter
    followed by `:` in OPTSTRING takes the rest of the word or the next one; an unknown letter
    or a missing argument is `?`."""
    items = stmt.cond.items
    if len(items) != 1 or not isinstance(items[0], Command) or items[0].assigns:
        return None
    scope = ev.scope(st, frame)
    fields = [f for w in items[0].words for f in expand_word(w, scope)]
    if len(fields) < 3 or fields[0].text != "getopts" or not all(f.known for f in fields[:3]):
        return None
    spec, name = fields[1].text.lstrip(":"), fields[2].text
    args = fields[3:] if len(fields) > 3 else list(st.args)
    if not all(a.known for a in args):
        return None
    found: list[tuple[str, str | None]] = []
    i = 0
    while i < len(args):
        word = args[i].text
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        j = 1
        while j < len(word):
            letter = word[j]
            at = spec.find(letter) if letter != ":" else -1
            if at < 0:
                found.append(("?", None))
                j += 1
                continue
            if spec[at + 1:at + 2] == ":":
                if j + 1 < len(word):
                    found.append((letter, word[j + 1:]))
                elif i + 1 < len(args):
                    i += 1
                    found.append((letter, args[i].text))
                else:
                    found.append(("?", None))
                break
            found.append((letter, None))
            j += 1
        i += 1
    if len(found) > MAX_LOOP:
        return None
    return name, found, i + 1


def _options_loop(ev: ShellEvaluator, stmt: Loop, st: State, frame: Frame, name: str,
                  found: list[tuple[str, str | None]], optind: int) -> list[State]:
    outer = st.passes

    def bind(s: State, option: tuple[str, str | None]) -> None:
        letter, optarg = option
        s.set(name, Val(letter))
        if optarg is None:
            s.vars.pop("OPTARG", None)
        else:
            s.set("OPTARG", Val(optarg))
        s.set("OPTIND", Val(str(optind)))

    active, done = _passes(ev, stmt.body, stmt.row, st, frame, found, bind)
    for s in active + done:
        s.passes = outer
        s.set("OPTIND", Val(str(optind)))
        s.status = "true"
    return merge(_end_loop(active + done))


def _case_match(patterns: Sequence[Word], value: Val, scope: Scope) -> bool | None:
    undecided = False
    for pattern in patterns:
        regex = expand_pattern(pattern, scope)
        if regex is None:
            undecided = True
        elif regex == ".*":
            return True
        elif not value.known:
            undecided = True
        else:
            matched = glob_matches(regex, value.text)
            if matched:
                return True
            undecided = undecided or matched is None
    return None if undecided else False


def _end_loop(states: list[State]) -> list[State]:
    for s in states:
        if s.stop in ("break", "continue"):
            s.stop = None
    return states


def _row(stmt: Stmt) -> int:
    if hasattr(stmt, "row"):
        return int(stmt.row)
    if isinstance(stmt, Seq):
        return _row(stmt.items[0]) if stmt.items else 0
    if isinstance(stmt, AndOr):
        return _row(stmt.left)
    if isinstance(stmt, (Not, FuncDef)):
        return _row(stmt.body)
    if isinstance(stmt, Pipeline):
        return _row(stmt.items[0]) if stmt.items else 0
    if isinstance(stmt, Subshell):
        return _row(stmt.body)
    return 0

"""Run a parsed script abstractly: no program is executed, every command is recorded.

Statements are evaluated over a list of paths (``state.State``). A condition
decided from known values takes its branch; an undecided one forks the path,
each fork noting the condition it assumed. A command that ran is assumed to
succeed for ``&&`` (a green CI run is what the audit describes) but not for
``||`` or ``if``, whose other side is kept as a conditional alternative.

Bounds: ``MAX_STEPS`` statements per evaluation, ``MAX_DEPTH`` nested calls
(functions, scripts, make), ``MAX_LOOP`` iterations of a literal ``for``,
and ``state.MAX_PATHS`` live paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from linkgate.workflows.shell import commands
from linkgate.workflows.shell.conditions import evaluate_test
from linkgate.workflows.shell.names import assigned_names
from linkgate.workflows.shell.parse import parse_script
from linkgate.workflows.shell.state import (
    WORKSPACE, Frame, Recipe, ShellCommand, ShellProblem, State, merge,
)
from linkgate.workflows.shell.syntax import (
    AndOr, Broken, Case, Command, Decl, For, FuncDef, If, Loop, Not, Pipeline, Seq, Stmt, Subshell, Subst,
    Test, Unset, word_text,
)
from linkgate.workflows.shell.words import Val, Value, expand_joined, expand_pattern, expand_word, join, unknown

MAX_STEPS = 20_000
MAX_DEPTH = 8
MAX_LOOP = 64


class Host(Protocol):
    """The repository around the script: files to read, Makefiles to walk."""

    def read_script(self, rel: str) -> str | None: ...

    def make_recipes(
        self, argv: tuple[str, ...], cwd: str, env: Mapping[str, str], seen: set[tuple[str, str]]
    ) -> tuple[list[Recipe], list[tuple[str, bool]]]: ...


class Evaluator:
    def __init__(self, host: Host | None = None, exprs: Sequence[Val] = ()) -> None:
        self.host = host
        self.exprs = exprs
        self.commands: list[ShellCommand] = []
        self.problems: list[ShellProblem] = []
        self.assigned: set[str] = set()
        self.steps = 0
        self.make_seen: set[tuple[str, str]] | None = None
        self.capture: list[list[str] | None] = []
        self._index: dict[tuple[Any, ...], int] = {}
        self._problem_set: set[ShellProblem] = set()
        self.github_env: dict[str, str] = {}

    # --- entry points -----------------------------------------------------

    def run_text(self, text: str, frame: Frame, state: State) -> list[State]:
        seq = parse_script(text)
        self.assigned |= assigned_names(seq)
        return self.run(seq, [state], frame)

    def new_shell(self, env: Mapping[str, str] | Mapping[str, Value], cwd: str, cwd_unknown: bool,
                  conds: tuple[str, ...] = ()) -> State:
        values: dict[str, Value] = {k: (Val(v) if isinstance(v, str) else v) for k, v in env.items()}
        values.setdefault("GITHUB_WORKSPACE", Val(WORKSPACE))
        return State(values, set(values), cwd, cwd_unknown, conds=conds)

    # --- reporting --------------------------------------------------------

    def emit(self, argv: Sequence[Val], st: State, frame: Frame, line: int, prefix: Mapping[str, Value]) -> None:
        causes = [c for v in argv for c in v.causes]
        if st.cwd_unknown:
            causes.append("cd to an unknown directory")
        env = st.env()
        env.update({k: v.text for k, v in prefix.items() if isinstance(v, Val)})
        via = frame.via + (f"{frame.file}:{line}{frame.suffix}",) if frame.via else ()
        cmd = ShellCommand(tuple(v.text for v in argv), frame.file, line, st.cwd, st.cwd_unknown, env,
                           tuple(dict.fromkeys(causes)), st.conds, via)
        key = (cmd.file, cmd.line, cmd.argv, cmd.cwd, cmd.cwd_unknown, tuple(sorted(env.items())), via)
        seen = self._index.get(key)
        if seen is None:
            self._index[key] = len(self.commands)
            self.commands.append(cmd)
            return
        old = self.commands[seen]
        keep = tuple(c for c in old.conditions if c in set(cmd.conditions))
        if keep != old.conditions:
            self.commands[seen] = ShellCommand(old.argv, old.file, old.line, old.cwd, old.cwd_unknown, old.env,
                                               old.unknown, keep, old.via)

    def problem(self, file: str, line: int, cause: str, message: str, cargo: bool) -> None:
        found = ShellProblem(file, line, cause, message, cargo)
        if found not in self._problem_set:
            self._problem_set.add(found)
            self.problems.append(found)

    def scope(self, st: State, frame: Frame) -> _Scope:
        return _Scope(self, st, frame)

    # --- statements -------------------------------------------------------

    def run(self, stmt: Stmt, states: list[State], frame: Frame) -> list[State]:
        out: list[State] = []
        for st in states:
            if st.stop:
                out.append(st)
            else:
                out.extend(self.exec(stmt, st, frame))
        return merge(out)

    def exec(self, stmt: Stmt, st: State, frame: Frame) -> list[State]:
        self.steps += 1
        if self.steps > MAX_STEPS:
            if self.steps == MAX_STEPS + 1:
                self.problem(frame.file, frame.line(0), "too complex",
                             f"evaluation stopped after {MAX_STEPS} statements", True)
            st.stop = "exit"
            return [st]
        if isinstance(stmt, Command):
            return commands.run_command(self, stmt, st, frame)
        if isinstance(stmt, Seq):
            states = [st]
            for item in stmt.items:
                states = self.run(item, states, frame)
                if all(s.stop for s in states):
                    break
            return states
        if isinstance(stmt, AndOr):
            return self.and_or(stmt, st, frame)
        if isinstance(stmt, Not):
            out = self.exec(stmt.body, st, frame)
            for s in out:
                s.status = {"true": "false", "false": "true"}.get(s.status, "unknown")
            return out
        if isinstance(stmt, (Pipeline, Subshell)):
            items = stmt.items if isinstance(stmt, Pipeline) else (stmt.body,)
            statuses = set()
            for item in items:
                # Each side of a pipe, like ( ... ), runs in a subshell: cd and
                # assignments there do not reach the caller.
                ends = self.exec(item, st.copy(), frame)
                statuses = {s.status for s in ends}
            st.status = statuses.pop() if len(statuses) == 1 else "unknown"
            return [st]
        if isinstance(stmt, If):
            return self.if_(stmt, 0, st, frame)
        if isinstance(stmt, Case):
            return self.case(stmt, st, frame)
        if isinstance(stmt, For):
            return self.for_(stmt, st, frame)
        if isinstance(stmt, Loop):
            states = self.exec(stmt.cond, st, frame) if stmt.cond.items else [st]
            where = f"{frame.file}:{frame.line(stmt.row)} loop body"
            body = self.run(stmt.body, [s.fork(where) for s in states if not s.stop], frame)
            return merge(states + _end_loop(body))
        if isinstance(stmt, FuncDef):
            st.funcs[stmt.name] = (stmt.body, frame)
            st.status = "true"
            return [st]
        if isinstance(stmt, Test):
            decided = evaluate_test(stmt.tokens, stmt.double, self.scope(st, frame))
            st.status = "unknown" if decided is None else ("true" if decided else "false")
            return [st]
        if isinstance(stmt, Decl):
            commands.declare(self, stmt, st, frame)
            return [st]
        if isinstance(stmt, Unset):
            for name in stmt.names:
                st.vars.pop(name, None)
                st.funcs.pop(name, None)
            return [st]
        if isinstance(stmt, Broken):
            found = [stmt.text.find(w) for w in ("cargo", "cross", "wasm-pack") if w in stmt.text]
            if found:
                line = frame.line(stmt.row + stmt.text[: min(found)].count("\n"))
                self.problem(frame.file, line, "unparsable shell",
                             f"cannot parse the shell at {frame.file}:{line}; a cargo command there is not read", True)
            return [st]
        return [st]

    def and_or(self, stmt: AndOr, st: State, frame: Frame) -> list[State]:
        out: list[State] = []
        for s in self.exec(stmt.left, st, frame):
            if s.stop:
                out.append(s)
                continue
            if stmt.op == "&&":
                go = {"true": True, "assumed": True, "false": False}.get(s.status)
            else:
                go = {"true": False, "false": True}.get(s.status)
            if go is True:
                out.extend(self.exec(stmt.right, s, frame))
            elif go is False:
                out.append(s)
            else:
                where = f"{frame.file}:{frame.line(_row(stmt.left))} `{stmt.op}`"
                out.extend(self.exec(stmt.right, s.fork(f"{where} right side runs"), frame))
                skipped = s.fork(f"{where} right side skipped")
                skipped.status = "false" if stmt.op == "&&" else "true"
                out.append(skipped)
        return out

    def if_(self, stmt: If, i: int, st: State, frame: Frame) -> list[State]:
        if i == len(stmt.clauses):
            if stmt.orelse is not None:
                return self.exec(stmt.orelse, st, frame)
            st.status = "true"
            return [st]
        cond, body = stmt.clauses[i]
        out: list[State] = []
        for s in self.exec(cond, st, frame):
            if s.stop:
                out.append(s)
                continue
            taken = {"true": True, "false": False}.get(s.status)
            if taken is True:
                out.extend(self.exec(body, s, frame))
            elif taken is False:
                out.extend(self.if_(stmt, i + 1, s, frame))
            else:
                where = f"{frame.file}:{frame.line(_row(cond))} {'if' if i == 0 else 'elif'}"
                out.extend(self.exec(body, s.fork(f"{where} taken"), frame))
                out.extend(self.if_(stmt, i + 1, s.fork(f"{where} not taken"), frame))
        return out

    def case(self, stmt: Case, st: State, frame: Frame) -> list[State]:
        value = expand_joined(stmt.value, self.scope(st, frame))
        texts = [v.text for v in self.exprs]
        where = f"{frame.file}:{frame.line(stmt.row)} case {word_text(stmt.value, texts)}"
        out: list[State] = []
        pending = [st]
        for item in stmt.items:
            label = "|".join(word_text(p, texts) for p in item.patterns)
            waiting: list[State] = []
            for s in pending:
                matched = _case_match(item.patterns, value, self.scope(s, frame))
                if matched is True:
                    out.extend(self.exec(item.body, s, frame))
                elif matched is False:
                    waiting.append(s)
                else:
                    out.extend(self.exec(item.body, s.fork(f"{where} matches {label}"), frame))
                    waiting.append(s.fork(f"{where} does not match {label}"))
            pending = waiting
        for s in pending:
            s.status = "true"
        return merge(out + pending)

    def for_(self, stmt: For, st: State, frame: Frame) -> list[State]:
        scope = self.scope(st, frame)
        if stmt.values is None:
            fields = list(st.args)
        else:
            fields = [f for w in stmt.values for f in expand_word(w, scope)]
        known = [f for f in fields if f.known]
        rest = [f for f in fields if not f.known] + known[MAX_LOOP:]
        active = [st]
        done: list[State] = []
        for value in known[:MAX_LOOP]:
            for s in active:
                s.set(stmt.var, value)
            ended = self.run(stmt.body, active, frame)
            active = [s for s in ended if not s.stop or s.stop == "continue"]
            done += [s for s in ended if s.stop and s.stop != "continue"]
            for s in active:
                s.stop = None
            if not active:
                break
        if rest and active:
            where = f"{frame.file}:{frame.line(stmt.row)} for {stmt.var} over values not known"
            extra = [s.fork(where) for s in active]
            for s in extra:
                s.set(stmt.var, join(rest) if len(rest) == 1 else unknown(f"${stmt.var}"))
            active = active + self.run(stmt.body, extra, frame)
        return merge(_end_loop(active + done))

    def run_subst(self, part: Subst, st: State, frame: Frame) -> Val:
        """Run the body for what it calls; its output is known only for a few
        pure commands (``pwd``, ``dirname``, ``basename``, ``echo``)."""
        self.capture.append([])
        self.run(part.body, [st.copy()], frame)
        out = self.capture.pop()
        if out is None:
            return unknown(part.text)
        return Val("".join(out).rstrip("\n"))


class _Scope:
    def __init__(self, ev: Evaluator, st: State, frame: Frame) -> None:
        self.ev, self.st, self.frame = ev, st, frame

    def lookup(self, name: str) -> Value | None:
        return self.st.vars.get(name)

    def outside(self, name: str) -> bool:
        return name not in self.ev.assigned

    def positional(self) -> tuple[Val, ...]:
        return self.st.args

    def arg0(self) -> Val:
        return self.st.arg0

    def assign(self, name: str, value: Val) -> None:
        self.st.set(name, value)

    def expr(self, index: int) -> Val:
        return self.ev.exprs[index] if index < len(self.ev.exprs) else unknown("${{ ... }}")

    def subst(self, part: Subst) -> Val:
        return self.ev.run_subst(part, self.st, self.frame)


def _case_match(patterns: Sequence[Any], value: Val, scope: _Scope) -> bool | None:
    import re

    undecided = False
    for pattern in patterns:
        regex = expand_pattern(pattern, scope)
        if regex is None:
            undecided = True
        elif regex == ".*":
            return True
        elif value.known and re.fullmatch(regex, value.text, re.S):
            return True
        elif not value.known:
            undecided = True
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


def evaluate(text: str, file: str, first_line: int = 1, env: Mapping[str, str] | None = None, cwd: str = "",
             host: Host | None = None, exprs: Sequence[Val] = (), args: Sequence[Val] = ()) -> Evaluator:
    """Evaluate one script; its commands and problems are on the returned evaluator."""
    ev = Evaluator(host, exprs)
    state = ev.new_shell(env or {}, cwd, False)
    state.args = tuple(args)
    ev.run_text(text, Frame(file, first_line), state)
    return ev

"""Run a parsed script abstractly: no program is executed, every command is recorded.

Statements are evaluated over a list of paths (``state.State``). A condition
decided from known values takes its branch; an undecided one forks the path,
each fork noting the condition it assumed. A command that ran is assumed to
succeed for ``&&`` (a green CI run is what the audit describes) but not for
``||`` or ``if``, whose other side is kept as a conditional alternative.

A statement is run by the handler registered for its node type in
``dispatch.HANDLERS``: the plain ones here, simple commands in ``commands``,
control flow in ``control``. This module imports neither of those; the
package's ``__init__`` imports them so that they register.

Bounds: ``dispatch.MAX_STEPS`` statements per evaluation, ``dispatch.MAX_DEPTH``
nested calls (functions, scripts, make), ``control.MAX_LOOP`` iterations of a
literal ``for``, and ``state.MAX_PATHS`` live paths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from linkgate.workflows.shell.conditions import evaluate_test
from linkgate.workflows.shell.dispatch import HANDLERS, MAX_DEPTH as MAX_DEPTH, MAX_STEPS, Host as Host, \
    ShellEvaluator, register
from linkgate.workflows.shell.names import assigned_names
from linkgate.workflows.shell.parse import parse_script
from linkgate.workflows.shell.state import WORKSPACE, Frame, ShellCommand, ShellProblem, State, merge
from linkgate.workflows.shell.syntax import Broken, Command, FuncDef, Lit, Not, Pipeline, Seq, Stmt, Subshell, Subst, Test, Unset
from linkgate.workflows.shell.words import MAX_VALUE, Val, Value, unknown

# Variables by which other CI systems announce themselves (Travis, AppVeyor,
# GitLab, CircleCI, Azure Pipelines, Buildkite, Jenkins, Drone, Cirrus,
# Bitbucket, TeamCity). GitHub's runner sets none of them (its defaults are CI,
# GITHUB_* and RUNNER_*), so a script shared with another CI reads them as
# unset there instead of forking on `[ "$TRAVIS" = true ]`.
OTHER_CI = frozenset({
    "TRAVIS", "TRAVIS_OS_NAME", "CONTINUOUS_INTEGRATION", "APPVEYOR", "GITLAB_CI", "CIRCLECI", "TF_BUILD",
    "BUILDKITE", "JENKINS_URL", "DRONE", "CIRRUS_CI", "BITBUCKET_BUILD_NUMBER", "TEAMCITY_VERSION",
})

# The environment variables that change what a cargo command builds or links.
_TOOL_ENV = ("CARGO", "RUST", "LINKGATE")


# The cause a command run after a `cd` to a directory linkgate cannot compute carries.
CD_UNKNOWN = "cd to an unknown directory"

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
        self.github_output: dict[str, str] = {}

    # --- entry points -----------------------------------------------------

    def run_text(self, text: str, frame: Frame, state: State) -> list[State]:
        try:
            seq = parse_script(text)
            self.assigned |= assigned_names(seq)
            return self.run(seq, [state], frame)
        except RecursionError:
            # The parser and the evaluator follow nesting ($(...), if, loops) by
            # recursion; thousands of levels exhaust Python's stack. Whatever the
            # script ran is unknown: a problem, never a crash.
            self.problem(frame.file, frame.line(0), "too deep",
                         "the script nests too deeply to follow; not evaluated", True)
            return [state]

    def new_shell(self, env: Mapping[str, str] | Mapping[str, Value], cwd: str, cwd_unknown: bool,
                  conds: tuple[str, ...] = ()) -> State:
        values: dict[str, Value] = {k: (Val(v) if isinstance(v, str) else v) for k, v in env.items()}
        values.setdefault("GITHUB_WORKSPACE", Val(WORKSPACE))
        return State(values, set(values), cwd, cwd_unknown, conds=conds)

    # --- reporting --------------------------------------------------------

    def emit(self, argv: Sequence[Val], st: State, frame: Frame, line: int, prefix: Mapping[str, Value]) -> None:
        causes = [c for v in argv for c in v.causes]
        if st.cwd_unknown:
            causes.append(CD_UNKNOWN)
        env = st.env()
        env.update({k: v.text for k, v in prefix.items() if isinstance(v, Val)})
        via = frame.via + (f"{frame.file}:{line}{frame.suffix}",) if frame.via else ()
        cmd = ShellCommand(tuple(v.text for v in argv), frame.file, line, st.cwd, st.cwd_unknown, env,
                           tuple(dict.fromkeys(causes)), st.conds, via)
        # One command line met on several paths is one run: the paths are alternatives of one
        # script run (an `if` on $OSTYPE exporting different variables, then the same cargo
        # line). Only the variables cargo, rustc and linkgate read keep such records apart;
        # any other variable that differs between the paths is left out of the merged record.
        # cross is a drop-in for cargo: `"$CARGO" "$@"` that is cargo on one path and cross on the
        # other (a wrapper choosing by a host triple it computes) is still one run of that line.
        program = "cargo|cross" if cmd.argv and cmd.argv[0].rsplit("/", 1)[-1] in ("cargo", "cross") else ""
        key = (cmd.file, cmd.line, (program, *cmd.argv[1:]) if program else cmd.argv, cmd.cwd, cmd.cwd_unknown,
               tuple(sorted((k, v) for k, v in env.items() if k.startswith(_TOOL_ENV))), via, st.passes)
        seen = self._index.get(key)
        if seen is None:
            self._index[key] = len(self.commands)
            self.commands.append(cmd)
            return
        old = self.commands[seen]
        keep = tuple(c for c in old.conditions if c in set(cmd.conditions))
        same_env = old.env if old.env == env else {k: v for k, v in old.env.items() if env.get(k) == v}
        if keep != old.conditions or same_env != old.env:
            self.commands[seen] = ShellCommand(old.argv, old.file, old.line, old.cwd, old.cwd_unknown, same_env,
                                               old.unknown, keep, old.via)

    def problem(self, file: str, line: int, cause: str, message: str, cargo: bool, unread: str = "") -> None:
        found = ShellProblem(file, line, cause, message, cargo, unread)
        if found not in self._problem_set:
            self._problem_set.add(found)
            self.problems.append(found)

    def scope(self, st: State, frame: Frame, row: int = 0) -> _Scope:
        return _Scope(self, st, frame, row)

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
        handler = HANDLERS.get(type(stmt))
        if handler is not None:
            return handler(self, stmt, st, frame)
        return [st]

    def run_subst(self, part: Subst, st: State, frame: Frame) -> Val:
        """Run the body for what it calls; its output is known only for a few
        pure commands (``pwd``, ``dirname``, ``basename``, ``echo``)."""
        self.capture.append([])
        self.run(part.body, [st.copy()], frame)
        out = self.capture.pop()
        if out is None:
            return unknown(part.text)
        return Val("".join(out).rstrip("\n"))


# --- the plain statements (commands and control flow register in their modules) ---


@register(Seq)
def _seq(ev: ShellEvaluator, stmt: Seq, st: State, frame: Frame) -> list[State]:
    states = [st]
    for item in stmt.items:
        states = ev.run(item, states, frame)
        if all(s.stop for s in states):
            break
    return states


@register(Not)
def _not(ev: ShellEvaluator, stmt: Not, st: State, frame: Frame) -> list[State]:
    out = ev.exec(stmt.body, st, frame)
    for s in out:
        s.status = {"true": "false", "false": "true"}.get(s.status, "unknown")
    return out


def _text_filter(item: Stmt) -> Callable[[str], str] | None:
    """A pipeline stage that only rewrites its input, all words literal: `tr SET1 SET2` (sets of
    plain characters, as long as each other), `cat`; None for anything else."""
    if not isinstance(item, Command) or item.assigns or item.heredoc is not None or item.output is not None:
        return None
    if not all(len(w) == 1 and isinstance(w[0], Lit) for w in item.words):
        return None
    words = [w[0].text for w in item.words if isinstance(w[0], Lit)]
    if words == ["cat"]:
        return lambda text: text
    if len(words) == 3 and words[0] == "tr" and not words[1].startswith("-") and len(words[1]) == len(words[2]) \
            and not any(c in "\\[]-" for c in words[1] + words[2]):
        table = str.maketrans(words[1], words[2])
        return lambda text: text.translate(table)
    return None


@register(Pipeline, Subshell)
def _subshells(ev: ShellEvaluator, stmt: Pipeline | Subshell, st: State, frame: Frame) -> list[State]:
    items = stmt.items if isinstance(stmt, Pipeline) else (stmt.body,)
    teed = _tee_to_runner_file(items) if isinstance(stmt, Pipeline) else None
    if teed is not None:
        # `echo K=V | tee -a "$GITHUB_ENV"`: the same as `echo K=V >> "$GITHUB_ENV"` (tee also
        # prints the line, which changes nothing here).
        return ev.exec(teed, st, frame)
    if isinstance(stmt, Pipeline) and len(items) > 1 and ev.capture and ev.capture[-1] is not None:
        # `$(echo $features | tr ' ' ',')`: what the first stage writes, rewritten by the others.
        filters = [_text_filter(item) for item in items[1:]]
        if all(f is not None for f in filters):
            start = len(ev.capture[-1])
            ends = ev.exec(items[0], st.copy(), frame)
            out = ev.capture[-1]
            if out is not None:
                text = "".join(out[start:])
                for f in filters:
                    assert f is not None
                    text = f(text)
                del out[start:]
                out.append(text)
            statuses = {s.status for s in ends}
            st.status = statuses.pop() if len(statuses) == 1 else "unknown"
            return [st]
    statuses = set()
    for item in items:
        # Each side of a pipe, like ( ... ), runs in a subshell: cd and
        # assignments there do not reach the caller.
        ends = ev.exec(item, st.copy(), frame)
        statuses = {s.status for s in ends}
    st.status = statuses.pop() if len(statuses) == 1 else "unknown"
    return [st]


def _tee_to_runner_file(items: tuple[Stmt, ...]) -> Command | None:
    """`echo ... | tee [-a] FILE` with FILE the runner's `$GITHUB_ENV` or `$GITHUB_OUTPUT`, as the
    echo written to that file; None for any other pipeline."""
    if len(items) != 2:
        return None
    first, tee = items[0], items[1]
    if not isinstance(first, Command) or not isinstance(tee, Command):
        return None
    if first.output is not None or not first.words or first.words[0] != (Lit("echo", False),):
        return None
    words = tee.words
    if not words or words[0] != (Lit("tee", False),) or tee.output is not None:
        return None
    files = [w for w in words[1:] if not (len(w) == 1 and isinstance(w[0], Lit) and w[0].text in ("-a", "--append"))]
    if len(files) != 1:
        return None
    return replace(first, output=files[0])


@register(FuncDef)
def _funcdef(ev: ShellEvaluator, stmt: FuncDef, st: State, frame: Frame) -> list[State]:
    st.funcs[stmt.name] = (stmt.body, frame)
    st.status = "true"
    return [st]


@register(Test)
def _test(ev: ShellEvaluator, stmt: Test, st: State, frame: Frame) -> list[State]:
    decided = evaluate_test(stmt.tokens, stmt.double, ev.scope(st, frame))
    st.status = "unknown" if decided is None else ("true" if decided else "false")
    return [st]


@register(Unset)
def _unset(ev: ShellEvaluator, stmt: Unset, st: State, frame: Frame) -> list[State]:
    for name in stmt.names:
        st.vars.pop(name, None)
        st.funcs.pop(name, None)
    return [st]


@register(Broken)
def _broken(ev: ShellEvaluator, stmt: Broken, st: State, frame: Frame) -> list[State]:
    found = [stmt.text.find(w) for w in ("cargo", "cross", "wasm-pack") if w in stmt.text]
    if found:
        line = frame.line(stmt.row + stmt.text[: min(found)].count("\n"))
        ev.problem(frame.file, line, "unparsable shell",
                   f"cannot parse the shell at {frame.file}:{line}; a cargo command there is not read", True)
    return [st]


class _Scope:
    def __init__(self, ev: Evaluator, st: State, frame: Frame, row: int = 0) -> None:
        self.ev, self.st, self.frame, self.row = ev, st, frame, row

    def lookup(self, name: str) -> Value | None:
        return self.st.vars.get(name)

    def outside(self, name: str) -> bool:
        return name not in self.ev.assigned and name not in OTHER_CI

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

    def capped(self, written: str, limit: int = MAX_VALUE) -> Val:
        shown = written if len(written) <= 60 else written[:57] + "..."
        self.ev.problem(self.frame.file, self.frame.line(self.row), "value too long",
                        f"`{shown}` works on a value past {limit} characters; its value is unknown", True)
        return unknown(shown)


def evaluate(text: str, file: str, first_line: int = 1, env: Mapping[str, str] | None = None, cwd: str = "",
             host: Host | None = None, exprs: Sequence[Val] = (), args: Sequence[Val] = ()) -> Evaluator:
    """Evaluate one script; its commands and problems are on the returned evaluator."""
    ev = Evaluator(host, exprs)
    state = ev.new_shell(env or {}, cwd, False)
    state.args = tuple(args)
    ev.run_text(text, Frame(file, first_line), state)
    return ev

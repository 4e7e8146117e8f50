"""Simple commands: assignments, builtins that change the shell, wrappers,
functions, and the scripts and Makefiles a command runs.

A script runs in a child shell that sees only exported variables; ``source``
runs it in the caller's shell. ``bash -c STRING``, ``eval`` and a here-document
fed to ``bash`` are parsed and run like any script. Wrappers (``env``,
``sudo``, ``time``, ``timeout``, ...) are stripped down to the command they run.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING

from linkgate.workflows.shell.conditions import evaluate_test, from_words
from linkgate.workflows.shell.state import WORKSPACE, Frame, State, clean
from linkgate.workflows.shell.syntax import Assign, Command, Decl, Lit, Param, Word
from linkgate.workflows.shell.words import EMPTY, Scope, Val, Value, expand_joined, expand_word, join, unknown

if TYPE_CHECKING:
    from linkgate.workflows.shell.interp import Evaluator

_SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# Wrappers and the options of theirs that take a value.
_WRAPPERS: dict[str, set[str]] = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"},
    "time": {"-f", "-o"}, "nice": {"-n"}, "nohup": set(), "exec": {"-a"}, "command": set(), "builtin": set(),
    "stdbuf": {"-i", "-o", "-e"}, "xvfb-run": {"-n", "-s", "-e", "-f", "-p", "--server-num", "--error-file"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
}
# Their output is known when their arguments are, so `$(dirname "$0")` is.
_PURE = {"echo", "printf", "pwd", "dirname", "basename"}
_QUIET = {"true", ":", "false", "set", "shopt", "trap", "alias", "umask", "ulimit", "wait", "hash", "type",
          "read", "mapfile", "readarray", "getopts", "let", "enable", "complete", "disown", "jobs", "echo",
          "printf", "pwd", "dirname", "basename"}
# An autoconf `configure` script runs a C toolchain, never cargo; it is often
# generated in CI, so its absence from the repository is no news.
_GENERATED_SCRIPTS = {"configure", "config.status", "autogen.sh", "bootstrap"}


def run_command(ev: Evaluator, cmd: Command, st: State, frame: Frame) -> list[State]:
    scope = ev.scope(st, frame)
    prefix: dict[str, Value] = {}
    for a in cmd.assigns:
        prefix[a.name] = _assigned(a, st, scope)
    fields = [f for word in cmd.words for f in expand_word(word, scope)]
    if not fields:
        for name, value in prefix.items():
            st.set(name, value)
        st.status = "true"
        return [st]
    if cmd.output is not None and fields[0].text == "echo" and _to_github_env(ev, cmd.output, st, frame):
        # `echo "K=V" >> $GITHUB_ENV`: later steps of the job see K (only
        # when known and written on every path).
        key, eq, setting = join([f for f in fields[1:] if f.text not in ("-n", "-e", "-E")]).text.partition("=")
        if eq and not st.conds and all(f.known for f in fields):
            ev.github_env[key] = setting
        return [st]
    return dispatch(ev, fields, prefix, st, frame, frame.line(cmd.row), cmd.heredoc)


def _to_github_env(ev: Evaluator, output: Word, st: State, frame: Frame) -> bool:
    return len(output) == 1 and isinstance(output[0], Param) and output[0].name == "GITHUB_ENV" \
        and st.vars.get("GITHUB_ENV") is None


def dispatch(ev: Evaluator, fields: list[Val], prefix: dict[str, Value], st: State, frame: Frame,
             line: int, heredoc: str | None = None) -> list[State]:
    fields = _unwrap(fields, prefix)
    if not fields:
        st.status = "assumed"
        return [st]
    head = fields[0]
    st_status = "assumed"
    if not head.known:
        _capture_fails(ev)
        ev.emit(fields, st, frame, line, prefix)
        st.status = st_status
        return [st]
    name = head.text
    args = fields[1:]
    if name in st.funcs:
        return _call_function(ev, name, fields, st, frame, line)
    builtin = _builtin(ev, name, args, st, frame, line)
    if builtin is not None:
        return builtin
    if name in _SHELLS:
        return _shell(ev, fields, st, frame, line, heredoc, prefix)
    if posixpath.basename(name) in ("make", "gmake"):
        return _make(ev, fields, st, frame, line, prefix)
    script = _script_rel(ev, name, st)
    if script is not None:
        return run_script(ev, fields, st, frame, line, source=False, prefix=prefix)
    if name == "rustup" and len(args) >= 3 and args[0].text == "run" and args[2].known:
        # `rustup run TOOLCHAIN cargo ...` is `cargo +TOOLCHAIN ...`.
        rest = [args[2], Val(f"+{args[1].text}", args[1].causes), *args[3:]]
        return dispatch(ev, rest, prefix, st, frame, line)
    _capture_fails(ev)
    ev.emit(fields, st, frame, line, prefix)
    st.status = st_status
    return [st]


def declare(ev: Evaluator, decl: Decl, st: State, frame: Frame) -> None:
    scope = ev.scope(st, frame)
    export = decl.kind == "export" or any("x" in f for f in decl.flags if f.startswith("-"))
    if any(f.startswith("-") and "f" in f for f in decl.flags):
        return  # `export -f`, `declare -f`: functions, not variables
    local = decl.kind in ("local", "declare", "typeset") and bool(st.locals) and "-g" not in decl.flags
    for item in decl.items:
        if local and item.name not in st.locals[-1]:
            st.locals[-1][item.name] = st.vars.get(item.name)
        if item.value is None and item.array is None:
            if local:
                st.vars.pop(item.name, None)
            if export:
                st.exported.add(item.name)
            continue
        st.set(item.name, _assigned(item, st, scope), export=export)
    st.status = "true"


def run_script(ev: Evaluator, fields: list[Val], st: State, frame: Frame, line: int,
               source: bool, offset: int = 0, prefix: dict[str, Value] | None = None) -> list[State]:
    """Run ``fields[offset]`` as a script with the rest as its arguments."""
    path = fields[offset]
    hop = f"{frame.file}:{line} {' '.join(f.text for f in fields)}"
    rel = _script_rel(ev, path.text, st) if path.known else None
    text = ev.host.read_script(rel) if ev.host is not None and rel is not None else None
    if text is None:
        base = posixpath.basename(path.text)
        # `./example` with no shell suffix, run directly, is most often a
        # program the build just made, not a script that went missing.
        named_as_script = offset > 0 or base.endswith((".sh", ".bash"))
        if base not in _GENERATED_SCRIPTS and named_as_script:
            where = rel or path.text
            cause = f"script {where}"
            message = (f"script {where} is not in the repository; not followed" if rel and path.known
                       else f"script `{path.text}` cannot be located; not followed")
            ev.problem(frame.file, line, cause, message, True)
        _capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    assert rel is not None
    if frame.depth >= _max_depth():
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {_max_depth()}; `{hop}` not followed", True)
        return [st]
    child_frame = Frame(rel, 1, frame.via + (hop,), "", frame.depth + 1)
    args = tuple(fields[offset + 1 :])
    if source:
        saved = st.args
        if args:
            st.args = args
        ends = ev.run_text(text, child_frame, st)
        for s in ends:
            s.args = saved
            if s.stop == "return":
                s.stop = None
        return ends
    child = ev.new_shell(_child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
    child.args, child.arg0 = args, path
    child.vars["BASH_SOURCE"] = (path,)
    ev.run_text(text, child_frame, child)
    _capture_fails(ev)
    st.status = "assumed"
    return [st]


def _builtin(ev: Evaluator, name: str, args: list[Val], st: State, frame: Frame, line: int) -> list[State] | None:
    st.status = "true"
    if name in ("cd", "pushd", "popd"):
        if name == "popd":
            if st.stack:
                st.cwd, st.cwd_unknown = st.stack.pop()
            else:
                st.cwd_unknown = True
            return [st]
        if name == "pushd":
            st.stack.append((st.cwd, st.cwd_unknown))
        targets = [a for a in args if not (a.known and a.text.startswith("-") and a.text != "-")]
        st.chdir(targets[0] if targets else unknown("~"))
        return [st]
    if name in ("source", "."):
        return run_script(ev, [Val(name), *args], st, frame, line, source=True, offset=1) if args else [st]
    if name == "eval":
        text = join(args)
        if not text.known:
            _capture_fails(ev)
            ev.emit([Val("eval"), *args], st, frame, line, {})
            return [st]
        return ev.run_text(text.text, Frame(frame.file, line, frame.via, frame.suffix, frame.depth + 1), st)
    if name == "shift":
        n = int(args[0].text) if args and args[0].known and args[0].text.isdigit() else 1
        st.args = st.args[n:]
        return [st]
    if name == "set":
        _set(args, st)
        return [st]
    if name in ("exit", "return", "break", "continue"):
        st.stop = name
        return [st]
    if name in ("test", "["):
        items = args[:-1] if name == "[" and args and args[-1].text == "]" else args
        decided = None
        if all(a.known for a in items):
            decided = evaluate_test(from_words([(Lit(a.text, False),) for a in items]), False, ev.scope(st, frame))
        st.status = "unknown" if decided is None else ("true" if decided else "false")
        return [st]
    if name == "false":
        st.status = "false"
        return [st]
    if name in ("read", "mapfile", "readarray", "getopts"):
        for a in args:
            if a.known and not a.text.startswith("-"):
                st.set(a.text, unknown(f"${a.text}"))
        st.status = "unknown"
        return [st]
    if name in ("export", "local", "readonly", "declare", "typeset"):
        for a in args:
            key, eq, value = a.text.partition("=")
            if eq:
                st.set(key, Val(value, a.causes), export=name == "export")
            elif name == "export":
                st.exported.add(key)
        return [st]
    if name in _PURE and ev.capture and ev.capture[-1] is not None:
        _capture(ev, name, args, st)
        return [st]
    if name in _QUIET:
        return [st]
    return None


def _shell(ev: Evaluator, fields: list[Val], st: State, frame: Frame, line: int,
           heredoc: str | None, prefix: dict[str, Value]) -> list[State]:
    i = 1
    while i < len(fields) and fields[i].known and fields[i].text[:1] in ("-", "+"):
        flag = fields[i].text
        if flag in ("-c",) and i + 1 < len(fields):
            body = fields[i + 1]
            if not body.known:
                break
            child = ev.new_shell(_child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
            child.args = tuple(fields[i + 3 :])
            ev.run_text(body.text, Frame(frame.file, line, frame.via, frame.suffix, frame.depth + 1), child)
            st.status = "assumed"
            return [st]
        i += 2 if flag in ("-o", "+o", "-O", "+O") else 1
    if i < len(fields) and fields[i].known and fields[i].text not in ("-s", "-"):
        return run_script(ev, fields, st, frame, line, source=False, offset=i, prefix=prefix)
    if heredoc is not None and i >= len(fields):
        child = ev.new_shell(_child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
        ev.run_text(heredoc, Frame(frame.file, line + 1, frame.via, frame.suffix, frame.depth + 1), child)
        st.status = "assumed"
        return [st]
    _capture_fails(ev)
    ev.emit(fields, st, frame, line, {})
    st.status = "assumed"
    return [st]


def _make(ev: Evaluator, fields: list[Val], st: State, frame: Frame, line: int,
          prefix: dict[str, Value]) -> list[State]:
    _capture_fails(ev)
    st.status = "assumed"
    if ev.host is None or st.cwd_unknown:
        ev.emit(fields, st, frame, line, {})
        return [st]
    top = ev.make_seen is None
    if top:
        ev.make_seen = set()
    assert ev.make_seen is not None
    argv = tuple(f.text for f in fields)
    hop = f"{frame.file}:{line} {' '.join(argv)}"
    try:
        texts = {k: v.text for k, v in _child_env(st, prefix).items() if isinstance(v, Val)}
        recipes, problems = ev.host.make_recipes(argv, st.cwd, texts, ev.make_seen)
        for message, cargo in problems:
            ev.problem(frame.file, line, message, message, cargo)
        if frame.depth >= _max_depth():
            return [st]
        env = _child_env(st, prefix)
        for r in recipes:
            child = ev.new_shell(env, r.cwd, False, st.conds)
            ev.run_text(r.text, Frame(r.file, r.line, frame.via + (hop,), f" ({r.goal})", frame.depth + 1), child)
    finally:
        if top:
            ev.make_seen = None
    return [st]


def _child_env(st: State, prefix: dict[str, Value] | None) -> dict[str, Value]:
    """What a child process sees: exported variables and the command's own prefix."""
    env: dict[str, Value] = {k: st.vars[k] for k in st.exported if k in st.vars}
    env.update(prefix or {})
    return env


def _call_function(ev: Evaluator, name: str, fields: list[Val], st: State, frame: Frame,
                   line: int) -> list[State]:
    body, home = st.funcs[name]
    if frame.depth >= _max_depth():
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {_max_depth()}; `{name}` not followed",
                   True)
        return [st]
    hop = f"{frame.file}:{line} {' '.join(f.text for f in fields)}"
    saved = st.args
    st.args = tuple(fields[1:])
    st.locals.append({})
    ends = ev.exec(body, st, Frame(home.file, home.base, frame.via + (hop,), home.suffix, frame.depth + 1))
    for s in ends:
        for var, old in (s.locals.pop() if s.locals else {}).items():
            if old is None:
                s.vars.pop(var, None)
            else:
                s.vars[var] = old
        s.args = saved
        if s.stop == "return":
            s.stop = None
    return ends


def _unwrap(fields: list[Val], prefix: dict[str, Value]) -> list[Val]:
    while fields and fields[0].known:
        head = fields[0].text
        if head == "env":
            fields = fields[1:]
            while fields and fields[0].known and (fields[0].text.startswith("-") or "=" in fields[0].text):
                text = fields[0].text
                if text in ("-u", "--unset", "-C", "--chdir", "-S") and len(fields) > 1:
                    fields = fields[2:]
                    continue
                if "=" in text and not text.startswith("-"):
                    key, _, value = text.partition("=")
                    prefix[key] = Val(value, fields[0].causes)
                fields = fields[1:]
        elif head in ("docker", "podman") and len(fields) > 2 and fields[1].text in ("run", "exec"):
            fields = _container(fields, prefix)
        elif head in _WRAPPERS:
            if head == "command" and len(fields) > 1 and fields[1].text in ("-v", "-V"):
                return []
            takes = _WRAPPERS[head]
            fields = fields[1:]
            while fields and fields[0].known and fields[0].text.startswith("-"):
                fields = fields[2:] if fields[0].text in takes else fields[1:]
            while head == "sudo" and fields and fields[0].known and "=" in fields[0].text:
                key, _, value = fields[0].text.partition("=")
                prefix[key] = Val(value)
                fields = fields[1:]
            if head == "timeout" and fields:
                fields = fields[1:]  # the duration
        else:
            break
    return fields


def _container(fields: list[Val], prefix: dict[str, Value]) -> list[Val]:
    """``docker run [opts] IMAGE CMD...``: the command, with ``-e`` variables.

    CI mounts the checkout and works in it, so the directory is kept."""
    rest = fields[2:]
    while rest and rest[0].known and rest[0].text.startswith("-"):
        flag, eq, value = rest[0].text.partition("=")
        takes = flag in _CONTAINER_VALUE and not eq
        if flag in ("-e", "--env") and (eq or len(rest) > 1):
            setting = Val(value, rest[0].causes) if eq else rest[1]
            key, has, text = setting.text.partition("=")
            if has:
                prefix[key] = Val(text, setting.causes)
        rest = rest[2:] if takes else rest[1:]
    return rest[1:] if rest else []  # the image (or, for exec, the container) goes


_CONTAINER_VALUE = {"-e", "--env", "-w", "--workdir", "-v", "--volume", "--name", "-u", "--user", "--entrypoint",
                    "--platform", "--network", "--mount", "-p", "--publish", "--env-file", "-h", "--hostname",
                    "--cpus", "-m", "--memory", "--security-opt", "--cap-add", "--device", "--shm-size", "-l",
                    "--label", "--ulimit", "--add-host", "--tmpfs", "--pull"}


def _script_rel(ev: Evaluator, name: str, st: State) -> str | None:
    """The repository path of a script run by path, if *name* is one."""
    if name.startswith(WORKSPACE + "/"):
        rel = name[len(WORKSPACE) + 1 :]
    elif "/" not in name or name.startswith(("/", "~")) or st.cwd_unknown:
        return None
    else:
        rel = clean(posixpath.join(st.cwd, name))
    if rel.startswith("..") or rel.startswith("/"):
        return None
    if name.endswith((".sh", ".bash")) or name.startswith("./"):
        return rel
    text = ev.host.read_script(rel) if ev.host is not None else None
    first = text.split("\n", 1)[0] if text else ""
    return rel if first.startswith("#!") and ("sh" in first.rsplit("/", 1)[-1]) else None


def _set(args: Sequence[Val], st: State) -> None:
    for i, a in enumerate(args):
        if a.text == "--":
            st.args = tuple(args[i + 1 :])
            return
        if a.text.startswith("-") and "a" in a.text[1:] and not a.text.startswith("--"):
            st.allexport = True
        elif a.text.startswith("+") and "a" in a.text[1:]:
            st.allexport = False
        elif not a.text.startswith(("-", "+")):
            st.args = tuple(args[i:])
            return


def _assigned(a: Assign, st: State, scope: Scope) -> Value:
    if a.array is not None:
        items = tuple(f for w in a.array for f in expand_word(w, scope))
        if a.append:
            old = st.vars.get(a.name)
            prior = old if isinstance(old, tuple) else ((old,) if isinstance(old, Val) else ())
            return prior + items
        return items
    value = expand_joined(a.value, scope) if a.value is not None else EMPTY
    if a.append:
        old = st.vars.get(a.name)
        if isinstance(old, tuple):
            return old + (value,)
        base = old if isinstance(old, Val) else EMPTY
        return Val(base.text + value.text, base.causes + value.causes)
    return value


def _capture(ev: Evaluator, name: str, args: list[Val], st: State) -> None:
    out = ev.capture[-1]
    assert out is not None
    if not all(a.known for a in args):
        ev.capture[-1] = None
        return
    texts = [a.text for a in args]
    if name == "pwd":
        out.append((WORKSPACE + "/" + st.cwd if st.cwd else WORKSPACE) + "\n")
        if st.cwd_unknown:
            ev.capture[-1] = None
    elif name == "dirname" and texts:
        out.append((posixpath.dirname(texts[-1].rstrip("/")) or ".") + "\n")
    elif name == "basename" and texts:
        out.append(posixpath.basename(texts[0].rstrip("/")) + "\n")
    elif name == "echo":
        flags = [t for t in texts if t in ("-n", "-e", "-E")]
        words = texts[len(flags):]
        out.append(" ".join(words) + ("" if "-n" in flags else "\n"))
    elif name == "printf" and len(texts) == 2 and texts[0] in ("%s", "%s\n"):
        out.append(texts[1] + ("\n" if texts[0] == "%s\n" else ""))
    else:
        ev.capture[-1] = None


def _capture_fails(ev: Evaluator) -> None:
    if ev.capture:
        ev.capture[-1] = None


def _max_depth() -> int:
    from linkgate.workflows.shell.interp import MAX_DEPTH

    return MAX_DEPTH

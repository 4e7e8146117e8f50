"""Simple commands: assignments, builtins that change the shell (``cd``,
``shift``, ``set``, ``export``, ``read``, ``eval``, ``test``), and wrappers
(``env``, ``sudo``, ``time``, ``timeout``, ``docker run``, ...) stripped down
to the command they run. Commands that run other code are in ``calls``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from linkgate.workflows.shell import calls
from linkgate.workflows.shell.conditions import evaluate_test, from_words
from linkgate.workflows.shell.dispatch import Host, ShellEvaluator, register
from linkgate.workflows.shell.state import WORKSPACE, Frame, State
from linkgate.workflows.shell.syntax import Assign, Command, Decl, Lit, Param, Word
from linkgate.workflows.shell.words import EMPTY, MAX_VALUE, Scope, Val, Value, expand_joined, expand_word, join, unknown

_SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# Wrappers and the options of theirs that take a value.
_WRAPPERS: dict[str, set[str]] = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"},
    "time": {"-f", "-o"}, "nice": {"-n"}, "nohup": set(), "exec": {"-a"}, "command": set(), "builtin": set(),
    "stdbuf": {"-i", "-o", "-e"}, "xvfb-run": {"-n", "-s", "-e", "-f", "-p", "--server-num", "--error-file"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
}
# Python environment managers whose `run` runs a command in the project's environment
# (`poetry run maturin develop`, `uv run --with maturin maturin build`): the options of
# theirs that take a value. One that changes the directory (`--directory`, `-C`,
# `--project`) is not followed: the command is left unread rather than placed wrongly.
_ENV_RUNNERS: dict[str, set[str]] = {
    "poetry": {"-E", "--extras", "--with", "--without", "--only"},
    "uv": {"--with", "--with-requirements", "--with-editable", "-p", "--python", "--extra", "--group",
           "--env-file", "--index", "--index-url", "--extra-index-url", "--package", "--only-group", "--no-group"},
    "pipenv": set(), "pdm": {"-p", "--venv"}, "hatch": {"-e", "--env"}, "rye": set(),
    "conda": {"-n", "--name", "-p", "--prefix"}, "mamba": {"-n", "--name", "-p", "--prefix"},
    "micromamba": {"-n", "--name", "-p", "--prefix"},
}
_MOVES_DIRECTORY = {"-C", "--directory", "--project", "-P", "--cwd", "--root"}
# Their output is known when their arguments are, so `$(dirname "$0")` is.
_PURE = {"echo", "printf", "pwd", "dirname", "basename"}
_QUIET = {"true", ":", "false", "set", "shopt", "trap", "alias", "umask", "ulimit", "wait", "hash", "type",
          "read", "mapfile", "readarray", "getopts", "let", "enable", "complete", "disown", "jobs", "echo",
          "printf", "pwd", "dirname", "basename"}


@register(Command)
def run_command(ev: ShellEvaluator, cmd: Command, st: State, frame: Frame) -> list[State]:
    scope = ev.scope(st, frame, cmd.row)
    prefix: dict[str, Value] = {}
    for a in cmd.assigns:
        prefix[a.name] = _assigned(a, st, scope)
    fields: list[Val] = []
    rows: list[int] = []
    for i, word in enumerate(cmd.words):
        found = expand_word(word, scope)
        fields += found
        rows += [cmd.rows[i] if i < len(cmd.rows) else cmd.row] * len(found)
    if not fields:
        for name, value in prefix.items():
            st.set(name, value)
        st.status = "true"
        return [st]
    target = _github_file(cmd.output, st) if cmd.output is not None and fields[0].text == "echo" else None
    if target is not None:
        # `echo "K=V" >> $GITHUB_ENV`: later steps of the job see K; `>> $GITHUB_OUTPUT`: the
        # step's output K (`steps.ID.outputs.K`). Only when known and written on every path.
        key, eq, setting = join([f for f in fields[1:] if f.text not in ("-n", "-e", "-E")]).text.partition("=")
        if eq and not st.conds and all(f.known for f in fields):
            (ev.github_env if target == "GITHUB_ENV" else ev.github_output)[key] = setting
        return [st]
    heredoc = (cmd.heredoc, cmd.heredoc_expands) if cmd.heredoc is not None else None
    if st.args_at is not None and cmd.words and _is_positional(cmd.words[0]):
        # A wrapper function (`run() { "$@"; }`, `retry 3 cargo test`): the command
        # word was written where the function was called, so that is its line.
        file, line = st.args_at
        frame = Frame(file, line, frame.via, frame.suffix, frame.depth)
        rows = [0] * len(rows)
    return dispatch(ev, fields, rows, prefix, st, frame, heredoc)


def _is_positional(word: Word) -> bool:
    return len(word) == 1 and isinstance(word[0], Param) and not word[0].ops \
        and (word[0].name in ("@", "*") or word[0].name.isdigit() and word[0].name != "0")


_PWSH = {"powershell", "powershell.exe", "pwsh", "pwsh.exe"}
# Text PowerShell reads as it is (words and their quotes): no variable, block, pipe, call
# operator or sub-expression, which PowerShell and bash read differently.
_PLAIN = re.compile(r"""^[\w\s.,:=+/@'"-]*$""")


def _powershell_command(name: str, args: list[Val]) -> str | None:
    """The command line of `powershell -Command TEXT` (or pwsh, `-c`) when TEXT is known and plain."""
    if posixpath.basename(name).lower() not in _PWSH:
        return None
    words = [a.text for a in args]
    at = next((i for i, w in enumerate(words) if w.lower() in ("-command", "-c")), None)
    if at is None or at + 2 != len(args) or not args[at + 1].known or not all(a.known for a in args[:at]):
        return None
    text = args[at + 1].text
    return text if text.strip() and _PLAIN.match(text) else None


def _github_file(output: Word, st: State) -> str | None:
    """`GITHUB_ENV` or `GITHUB_OUTPUT` when the redirection writes the runner's file of that name."""
    if len(output) == 1 and isinstance(output[0], Param) and output[0].name in ("GITHUB_ENV", "GITHUB_OUTPUT") \
            and st.vars.get(output[0].name) is None:
        return output[0].name
    return None


def dispatch(ev: ShellEvaluator, fields: list[Val], rows: list[int], prefix: dict[str, Value], st: State, frame: Frame,
             heredoc: tuple[str, bool] | None = None) -> list[State]:
    """Run *fields*; *rows* gives each field's row, and the program's row is the command's line."""
    fields = _unwrap(fields, prefix, ev.host)
    if not fields:
        st.status = "assumed"
        return [st]
    rows = rows[len(rows) - len(fields) :]  # wrappers are stripped from the front
    line = frame.line(rows[0])
    head = fields[0]
    st_status = "assumed"
    if not head.known:
        calls.capture_fails(ev)
        ev.emit(fields, st, frame, line, prefix)
        st.status = st_status
        return [st]
    name = head.text
    args = fields[1:]
    if name in st.funcs:
        return calls.call_function(ev, name, fields, st, frame, line)
    builtin = _builtin(ev, name, args, st, frame, line)
    if builtin is not None:
        return builtin
    if name in _SHELLS:
        return calls.run_shell(ev, fields, st, frame, line, heredoc, prefix)
    plain = _powershell_command(name, args)
    if plain is not None:
        # `powershell.exe -command "cargo test --locked"` from bash: the text, already expanded by
        # bash, is one plain command line, which PowerShell runs as a shell would.
        child = ev.new_shell(calls.child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
        ev.run_text(plain, Frame(frame.file, line, frame.via, frame.suffix, frame.depth + 1), child)
        st.status = "assumed"
        return [st]
    if posixpath.basename(name) in ("make", "gmake"):
        return calls.run_make(ev, fields, st, frame, line, prefix)
    tasks = calls.run_tasks(ev, fields, st, frame, line, prefix)
    if tasks is not None:
        return tasks
    if name == "docker":
        built = calls.run_docker_build(ev, fields, st, frame, line)
        if built is not None:
            return built
    python = calls.run_python_command(ev, fields, st, frame, line, prefix)
    if python is not None:
        return python
    script = calls.script_rel(ev, name, st)
    if script is not None:
        return calls.run_script(ev, fields, st, frame, line, source=False, prefix=prefix)
    if name == "rustup" and len(args) >= 3 and args[0].text == "run" and args[2].known:
        # `rustup run TOOLCHAIN cargo ...` is `cargo +TOOLCHAIN ...`.
        rest = [args[2], Val(f"+{args[1].text}", args[1].causes), *args[3:]]
        return dispatch(ev, rest, [rows[3], *rows[2:3], *rows[4:]], prefix, st, frame)
    calls.capture_fails(ev)
    ev.emit(fields, st, frame, line, prefix)
    st.status = st_status
    return [st]


@register(Decl)
def decl(ev: ShellEvaluator, stmt: Decl, st: State, frame: Frame) -> list[State]:
    declare(ev, stmt, st, frame)
    return [st]


def declare(ev: ShellEvaluator, decl: Decl, st: State, frame: Frame) -> None:
    scope = ev.scope(st, frame, decl.row)
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


def _builtin(ev: ShellEvaluator, name: str, args: list[Val], st: State, frame: Frame, line: int) -> list[State] | None:
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
        return calls.run_script(ev, [Val(name), *args], st, frame, line, source=True, offset=1) if args else [st]
    if name == "eval":
        text = join(args)
        if not text.known:
            calls.capture_fails(ev)
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
    if name == "git" and [a.text for a in args] == ["rev-parse", "--show-toplevel"] and not st.cwd_unknown \
            and ev.capture and ev.capture[-1] is not None:
        # The checkout is the repository the job runs in: its top level is the workspace.
        ev.capture[-1].append(WORKSPACE + "\n")
        st.status = "true"
        return [st]
    if name in _PURE and ev.capture and ev.capture[-1] is not None:
        _capture(ev, name, args, st)
        return [st]
    if name in _QUIET:
        return [st]
    return None


def _unwrap(fields: list[Val], prefix: dict[str, Value], host: Host | None = None) -> list[Val]:
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
            fields = _container(fields, prefix, host)
        elif head in _LAUNCHERS or (head == "uv" and [f.text for f in fields[1:3]] == ["tool", "run"]) \
                or (head == "nix" and len(fields) > 1 and fields[1].text in ("develop", "shell")):
            rest = _launched(head, fields)
            if rest is None:
                break
            fields = rest
        elif head in _ENV_RUNNERS and len(fields) > 2 and fields[1].known and fields[1].text == "run":
            rest = _env_runner(fields[2:], _ENV_RUNNERS[head])
            if rest is None:
                break
            fields = rest
        elif head in ("pixi", "mise") and len(fields) > 2 and fields[1].text in _IN_ENVIRONMENT[head]:
            rest = _in_environment(head, fields)
            if rest is None:
                break
            fields = rest
        elif head == "xargs" and len(fields) > 1:
            rest = _xargs(fields[1:])
            if rest is None:
                break
            fields = rest
        elif head == "find" and any(f.text in ("-exec", "-execdir", "-ok", "-okdir") for f in fields):
            fields = _find_exec(fields)
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


# `pixi exec CMD`, `mise exec [--] CMD` / `mise x`: CMD in the tool's environment. `pixi run WORD`
# runs the task WORD when the manifest defines it (workflows.taskfiles), else the command WORD:
# taken as a command only when WORD is a program that runs cargo, which no task is named after.
_IN_ENVIRONMENT = {"pixi": {"exec", "run"}, "mise": {"exec", "x"}}
_PIXI_MISE_VALUE = {"-e", "--environment", "--manifest-path", "-m", "-s", "--spec", "-c", "--color", "-C", "--cd",
                    "-j", "--jobs"}
_CARGO_PROGRAMS = {"cargo", "cross", "maturin", "cargo-zigbuild", "wasm-pack", "napi", "makers", "cargo-make"}


def _in_environment(head: str, fields: list[Val]) -> list[Val] | None:
    verb = fields[1].text
    rest = fields[2:]
    if head == "mise":
        # `mise exec [TOOL@VERSION]... -- COMMAND`: the command follows `--`.
        cut = next((i for i, f in enumerate(rest) if f.text == "--"), None)
        return rest[cut + 1:] or None if cut is not None else None
    while rest and rest[0].known and rest[0].text.startswith("-") and rest[0].text != "--":
        if rest[0].text in ("-C", "--cd"):
            return None  # another directory: not placed wrongly
        rest = rest[2:] if rest[0].text in _PIXI_MISE_VALUE else rest[1:]
    if rest and rest[0].text == "--":
        rest = rest[1:]
    if not rest or not rest[0].known:
        return None
    if head == "pixi" and verb == "run" and posixpath.basename(rest[0].text) not in _CARGO_PROGRAMS:
        return None
    return rest


# GNU and BSD xargs options that take a value as the next word (`-I {}`, `-n 1`, `-P 4`).
_XARGS_VALUE = {"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P",
                "--max-procs", "-s", "--max-chars", "--process-slot-var", "-J", "-R", "-S"}
# What xargs reads from its input, or find finds: words linkgate cannot know.
XARGS_ITEMS = "$(items xargs reads from its input)"
FIND_ITEMS = "$(paths find finds)"


def _xargs(rest: list[Val]) -> list[Val] | None:
    """`xargs [OPTIONS] CMD ARGS`: CMD ARGS with what xargs reads appended (or put where `-I R` says
    R is), an unknown; None when the command is not written (xargs' default is `echo`)."""
    replace_str: str | None = None
    while rest and rest[0].known and rest[0].text.startswith("-") and rest[0].text != "-":
        word = rest[0].text
        if word == "--":
            rest = rest[1:]
            break
        name, eq, attached = word.partition("=")
        if word in _XARGS_VALUE:
            if len(rest) < 2:
                return None
            if word == "-I":
                replace_str = rest[1].text
            rest = rest[2:]
            continue
        if word.startswith("-I") and len(word) > 2:
            replace_str = word[2:]
        elif word == "-i" or name == "--replace":
            replace_str = attached if eq else "{}"
        elif word.startswith("-i") and len(word) > 2:
            replace_str = word[2:]
        rest = rest[1:]
    if not rest:
        return None
    items = unknown(XARGS_ITEMS)
    if replace_str:
        return [items if f.text == replace_str else
                Val(f.text.replace(replace_str, items.text), f.causes + items.causes) if replace_str in f.text else f
                for f in rest]
    return [*rest, items]


def _find_exec(fields: list[Val]) -> list[Val]:
    """`find ... -exec CMD ARGS {} ;` (or `+`): CMD ARGS, each `{}` a path linkgate cannot know."""
    start = next(i for i, f in enumerate(fields) if f.text in ("-exec", "-execdir", "-ok", "-okdir")) + 1
    end = next((i for i in range(start, len(fields)) if fields[i].text in (";", "+")), len(fields))
    found = unknown(FIND_ITEMS)
    return [found if f.text == "{}" else
            Val(f.text.replace("{}", found.text), f.causes + found.causes) if "{}" in f.text else f
            for f in fields[start:end]]


# Launchers that fetch a tool and run it with the rest of the line (`uvx --from 'maturin[zig]'
# maturin build`, `uv tool run`, `pipx run`, `npx`): the options of theirs that take a value.
_LAUNCHERS: dict[str, set[str]] = {
    "uvx": {"--from", "--with", "--with-requirements", "--with-editable", "-p", "--python", "--index",
            "--index-url", "--extra-index-url", "--env-file", "-c", "--constraints"},
    "pipx": {"--spec", "--python", "--pip-args", "--index-url"},
    "npx": {"-p", "--package", "-c", "--call", "--cache", "--userconfig"},
}
# npm packages whose binary has another name.
_NPX_BINARIES = {"@napi-rs/cli": "napi"}


def _launched(head: str, fields: list[Val]) -> list[Val] | None:
    """The command a launcher runs; None when it cannot be told (`nix develop` without `-c`)."""
    if head == "nix":
        # `nix develop [FLAKE] [OPTIONS] -c|--command PROG ARGS`: the rest runs in the dev shell.
        i = next((k for k, f in enumerate(fields) if f.text in ("-c", "--command")), None)
        return fields[i + 1:] if i is not None else None
    rest = fields[3:] if head == "uv" else fields[1:]
    takes = _LAUNCHERS["uvx" if head == "uv" else head]
    if head == "pipx":
        if not rest or rest[0].text != "run":
            return None
        rest = rest[1:]
    while rest and rest[0].known and rest[0].text.startswith("-"):
        flag, eq, _ = rest[0].text.partition("=")
        if flag == "--":
            rest = rest[1:]
            break
        rest = rest[2:] if flag in takes and not eq else rest[1:]
    if rest and rest[0].known:
        # `npx @napi-rs/cli@2 build`, `uvx maturin@1.7 build`: the tool, without its version.
        text = rest[0].text
        name = text.rsplit("@", 1)[0] if text.count("@") > text.startswith("@") else text
        rest = [Val(_NPX_BINARIES.get(name, name), rest[0].causes), *rest[1:]]
    return rest


def _env_runner(rest: list[Val], takes: set[str]) -> list[Val] | None:
    """The command after ``poetry run``/``uv run``'s own options; None when an option moves the directory."""
    while rest and rest[0].known and rest[0].text.startswith("-"):
        flag, eq, _ = rest[0].text.partition("=")
        if flag in _MOVES_DIRECTORY:
            return None
        if flag == "--":
            return rest[1:]
        rest = rest[2:] if flag in takes and not eq else rest[1:]
    return rest


def _container(fields: list[Val], prefix: dict[str, Value], host: Host | None = None) -> list[Val]:
    """``docker run [opts] IMAGE CMD...``: the command, with ``-e`` variables; for an image
    the workflow builds from the repository, its entrypoint (``Host.container_command``).

    CI mounts the checkout and works in it, so the directory is kept."""
    rest = fields[2:]
    own_entrypoint = False
    while rest and rest[0].known and rest[0].text.startswith("-"):
        flag, eq, value = rest[0].text.partition("=")
        own_entrypoint = own_entrypoint or flag == "--entrypoint"
        takes = flag in _CONTAINER_VALUE and not eq
        if flag in ("-e", "--env") and (eq or len(rest) > 1):
            setting = Val(value, rest[0].causes) if eq else rest[1]
            key, has, text = setting.text.partition("=")
            if has:
                prefix[key] = Val(text, setting.causes)
        rest = rest[2:] if takes else rest[1:]
    if host is not None and fields[1].text == "run" and rest and not own_entrypoint \
            and all(f.known for f in rest):
        found = host.container_command(rest[0].text, [f.text for f in rest[1:]])
        if found is not None:
            return [Val(word) for word in found]
    return rest[1:] if rest else []  # the image (or, for exec, the container) goes


_CONTAINER_VALUE = {"-e", "--env", "-w", "--workdir", "-v", "--volume", "--name", "-u", "--user", "--entrypoint",
                    "--platform", "--network", "--mount", "-p", "--publish", "--env-file", "-h", "--hostname",
                    "--cpus", "-m", "--memory", "--security-opt", "--cap-add", "--device", "--shm-size", "-l",
                    "--label", "--ulimit", "--add-host", "--tmpfs", "--pull"}


def _set(args: Sequence[Val], st: State) -> None:
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "--":
            st.args = tuple(args[i + 1 :])
            return
        if text[:1] in ("-", "+") and text[1:].endswith("o") and not text.startswith("--"):
            i += 2  # `set -o pipefail`, `set -euo pipefail`: an option name, not a parameter
            continue
        if text.startswith("-") and "a" in text[1:]:
            st.allexport = True
        elif text.startswith("+") and "a" in text[1:]:
            st.allexport = False
        elif not text.startswith(("-", "+")):
            st.args = tuple(args[i:])
            return
        i += 1


def _assigned(a: Assign, st: State, scope: Scope) -> Value:
    if a.array is not None:
        items = tuple(f for w in a.array for f in expand_word(w, scope))
        if a.append:
            old = st.vars.get(a.name)
            prior = old if isinstance(old, tuple) else ((old,) if isinstance(old, Val) else ())
            items = prior + items
        if sum(len(v.text) for v in items) > MAX_VALUE:  # `a+=("${a[@]}" "${a[@]}")` doubles too
            return scope.capped(f"{a.name}=(...)")
        return items
    value = expand_joined(a.value, scope) if a.value is not None else EMPTY
    if a.append:
        old = st.vars.get(a.name)
        if isinstance(old, tuple):
            return old + (value,)
        base = old if isinstance(old, Val) else EMPTY
        if len(base.text) + len(value.text) > MAX_VALUE:
            return scope.capped(f"{a.name}+=...")
        return Val(base.text + value.text, base.causes + value.causes)
    return value


def _capture(ev: ShellEvaluator, name: str, args: list[Val], st: State) -> None:
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
    elif name == "basename" and 1 <= len(texts) <= 2 and not texts[0].startswith("-"):
        # `basename NAME [SUFFIX]`: the suffix goes unless it is all that is left (POSIX).
        base = posixpath.basename(texts[0].rstrip("/")) or ("/" if texts[0] else "")
        if len(texts) == 2 and texts[1] and base != texts[1] and base.endswith(texts[1]):
            base = base[: -len(texts[1])]
        out.append(base + "\n")
    elif name == "echo":
        flags = [t for t in texts if t in ("-n", "-e", "-E")]
        words = texts[len(flags):]
        out.append(" ".join(words) + ("" if "-n" in flags else "\n"))
    elif name == "printf" and len(texts) == 2 and texts[0] in ("%s", "%s\n"):
        out.append(texts[1] + ("\n" if texts[0] == "%s\n" else ""))
    else:
        ev.capture[-1] = None

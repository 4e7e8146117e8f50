"""``cargo make TASK`` / ``makers TASK`` read as the shell lines it runs (sagiegurari/cargo-make).

``Makefile.toml``'s ``[tasks.TASK]``: ``dependencies`` first, then ``command`` +
``args`` or ``script`` (a string or a list of lines); ``run_task`` names another
task. Default task: ``default``. ``extend`` (a path, ``{ path = "..." }``, or a
list of those, relative to the extending file, followed recursively) brings in
the tasks and ``[env]`` of other files; the extending file's own keys win, task
by task. ``[env]`` and ``[tasks.X.env]`` values are strings or tables
``{ value = "...", condition = { env_set, env_not_set, env_true, env_false,
env = {K = V} } }``, decided against the job's environment and the values set
before them; a condition linkgate cannot decide (platforms, channels, files)
leaves the variable unknown, and a ``script`` value is unknown. Variables reach
the task's lines as exported shell variables, so ``${X}`` in ``args`` resolves;
``-e/--env K=V`` on the command line sets K first. A ``script = { file = F }`` is
read as its runner's command line (``sh F``; ``rust-script F`` for ``script_runner =
"@rust"``, a Rust program linkgate names with the lines that write cargo); an
inline script whose ``script_runner`` is no shell (``@rust``, ``@duckscript``,
``python``) is named as unread, a gap that may run cargo.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from linkgate.workflows.shell.state import Recipe

Problems = list[tuple[str, bool]]
ReadText = Callable[[str], "str | None"]
# Bounds the extend chain (and a file that extends itself).
MAX_EXTENDS = 16
_TRUE = {"true", "yes", "1"}
# script_runner values whose script is a shell script (cargo-make's default is @shell).
_SHELL_RUNNERS = {"@shell", "sh", "bash", "/bin/sh", "/bin/bash", "zsh"}
# The program a `script = { file }` of each runner is read as: @rust is rust-script, a Rust program.
_FILE_RUNNERS = {"@rust": "rust-script", "@shell": "sh", "@duckscript": "duckscript"}
_RUNNER_LANGUAGES = {"rust": "Rust (rust-script)", "duckscript": "duckscript", "python": "Python",
                     "python3": "Python", "node": "JavaScript", "pwsh": "PowerShell", "powershell": "PowerShell"}


@dataclass
class _Source:
    rel: str
    lines: list[str]


@dataclass
class _Makefile:
    tasks: dict[str, tuple[dict[str, Any], _Source]] = field(default_factory=dict)
    env: list[tuple[str, Any]] = field(default_factory=list)
    problems: Problems = field(default_factory=list)


def cargo_make(read: ReadText, args: list[str], cwd: str, env: Mapping[str, str]) -> tuple[list[Recipe], Problems]:
    file = "Makefile.toml"
    task = None
    given: dict[str, str] = {}  # `-e/--env K=V`: set before the Makefile's [env] is read
    while args:
        word = args.pop(0)
        if word == "--":
            # `cargo make [OPTIONS] -- TASK ARGS`: the task follows.
            if task is None and args:
                task = args.pop(0)
            break
        if word in ("--makefile",) and args:
            file = args.pop(0)
        elif word in ("-p", "--profile", "-e", "--env", "--cwd", "-t", "--task", "-l", "--loglevel") and args:
            value = args.pop(0)
            task = value if word in ("-t", "--task") else task
            if word in ("-e", "--env") and "=" in value:
                key, _, val = value.partition("=")
                given[key] = val
        elif word.startswith("--env=") and "=" in word[6:]:
            key, _, val = word[6:].partition("=")
            given[key] = val
        elif not word.startswith("-") and task is None:
            task = word
            break
    env = {**env, **given}
    rel = posixpath.normpath(posixpath.join(cwd, file))
    if read(rel) is None:
        return [], [(f"no {rel}; `cargo make {task or ''}` not followed", True)]
    mk = _Makefile()
    _load(read, rel, mk, [])
    values, unknown = _env(mk.env, dict(env))
    # The command line's `--env` wins over the Makefile's [env].
    values = {**values, **given}
    unknown = {k: v for k, v in unknown.items() if k not in given}
    out: list[Recipe] = []
    _run_task(mk, task or "default", args, posixpath.dirname(rel), values, unknown, out, set())
    return out, mk.problems


def _load(read: ReadText, rel: str, mk: _Makefile, chain: list[str]) -> None:
    """*rel* and, first, what it extends: the extending file's tasks and env win."""
    text = read(rel)
    if text is None:
        mk.problems.append((f"{chain[-1] if chain else rel}: extends {rel}, which is not in the repository; "
                            "its tasks are not read", True))
        return
    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as e:
        mk.problems.append((f"{rel} is not valid TOML ({e}); not followed", True))
        return
    if rel in chain or len(chain) >= MAX_EXTENDS:
        mk.problems.append((f"{rel}: `extend` goes round or deeper than {MAX_EXTENDS} files; not followed", True))
        return
    for base in _extends(doc.get("extend")):
        _load(read, posixpath.normpath(posixpath.join(posixpath.dirname(rel), base)), mk, [*chain, rel])
    source = _Source(rel, text.split("\n"))
    tasks = doc.get("tasks")
    for name, task in (tasks.items() if isinstance(tasks, dict) else ()):
        if isinstance(task, dict):
            old = mk.tasks.get(name)
            mk.tasks[name] = ({**old[0], **task} if old else dict(task), source)
    table = doc.get("env")
    if isinstance(table, dict):
        mk.env += list(table.items())


def _extends(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        path = item.get("path") if isinstance(item, dict) else item
        if isinstance(path, str) and path:
            out.append(path)
    return out


def _env(items: list[tuple[str, Any]], env: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The variables *items* set over *env*, and those whose value cannot be known (name -> cause)."""
    values: dict[str, str] = {}
    unknown: dict[str, str] = {}
    for name, raw in items:
        if isinstance(raw, dict) and not isinstance(raw.get("value"), (str, int, float, bool)):
            # A `script`, `decode` or profile table: its value comes from running something.
            unknown[name] = f"${{{name}}}"
            continue
        value = raw.get("value") if isinstance(raw, dict) else raw
        holds = _condition(raw.get("condition"), {**env, **values}) if isinstance(raw, dict) else True
        if holds is None:
            unknown[name] = f"${{{name}}}"
            values.pop(name, None)
        elif holds:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            values[name] = _expand(text, {**env, **values})
            unknown.pop(name, None)
    return values, unknown


def _condition(cond: Any, env: Mapping[str, str]) -> bool | None:
    """Whether a cargo-make condition holds (all its parts must); None when it cannot be decided."""
    if not isinstance(cond, dict):
        return True
    for key, value in cond.items():
        names = value if isinstance(value, list) else []
        if key == "env_set":
            ok = all(n in env for n in names)
        elif key == "env_not_set":
            ok = all(n not in env for n in names)
        elif key == "env_true":
            ok = all(env.get(n, "").lower() in _TRUE for n in names)
        elif key == "env_false":
            ok = all(env.get(n, "").lower() not in _TRUE for n in names)
        elif key == "env" and isinstance(value, dict):
            ok = all(env.get(k) == str(v) for k, v in value.items())
        else:
            return None  # platforms, channels, rust_version, files_exist ...: not known here
        if not ok:
            return False
    return True


def _task_names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        name = value.get("name")
        return [name] if isinstance(name, str) else [n for n in name if isinstance(n, str)] \
            if isinstance(name, list) else []
    if isinstance(value, list):
        return [n for item in value for n in _task_names(item)]
    return []


def _expand(text: str, env: Mapping[str, str]) -> str:
    return re.sub(r"\$\{([A-Za-z_]\w*)\}", lambda m: env.get(m.group(1), m.group(0)), text)


def _task_line(lines: list[str], task: str, key: str) -> int:
    header = re.compile(rf"^\s*\[tasks\.(?:{re.escape(task)}|\"{re.escape(task)}\")\]\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return 1
    pat = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for i in range(start + 1, len(lines)):
        if lines[i].lstrip().startswith("["):
            break
        if pat.match(lines[i]):
            return i + 1
    return start + 1


def _run_task(mk: _Makefile, name: str, args: list[str], home: str, values: dict[str, str],
              unknown: dict[str, str], out: list[Recipe], seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    found = mk.tasks.get(name)
    if found is None:
        mk.problems.append((f"{home + '/' if home else ''}Makefile.toml: no task {name!r}", True))
        return
    task, source = found
    for dep in task.get("dependencies") or []:
        dep_name = dep if isinstance(dep, str) else dep.get("name") if isinstance(dep, dict) else None
        if isinstance(dep_name, str):
            _run_task(mk, dep_name, [], home, values, unknown, out, seen)
    own = task.get("env")
    task_values, task_unknown = _env(list(own.items()), dict(values)) if isinstance(own, dict) else ({}, {})
    here_values = {k: v for k, v in {**values, **task_values}.items() if k not in task_unknown}
    here_unknown = {**{k: v for k, v in unknown.items() if k not in task_values}, **task_unknown}
    env = tuple(sorted(here_values.items()))
    unknowns = tuple(sorted(here_unknown.items()))
    cwd = task.get("cwd")
    where = posixpath.normpath(posixpath.join(home, cwd)) if isinstance(cwd, str) else home
    command = task.get("command")
    if isinstance(command, str):
        words = [command, *[str(a) for a in task.get("args") or []]]
        text = " ".join(shlex.quote(w) if "${" not in w else w for w in words)
        text = text.replace("${@}", " ".join(shlex.quote(a) for a in args))
        out.append(Recipe(source.rel, _task_line(source.lines, name, "command"), text, where, name, unknowns, env))
    script = task.get("script")
    runner = task.get("script_runner")
    runner = runner.strip() if isinstance(runner, str) else "@shell"
    if isinstance(script, dict):
        # `script = { file = "x" }`: the runner runs that file, as a command line names it.
        file = script.get("file")
        if isinstance(file, str) and "${" not in file:
            line = _task_line(source.lines, name, "script")
            program = _FILE_RUNNERS.get(runner, runner.lstrip("@"))
            out.append(Recipe(source.rel, line, f"{program} {shlex.quote(file)}", where, name, unknowns, env))
        else:
            mk.problems.append((f"{source.rel}: task {name!r} runs a script file linkgate cannot locate", True))
        script = None
    if isinstance(script, list):
        script = "\n".join(str(s) for s in script)
    if isinstance(script, str) and runner not in _SHELL_RUNNERS:
        language = _RUNNER_LANGUAGES.get(runner.lstrip("@"), runner.lstrip("@"))
        mk.problems.append((f"{source.rel}:{_task_line(source.lines, name, 'script')}: task {name!r} is a "
                            f"{language} script (script_runner = {runner!r}) linkgate does not read; the cargo "
                            "commands it runs are not audited", True))
        script = None
    if isinstance(script, str):
        line = _task_line(source.lines, name, "script")
        # A multi-line string starts on the line after `script = '''`.
        first = line + 1 if source.lines[line - 1].rstrip().endswith(("'''", '"""', "[")) else line
        out.append(Recipe(source.rel, first, script, where, name, unknowns, env))
    # `run_task = "x"`, `{ name = "x" }`, `{ name = ["x", "y"] }` or a list of those (the first whose
    # condition holds runs; conditions are not decided here, so each is read).
    run_task = task.get("run_task")
    for target in _task_names(run_task):
        _run_task(mk, target, args, home, values, unknown, out, seen)

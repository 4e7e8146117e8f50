"""Task runners whose tasks are data files: go-task (``Taskfile.yml``), pixi (``pixi.toml``'s
``[tasks]``) and mise (``mise.toml``'s ``[tasks]``), read as the shell lines they run.

Each is read from its documentation, never run:

- ``task [OPTIONS] [TASK...] [-- ARGS]`` (go-task, taskfile.dev): the first of ``Taskfile.yml``,
  ``taskfile.yml``, ``Taskfile.yaml``, ``taskfile.yaml``, ``Taskfile.dist.yml`` and
  ``Taskfile.dist.yaml`` from the working directory up (``-d DIR``, ``-t FILE``); no task
  given is ``default``. A task's ``deps`` run first, then ``cmds`` in order: a string or a
  ``cmd:`` runs in the task's ``dir`` (the Taskfile's directory by default), a ``task:`` calls
  that task. ``{{.CLI_ARGS}}`` is what follows ``--``, ``{{.NAME}}`` a string of the
  Taskfile's or the task's ``vars``; any other template is a value linkgate cannot know.
  ``includes`` are named, not followed.
- ``pixi run [OPTIONS] TASK [ARGS]``: ``[tasks]`` (and ``[feature.*.tasks]``,
  ``[target.*.tasks]``; ``[tool.pixi.tasks]`` of ``pyproject.toml``) of the nearest
  manifest: a string, or a table with ``cmd`` (a string or a list of words), ``depends-on``
  (or ``depends_on``) run first, and ``cwd``; the extra words appended.
- ``mise run TASK [ARGS]`` (``mise r``), in the project root: ``[tasks.TASK]`` of ``mise.toml``, ``.mise.toml``,
  ``mise/config.toml`` or ``.config/mise.toml``: ``run`` (a string or a list of lines),
  ``depends`` first, ``dir``; ``[tasks] NAME = "cmd"`` too; the top-level tables of the TOML files
  ``[task_config] includes`` names. File tasks (``mise-tasks/``, ``.mise/tasks/``) are named, not read.

A line is given at the file and line where its command is written, as a Makefile recipe is.
Hand-written: these formats are plain YAML and TOML, read with the loaders linkgate already
uses; no library reads them as task lists.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import tomllib
from collections.abc import Mapping
from typing import Any

from linkgate.workflows import yamlnodes
from linkgate.workflows.cargomake import Problems, ReadText
from linkgate.workflows.shell.state import Recipe

TASKFILE_NAMES = ("Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml",
                  "Taskfile.dist.yaml")
MISE_NAMES = ("mise.toml", ".mise.toml", "mise/config.toml", ".config/mise.toml", ".mise/config.toml")
PROGRAMS = {"task", "go-task", "pixi", "mise"}
MAX_TASK_DEPTH = 64
# Tasks whose dependencies fan out (each depending on two that depend on two ...) would
# give 2**64 lines: past this many lines from one call, the rest is a note.
MAX_LINES = 5_000
_TEMPLATE = re.compile(r"\{\{\s*(.*?)\s*\}\}")
_TASK_VALUE_OPTIONS = {"-d", "--dir", "-t", "--taskfile", "-o", "--output", "-C", "--concurrency", "--interval"}
_PIXI_VALUE_OPTIONS = {"-e", "--environment", "--manifest-path", "--color", "-m"}


def recipes(read: ReadText, argv: tuple[str, ...], cwd: str) -> tuple[list[Recipe], Problems] | None:
    """The lines *argv* runs, and problems; None when *argv* is no task these files define
    (no Taskfile for `task`; `pixi run cargo ...`, which runs a command, not a task)."""
    name = posixpath.basename(argv[0])
    if name in ("task", "go-task"):
        return _go_task(read, list(argv[1:]), cwd)
    if name == "pixi" and len(argv) > 1 and argv[1] == "run":
        return _pixi(read, list(argv[2:]), cwd)
    if name == "mise" and len(argv) > 1 and argv[1] in ("run", "r"):
        return _mise(read, list(argv[2:]), cwd)
    return None


def _find_up(read: ReadText, cwd: str, names: tuple[str, ...]) -> str | None:
    directory = posixpath.normpath(cwd) if cwd else ""
    while True:
        for n in names:
            rel = posixpath.join(directory, n) if directory and directory != "." else n
            if read(rel) is not None:
                return rel
        if not directory or directory == ".":
            return None
        directory = posixpath.dirname(directory)


def _line_of(lines: list[str], needle: str, start: int = 0) -> int:
    """The 1-based line where *needle*'s first line is written, from *start* on."""
    first = needle.strip().split("\n", 1)[0].strip()
    for i in range(max(start, 0), len(lines)):
        if first and first in lines[i]:
            return i + 1
    return start + 1


# --- go-task ---------------------------------------------------------------------------


def _go_task(read: ReadText, args: list[str], cwd: str) -> tuple[list[Recipe], Problems] | None:
    directory, taskfile, names, cli = cwd, None, [], []
    while args:
        word = args.pop(0)
        if word == "--":
            cli = args
            break
        if word in _TASK_VALUE_OPTIONS and args:
            value = args.pop(0)
            if word in ("-d", "--dir"):
                directory = posixpath.normpath(posixpath.join(cwd, value))
            elif word in ("-t", "--taskfile"):
                taskfile = posixpath.normpath(posixpath.join(cwd, value))
        elif word.startswith("-"):
            continue
        elif "=" in word:
            continue  # `task build VAR=x`: a variable for the tasks
        else:
            names.append(word)
    rel = taskfile if taskfile is not None and read(taskfile) is not None else _find_up(read, directory, TASKFILE_NAMES)
    if rel is None:
        return None
    text = read(rel) or ""
    try:
        doc = yamlnodes.load_text(text)
    except yamlnodes.YamlError as e:
        return [], [(f"{rel} is not valid YAML ({e.message}); not followed", True)]
    if not isinstance(doc, dict) or not isinstance(doc.get("tasks"), dict):
        return [], [(f"{rel}: no `tasks` mapping; not followed", True)]
    problems: Problems = []
    if doc.get("includes"):
        problems.append((f"{rel}: `includes` are not followed; a task they define is not audited", True))
    top_vars = _string_vars(doc.get("vars"))
    out: list[Recipe] = []
    for task in names or ["default"]:
        _run_go_task(rel, doc["tasks"], task, top_vars, " ".join(shlex.quote(a) for a in cli), out, problems, [])
    return out, problems


def _task(rel: str, tasks: Mapping[str, Any], name: str, out: list[Recipe], problems: Problems,
          chain: list[str]) -> Any:
    """Task *name* to run next, or None with a note: past the bounds (lines from one call,
    nesting; said once), a task that calls itself, a task the file does not define."""
    if len(out) >= MAX_LINES:
        if not any("lines; the rest" in m for m, _ in problems):
            problems.append((f"{rel}: task {name!r}: its dependencies run past {MAX_LINES:,} lines; the rest is "
                             "not followed", True))
        return None
    if len(chain) >= MAX_TASK_DEPTH or name in chain:
        problems.append((f"{rel}: task {name!r} calls itself or nests deeper than {MAX_TASK_DEPTH}; not followed",
                         True))
        return None
    task = tasks.get(name)
    if task is None:
        problems.append((f"{rel}: no task {name!r}", True))
    return task


def _string_vars(raw: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in raw.items() if isinstance(v, str)} if isinstance(raw, dict) else {}


def _run_go_task(rel: str, tasks: Mapping[str, Any], name: str, top_vars: Mapping[str, str], cli: str,
                 out: list[Recipe], problems: Problems, chain: list[str]) -> None:
    task = _task(rel, tasks, name, out, problems, chain)
    if task is None:
        return
    if isinstance(task, (str, list)):
        task = {"cmds": task if isinstance(task, list) else [task]}
    if not isinstance(task, dict):
        problems.append((f"{rel}: task {name!r} is not a mapping; not followed", True))
        return
    home = posixpath.dirname(rel)
    where = posixpath.normpath(posixpath.join(home, str(task["dir"]))) if isinstance(task.get("dir"), str) else home
    values = {**top_vars, **_string_vars(task.get("vars")), "CLI_ARGS": cli}
    for dep in task.get("deps") or []:
        target = dep.get("task") if isinstance(dep, dict) else dep
        if isinstance(target, str):
            _run_go_task(rel, tasks, target, top_vars, cli, out, problems, [*chain, name])
    cmds = task.get("cmds")
    if cmds is None and task.get("cmd") is not None:
        cmds = [task.get("cmd")]
    for cmd in cmds if isinstance(cmds, list) else []:
        if isinstance(cmd, dict) and isinstance(cmd.get("task"), str):
            _run_go_task(rel, tasks, cmd["task"], top_vars, cli, out, problems, [*chain, name])
            continue
        body = cmd.get("cmd") if isinstance(cmd, dict) else cmd
        if not isinstance(body, str):
            continue
        unknowns: list[tuple[str, str]] = []

        def interp(m: re.Match[str]) -> str:
            expr = m.group(1)
            if expr.startswith(".") and expr[1:] in values:
                return values[expr[1:]]
            var = f"LG_TASK_{len(unknowns)}"
            unknowns.append((var, "{{" + expr + "}}"))
            return "${" + var + "}"

        line = getattr(body, "content_line", 0) or yamlnodes.line_of(cmd, 1)
        out.append(Recipe(rel, line, _TEMPLATE.sub(interp, str(body)), where, name, tuple(unknowns)))


# --- pixi and mise -----------------------------------------------------------------------


def _pixi(read: ReadText, args: list[str], cwd: str) -> tuple[list[Recipe], Problems] | None:
    manifest: str | None = None
    while args and args[0].startswith("-"):
        word = args.pop(0)
        if word in _PIXI_VALUE_OPTIONS and args:
            value = args.pop(0)
            if word in ("--manifest-path", "-m"):
                manifest = posixpath.normpath(posixpath.join(cwd, value))
    if not args:
        return None
    rel = manifest if manifest is not None else _find_up(read, cwd, ("pixi.toml", "pyproject.toml"))
    text = read(rel) if rel is not None else None
    if rel is None or text is None:
        return None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        return [], [(f"{rel} is not valid TOML ({e}); not followed", True)]
    root = doc.get("tool", {}).get("pixi", {}) if rel.endswith("pyproject.toml") else doc
    tasks: dict[str, Any] = dict(root.get("tasks") or {}) if isinstance(root, dict) else {}
    for group in ("feature", "target"):
        for part in (root.get(group) or {}).values() if isinstance(root, dict) else ():
            if isinstance(part, dict) and isinstance(part.get("tasks"), dict):
                for k, v in part["tasks"].items():
                    tasks.setdefault(k, v)
    if args[0] not in tasks:
        return None  # `pixi run cargo test`: a command in the environment, not a task
    out: list[Recipe] = []
    problems: Problems = []
    _run_toml_task(rel, text.split("\n"), tasks, args[0], args[1:], out, problems, [], "cmd",
                   ("depends-on", "depends_on"), "cwd")
    return out, problems


def _mise(read: ReadText, args: list[str], cwd: str) -> tuple[list[Recipe], Problems] | None:
    args = [a for a in args if not a.startswith("-")]
    if not args:
        return None
    rel = _find_up(read, cwd, MISE_NAMES)
    text = read(rel) if rel is not None else None
    if rel is None or text is None:
        return [], [(f"no mise.toml; `mise run {args[0]}` (perhaps a file task) not followed", True)]
    # mise runs a task in the project's root ({{config_root}}): the directory that holds
    # mise.toml, or .mise/ / .config/ / mise/ with the configuration inside.
    home = posixpath.dirname(rel)
    root = posixpath.dirname(home) if posixpath.basename(home) in (".mise", ".config", "mise") else home
    tasks: dict[str, Any] = {}
    origin: dict[str, tuple[str, list[str]]] = {}
    problems: Problems = []

    def add(file: str, body: str, table: Any) -> None:
        for name, task in (table.items() if isinstance(table, dict) else ()):
            if name not in tasks:
                tasks[name], origin[name] = task, (file, body.split("\n"))

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        return [], [(f"{rel} is not valid TOML ({e}); not followed", True)]
    add(rel, text, doc.get("tasks"))
    config = doc.get("task_config")
    includes = config.get("includes") if isinstance(config, dict) else None
    for inc in includes if isinstance(includes, list) else []:
        if not isinstance(inc, str):
            continue
        inc_rel = posixpath.normpath(posixpath.join(root, inc))
        if not inc_rel.endswith(".toml"):
            continue  # a directory of file tasks: named below if a task is missing
        inc_text = read(inc_rel)
        if inc_text is None:
            problems.append((f"{rel}: task include {inc} is not in the repository; not followed", True))
            continue
        try:
            add(inc_rel, inc_text, tomllib.loads(inc_text))  # an included file's tables are tasks
        except tomllib.TOMLDecodeError as e:
            problems.append((f"{inc_rel} is not valid TOML ({e}); not followed", True))
    if args[0] not in tasks:
        return [], [*problems, (f"{rel}: no task {args[0]!r} (a file task, e.g. under .mise/tasks/, is not read); "
                                "not followed", True)]
    out: list[Recipe] = []
    _run_toml_task(rel, text.split("\n"), tasks, args[0], args[1:], out, problems, [], "run", ("depends",), "dir",
                   origin, root)
    return out, problems


def _run_toml_task(rel: str, lines: list[str], tasks: Mapping[str, Any], name: str, extra: list[str],
                   out: list[Recipe], problems: Problems, chain: list[str], run_key: str,
                   deps_keys: tuple[str, ...], dir_key: str,
                   origin: Mapping[str, tuple[str, list[str]]] | None = None, root: str | None = None) -> None:
    task = _task(rel, tasks, name, out, problems, chain)
    if task is None:
        return
    if isinstance(task, (str, list)):
        task = {run_key: task}
    if not isinstance(task, dict):
        return
    for key in deps_keys:
        deps = task.get(key) or []
        for dep in [deps] if isinstance(deps, str) else deps:
            target = dep.get("task") if isinstance(dep, dict) else dep
            if isinstance(target, str):
                _run_toml_task(rel, lines, tasks, target, [], out, problems, [*chain, name], run_key, deps_keys,
                               dir_key, origin, root)
    file, file_lines = (origin or {}).get(name, (rel, lines))
    home = root if root is not None else posixpath.dirname(rel)
    where = posixpath.normpath(posixpath.join(home, task[dir_key])) if isinstance(task.get(dir_key), str) else home
    body = task.get(run_key)
    start = next((i for i, ln in enumerate(file_lines)
                  if re.match(rf'^\s*\[?(tasks\.)?"?{re.escape(name)}"?\s*[\]=]', ln)), 0)
    if isinstance(body, list) and run_key == "cmd":
        body = " ".join(shlex.quote(str(w)) for w in body)  # pixi: a list is the command's words
    for text in [body] if isinstance(body, str) else [b for b in body or [] if isinstance(b, str)]:
        line = text + (" " + " ".join(shlex.quote(a) for a in extra) if extra else "")
        out.append(Recipe(file, _line_of(file_lines, text, start), line, where, name))

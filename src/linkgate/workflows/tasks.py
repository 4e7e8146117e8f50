"""Task runners read as the shell lines they run: ``just``, ``cargo make`` and package scripts.

Each is read, never run (the reasons are in ``cargo.frontends.FRONT_ENDS``):

- ``just [OPTIONS] RECIPE [ARGS]``: the nearest ``justfile`` from the working
  directory up; recipe lines run in the justfile's directory, each in its own
  shell unless the recipe starts with a shebang (then the body is one
  script); ``{{name}}`` takes a parameter (defaults and ``*``/``+`` variadic
  ones included) or a ``:=`` variable whose value is a string literal;
  dependencies run first. Other expressions are unknown to the shell.
- ``cargo make TASK`` / ``makers TASK``: ``Makefile.toml``'s ``[tasks.TASK]``
  ``dependencies`` first, then ``command`` + ``args`` or ``script`` (a string
  or a list of lines); ``run_task`` names another task. Default task: ``default``.
- ``npm run X [-- ARGS]`` (``run-script``, ``test``, ``start``, ``--prefix DIR``),
  ``yarn [run] X`` (``--cwd DIR``), ``pnpm [run] X`` (``-C``/``--dir DIR``):
  ``scripts.X`` of ``package.json`` in that directory, npm's ``preX``/``postX``
  around it, the extra arguments appended.

A recipe is given at the file and line where its command is written, as a
Makefile recipe is.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from linkgate.workflows.shell.state import Recipe

Problems = list[tuple[str, bool]]
ReadText = Callable[[str], "str | None"]
JUSTFILE_NAMES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
_TASK_PROGRAMS = {"just", "npm", "yarn", "pnpm", "makers", "cargo-make"}


def is_task_runner(argv: tuple[str, ...]) -> bool:
    """Whether *argv* runs a task runner this module reads."""
    if not argv:
        return False
    name = argv[0].rsplit("/", 1)[-1]
    if name == "cargo":
        rest = [a for a in argv[1:] if not a.startswith("+")]
        return bool(rest) and rest[0] == "make"
    return name in _TASK_PROGRAMS


def task_recipes(read: ReadText, argv: tuple[str, ...], cwd: str) -> tuple[list[Recipe], Problems]:
    """The recipe lines *argv* runs from *cwd*, and problems (message, may hide cargo)."""
    name = argv[0].rsplit("/", 1)[-1]
    if name == "just":
        return _just(read, list(argv[1:]), cwd)
    if name in ("cargo", "makers", "cargo-make"):
        rest = [a for a in argv[1:] if not a.startswith("+")]
        return _cargo_make(read, rest[1:] if rest and rest[0] == "make" else rest, cwd)
    return _package_script(read, name, list(argv[1:]), cwd)


# --- just ---------------------------------------------------------------------

_JUST_HEADER = re.compile(r"^@?([A-Za-z_][\w-]*)((?:\s+[^:]*?)?)\s*:(?!=)\s*(.*)$")
_JUST_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$")
_JUST_STRING = re.compile(r"""^(?:'([^']*)'|"((?:[^"\\]|\\.)*)")$""")
_INTERP = re.compile(r"\{\{(.*?)\}\}")


@dataclass
class _JustRecipe:
    line: int
    params: list[tuple[str, str | None, bool]]  # name, default, variadic
    deps: list[list[str]]
    body: list[tuple[int, str]] = field(default_factory=list)


def _find_up(read: ReadText, cwd: str, names: tuple[str, ...]) -> tuple[str, str] | None:
    directory = cwd
    while True:
        for name in names:
            rel = posixpath.normpath(posixpath.join(directory, name)) if directory else name
            text = read(rel)
            if text is not None:
                return rel, text
        if not directory or directory == ".":
            return None
        directory = posixpath.dirname(directory)


def _just(read: ReadText, args: list[str], cwd: str) -> tuple[list[Recipe], Problems]:
    file = None
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        if flag in ("-f", "--justfile") and args:
            file = args.pop(0)
        elif flag in ("-d", "--working-directory", "--set", "--shell", "--shell-arg", "--color") and args:
            args.pop(0)
            if flag == "--set" and args:
                args.pop(0)
    if file:
        named = posixpath.normpath(posixpath.join(cwd, file))
        named_text = read(named)
        found = (named, named_text) if named_text is not None else None
    else:
        found = _find_up(read, cwd, JUSTFILE_NAMES)
    if found is None:
        return [], [(f"no justfile from {cwd or '.'} up; `just {' '.join(args)}` not followed", True)]
    rel, text = found
    recipes, variables, first = _parse_justfile(text)
    home = posixpath.dirname(rel)
    out: list[Recipe] = []
    problems: Problems = []
    if not args:
        if first is None:
            return [], [(f"{rel}: no recipe", True)]
        args = [first]
    # `just a b c`: each word names a recipe unless it is an argument of the one before.
    while args:
        name = args.pop(0)
        recipe = recipes.get(name)
        if recipe is None:
            problems.append((f"{rel}: no recipe {name!r}", True))
            continue
        takes = len(recipe.params) if not any(v for _, _, v in recipe.params) else len(args)
        given, args = args[:takes], args[takes:]
        _run_just(rel, home, recipes, variables, name, given, out, problems, set())
    return out, problems


def _parse_justfile(text: str) -> tuple[dict[str, _JustRecipe], dict[str, str | None], str | None]:
    recipes: dict[str, _JustRecipe] = {}
    variables: dict[str, str | None] = {}
    first: str | None = None
    current: _JustRecipe | None = None
    for no, raw in enumerate(text.split("\n"), start=1):
        if raw[:1] in (" ", "\t"):
            if current is not None and raw.strip():
                current.body.append((no, raw.strip()))
            continue
        current = None
        line = raw.split(" #", 1)[0].rstrip()
        if not line or line.startswith(("[", "set ", "alias ", "import ", "mod ", "#")):
            continue
        m = _JUST_ASSIGN.match(line)
        if m:
            s = _JUST_STRING.match(m.group(2).strip())
            variables[m.group(1)] = (s.group(1) if s.group(1) is not None else s.group(2)) if s else None
            continue
        m = _JUST_HEADER.match(line)
        if m:
            name = m.group(1)
            current = recipes[name] = _JustRecipe(no, _params(m.group(2)), _deps(m.group(3)))
            if first is None and not name.startswith("_"):
                first = name
    return recipes, variables, first


def _params(text: str) -> list[tuple[str, str | None, bool]]:
    out: list[tuple[str, str | None, bool]] = []
    for word in _split(text):
        variadic = word[:1] in ("*", "+")
        name, eq, default = word.lstrip("*+$").partition("=")
        if eq:
            s = _JUST_STRING.match(default)
            default = (s.group(1) if s.group(1) is not None else s.group(2)) if s else default
        # `*rest` may be empty; `+rest` and a plain parameter without default must be given.
        out.append((name, default if eq else ("" if word.startswith("*") else None), variadic))
    return out


def _deps(text: str) -> list[list[str]]:
    out: list[list[str]] = []
    for m in re.finditer(r"\(([^)]*)\)|([A-Za-z_][\w-]*)", text.split("&&", 1)[0]):
        words = _split(m.group(1)) if m.group(1) is not None else [m.group(2)]
        out.append([w.strip("'\"") for w in words])
    return out


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _run_just(rel: str, home: str, recipes: Mapping[str, _JustRecipe], variables: Mapping[str, str | None],
              name: str, args: list[str], out: list[Recipe], problems: Problems, seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    recipe = recipes[name]
    for dep in recipe.deps:
        if dep and dep[0] in recipes:
            _run_just(rel, home, recipes, variables, dep[0], dep[1:], out, problems, seen)
    values: dict[str, str | None] = dict(variables)
    for i, (param, default, variadic) in enumerate(recipe.params):
        if variadic:
            values[param] = " ".join(args[i:]) if len(args) > i else (default or "")
        else:
            values[param] = args[i] if i < len(args) else default
    unknowns: list[tuple[str, str]] = []

    def interp(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        s = _JUST_STRING.match(expr)
        if s:
            return s.group(1) if s.group(1) is not None else s.group(2)
        value = values.get(expr)
        if value is not None:
            return value
        var = f"LG_JUST_{len(unknowns)}"
        unknowns.append((var, "{{" + expr + "}}"))
        return "${" + var + "}"

    body = [(no, _INTERP.sub(interp, text)) for no, text in recipe.body]
    if body and body[0][1].startswith("#!"):
        first = body[0][0]
        out.append(Recipe(rel, first + 1, "\n".join(t for _, t in body[1:]), home, name, tuple(unknowns)))
        return
    for no, text in body:
        text = text.lstrip("@-")
        if text.startswith("#"):
            continue
        out.append(Recipe(rel, no, text, home, name, tuple(unknowns)))


# --- cargo make -----------------------------------------------------------------

def _cargo_make(read: ReadText, args: list[str], cwd: str) -> tuple[list[Recipe], Problems]:
    file = "Makefile.toml"
    task = None
    while args:
        word = args.pop(0)
        if word == "--":
            break
        if word in ("--makefile",) and args:
            file = args.pop(0)
        elif word in ("-p", "--profile", "-e", "--env", "--cwd", "-t", "--task", "-l", "--loglevel") and args:
            value = args.pop(0)
            task = value if word in ("-t", "--task") else task
        elif not word.startswith("-") and task is None:
            task = word
            break
    rel = posixpath.normpath(posixpath.join(cwd, file))
    text = read(rel)
    if text is None:
        return [], [(f"no {rel}; `cargo make {task or ''}` not followed", True)]
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        return [], [(f"{rel} is not valid TOML ({e}); not followed", True)]
    found = doc.get("tasks")
    tasks: dict[str, object] = found if isinstance(found, dict) else {}
    lines = text.split("\n")
    out: list[Recipe] = []
    problems: Problems = []
    _run_make_task(rel, lines, tasks, task or "default", args, posixpath.dirname(rel), out, problems, set())
    return out, problems


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


def _run_make_task(rel: str, lines: list[str], tasks: Mapping[str, object], name: str, args: list[str], home: str,
                   out: list[Recipe], problems: Problems, seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    task = tasks.get(name)
    if not isinstance(task, dict):
        problems.append((f"{rel}: no task {name!r}", True))
        return
    for dep in task.get("dependencies") or []:
        dep_name = dep if isinstance(dep, str) else dep.get("name") if isinstance(dep, dict) else None
        if isinstance(dep_name, str):
            _run_make_task(rel, lines, tasks, dep_name, [], home, out, problems, seen)
    cwd = task.get("cwd")
    where = posixpath.normpath(posixpath.join(home, cwd)) if isinstance(cwd, str) else home
    command = task.get("command")
    if isinstance(command, str):
        words = [command, *[str(a) for a in task.get("args") or []]]
        text = " ".join(shlex.quote(w) if "${" not in w else w for w in words)
        text = text.replace("${@}", " ".join(shlex.quote(a) for a in args))
        out.append(Recipe(rel, _task_line(lines, name, "command"), text, where, name))
    script = task.get("script")
    if isinstance(script, list):
        script = "\n".join(str(s) for s in script)
    if isinstance(script, str):
        line = _task_line(lines, name, "script")
        # A multi-line string starts on the line after `script = '''`.
        first = line + 1 if lines[line - 1].rstrip().endswith(("'''", '"""', "[")) else line
        out.append(Recipe(rel, first, script, where, name))
    run_task = task.get("run_task")
    target = run_task if isinstance(run_task, str) else run_task.get("name") if isinstance(run_task, dict) else None
    if isinstance(target, str):
        _run_make_task(rel, lines, tasks, target, args, home, out, problems, seen)


# --- package.json scripts -------------------------------------------------------

def _package_script(read: ReadText, runner: str, args: list[str], cwd: str) -> tuple[list[Recipe], Problems]:
    directory = cwd
    rest: list[str] = []
    while args:
        word = args.pop(0)
        if word in ("--prefix", "--cwd", "-C", "--dir") and args:
            directory = posixpath.normpath(posixpath.join(cwd, args.pop(0)))
        elif word.startswith(("--prefix=", "--cwd=", "--dir=")):
            directory = posixpath.normpath(posixpath.join(cwd, word.split("=", 1)[1]))
        elif word in ("--silent", "-s", "--if-present", "--workspaces", "-w") or (word.startswith("-") and not rest):
            continue
        else:
            rest.append(word)
    if not rest:
        return [], []
    verb = rest[0]
    if verb in ("run", "run-script", "rum", "urn"):
        rest = rest[1:]
    elif runner == "npm" and verb not in _NPM_SCRIPT_VERBS:
        return [], []  # npm install, npm ci, npm exec ...: no package script
    elif runner != "npm" and verb in _YARN_PNPM_COMMANDS:
        return [], []
    if not rest:
        return [], []
    script = {"t": "test", "tst": "test"}.get(rest[0], rest[0])
    extra = [a for a in rest[1:] if a != "--"]
    rel = posixpath.normpath(posixpath.join(directory, "package.json")) if directory else "package.json"
    text = read(rel)
    if text is None:
        return [], [(f"no {rel}; `{runner} {' '.join(args) or script}` not followed", True)]
    try:
        scripts = json.loads(text).get("scripts") or {}
    except (ValueError, AttributeError):
        return [], [(f"{rel} is not valid JSON; not followed", True)]
    if not isinstance(scripts, dict) or script not in scripts:
        return [], [(f"{rel}: no script {script!r}", True)]
    home = posixpath.dirname(rel)
    out: list[Recipe] = []
    names = [f"pre{script}", script, f"post{script}"] if runner == "npm" else [script]
    for name in names:
        body = scripts.get(name)
        if isinstance(body, str):
            text_line = _json_key_line(text, name)
            line = body + (" " + " ".join(shlex.quote(a) for a in extra) if name == script and extra else "")
            out.append(Recipe(rel, text_line, line, home, name))
    return out, []


_NPM_SCRIPT_VERBS = {"test", "t", "tst", "start", "stop", "restart"}
# yarn's and pnpm's own commands; any other first word names a package script.
_YARN_PNPM_COMMANDS = {
    "install", "i", "add", "remove", "rm", "up", "upgrade", "update", "ci", "exec", "dlx", "why", "link", "unlink",
    "init", "create", "global", "cache", "config", "info", "pack", "publish", "version", "workspace", "workspaces",
    "set", "plugin", "dedupe", "node", "bin", "import", "audit", "outdated", "store", "prune", "fetch", "list", "ls",
}


def _json_key_line(text: str, key: str) -> int:
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r'^\s*"scripts"\s*:', line)), 0)
    pat = re.compile(rf'^\s*"{re.escape(key)}"\s*:')
    return next((i + 1 for i in range(start, len(lines)) if pat.match(lines[i])), start + 1)

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
from collections.abc import Mapping
from dataclasses import dataclass, field

from linkgate.workflows import jsworkspaces, justexpr
from linkgate.workflows.cargomake import Problems, ReadText, cargo_make
from linkgate.workflows.shell.state import WORKSPACE, Recipe
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


def task_recipes(read: ReadText, argv: tuple[str, ...], cwd: str,
                 env: Mapping[str, str] | None = None,
                 dirs: jsworkspaces.ListDirs | None = None) -> tuple[list[Recipe], Problems]:
    """The recipe lines *argv* runs from *cwd* under the job's *env*, and problems
    (message, may hide cargo)."""
    name = argv[0].rsplit("/", 1)[-1]
    env = env or {}
    if name == "just":
        return _just(read, list(argv[1:]), cwd, env)
    if name in ("cargo", "makers", "cargo-make"):
        rest = [a for a in argv[1:] if not a.startswith("+")]
        return cargo_make(read, rest[1:] if rest and rest[0] == "make" else rest, cwd, env)
    if dirs is not None:
        chosen = jsworkspaces.select(read, dirs, name, list(argv[1:]), cwd)
        if chosen is not None:
            return _workspace_scripts(read, chosen)
    return _package_script(read, name, list(argv[1:]), cwd)


def _workspace_scripts(read: ReadText, chosen: jsworkspaces.Selection) -> tuple[list[Recipe], Problems]:
    """SCRIPT of each selected workspace package, in its directory, the extra words appended."""
    out: list[Recipe] = []
    for pkg in chosen.packages:
        text = read(pkg.rel) or ""
        body = pkg.scripts[chosen.script]
        line = body + (" " + " ".join(shlex.quote(a) for a in chosen.extra) if chosen.extra else "")
        out.append(Recipe(pkg.rel, _json_key_line(text, chosen.script), line, pkg.dir, chosen.script))
    return out, list(chosen.problems)


# --- just ---------------------------------------------------------------------

_JUST_HEADER = re.compile(r"^@?([A-Za-z_][\w-]*)((?:\s+[^:]*?)?)\s*:(?!=)\s*(.*)$")
_JUST_ASSIGN = re.compile(r"^(export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$")
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


def _just(read: ReadText, args: list[str], cwd: str, env: Mapping[str, str]) -> tuple[list[Recipe], Problems]:
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
    recipes, assigned, exported, first = _parse_justfile(text)
    home = posixpath.dirname(rel)
    # Where the runner has the justfile's directory: justfile_directory() is absolute.
    place = posixpath.join(WORKSPACE, home) if home else WORKSPACE
    variables: dict[str, str | None] = {}
    for var, expr in assigned.items():
        variables[var] = justexpr.evaluate(expr, variables.get, env, place)
    exports = tuple(sorted((k, v) for k, v in variables.items() if k in exported and v is not None))
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
        _run_just(_Just(rel, home, place, recipes, variables, env, exports), name, given, out, problems, set())
    return out, problems


def _parse_justfile(text: str) -> tuple[dict[str, _JustRecipe], dict[str, str], set[str], str | None]:
    """Recipes, `:=` assignments (their expressions, in order), the exported names, the first recipe."""
    recipes: dict[str, _JustRecipe] = {}
    variables: dict[str, str] = {}
    exported: set[str] = set()
    export_all = False
    first: str | None = None
    current: _JustRecipe | None = None
    for no, raw in enumerate(text.split("\n"), start=1):
        if raw[:1] in (" ", "\t"):
            if current is not None and raw.strip():
                current.body.append((no, raw.strip()))
            continue
        current = None
        line = raw.split(" #", 1)[0].rstrip()
        if re.match(r"^set\s+export(\s*:=\s*true)?\s*$", line):
            export_all = True
        if not line or line.startswith(("[", "set ", "alias ", "import ", "mod ", "#")):
            continue
        m = _JUST_ASSIGN.match(line)
        if m:
            variables[m.group(2)] = m.group(3).strip()
            if m.group(1) or export_all:
                exported.add(m.group(2))
            continue
        m = _JUST_HEADER.match(line)
        if m:
            name = m.group(1)
            current = recipes[name] = _JustRecipe(no, _params(m.group(2)), _deps(m.group(3)))
            if first is None and not name.startswith("_"):
                first = name
    return recipes, variables, set(variables) if export_all else exported, first


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


@dataclass(frozen=True)
class _Just:
    """One justfile as a run of `just` sees it: its variables evaluated against the job's env."""

    rel: str
    home: str
    place: str  # the directory as the runner has it (justfile_directory())
    recipes: Mapping[str, _JustRecipe]
    variables: Mapping[str, str | None]
    env: Mapping[str, str]
    exports: tuple[tuple[str, str], ...]


def _run_just(jf: _Just, name: str, args: list[str], out: list[Recipe], problems: Problems, seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    recipe = jf.recipes[name]
    for dep in recipe.deps:
        if dep and dep[0] in jf.recipes:
            _run_just(jf, dep[0], dep[1:], out, problems, seen)
    values: dict[str, str | None] = dict(jf.variables)
    for i, (param, default, variadic) in enumerate(recipe.params):
        if variadic:
            values[param] = " ".join(args[i:]) if len(args) > i else (default or "")
        else:
            values[param] = args[i] if i < len(args) else default
    unknowns: list[tuple[str, str]] = []

    def interp(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        value = justexpr.evaluate(expr, values.get, jf.env, jf.place)
        if value is not None:
            return value
        var = f"LG_JUST_{len(unknowns)}"
        unknowns.append((var, "{{" + expr + "}}"))
        return "${" + var + "}"

    body = [(no, _INTERP.sub(interp, text)) for no, text in recipe.body]
    if body and body[0][1].startswith("#!"):
        first = body[0][0]
        out.append(Recipe(jf.rel, first + 1, "\n".join(t for _, t in body[1:]), jf.home, name, tuple(unknowns),
                          jf.exports))
        return
    for no, text in body:
        text = text.lstrip("@-")
        if text.startswith("#"):
            continue
        out.append(Recipe(jf.rel, no, text, jf.home, name, tuple(unknowns), jf.exports))


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

"""Follow one level of indirection: the repository's own Makefile targets and
shell scripts called by path, to the lines where cargo really runs.

Make is read, never run. Understood: ``-C DIR``, ``-f FILE``, the default
goal, variables (``=``, ``:=``, ``::=``, ``?=``, ``+=``, ``export``,
``override``; make also imports the environment), ``$$``, ``$@``/``$<``/``$^``,
``$(MAKE)``, prerequisites and recursive ``$(MAKE) target`` into the same
Makefile, the ``@``/``-``/``+`` recipe prefixes, and backslash continuations.
Each recipe line runs in its own shell, as make does without ``.ONESHELL``.
Not understood: pattern rules, ``$(shell ...)`` and other functions (kept
verbatim and marked unknown), ``include``d files, conditionals (every branch
is read). Scripts are read from the path given; a script a script calls is
not followed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from linkgate.workflows.shell import ShellCommand, split_commands

_ASSIGN = re.compile(r"^(?:export\s+|override\s+)*([A-Za-z_][\w.-]*)\s*(::?=|:::=|\?=|\+=|=)\s*(.*)$")
_RULE = re.compile(r"^([^\t#=:][^=:]*?)\s*::?\s*([^=]*)$")
_MAKE_REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
_SCRIPT_SUFFIXES = (".sh", ".bash")
MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")


@dataclass(frozen=True)
class Reached:
    """A command found behind an indirection, at its real file and line."""

    command: ShellCommand
    file: str
    hop: str


@dataclass
class Followed:
    reached: list[Reached] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class _Rule:
    prereqs: list[str] = field(default_factory=list)
    recipe: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Makefile:
    rel: str
    variables: dict[str, str]
    rules: dict[str, _Rule]
    default: str | None


def is_make(argv: tuple[str, ...]) -> bool:
    return bool(argv) and argv[0].rsplit("/", 1)[-1] in ("make", "gmake")


def script_path(argv: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """The script a command runs by path, with its arguments, if it runs one."""
    head = argv[0]
    if head in ("bash", "sh", "zsh") and len(argv) > 1 and not argv[1].startswith("-"):
        return argv[1], argv[2:]
    if "/" in head and not head.startswith("/") and (head.endswith(_SCRIPT_SUFFIXES) or head.startswith("./")):
        return head, argv[1:]
    return None


def follow_script(repo: Path, cwd: str, argv: tuple[str, ...], env: Mapping[str, str]) -> Followed:
    found = script_path(argv)
    result = Followed()
    if found is None:
        return result
    rel = posixpath.normpath(posixpath.join(cwd, found[0]))
    path = repo / rel
    if rel.startswith("..") or not path.is_file():
        result.problems.append(f"script {rel} is not in the repository; not followed")
        return result
    text = _read(path)
    for command in split_commands(text, 1, env):
        result.reached.append(Reached(command, rel, f"{rel}:{command.line}"))
    return result


def follow_make(repo: Path, cwd: str, argv: tuple[str, ...], env: Mapping[str, str]) -> Followed:
    result = Followed()
    directory, file, goals, overrides = cwd, None, [], {}
    args = list(argv[1:])
    while args:
        word = args.pop(0)
        if word in ("-C", "--directory") and args:
            directory = posixpath.normpath(posixpath.join(directory, args.pop(0)))
        elif word.startswith("-C") and len(word) > 2:
            directory = posixpath.normpath(posixpath.join(directory, word[2:]))
        elif word in ("-f", "--file", "--makefile") and args:
            file = args.pop(0)
        elif "=" in word and not word.startswith("-"):
            name, _, value = word.partition("=")
            overrides[name] = value
        elif not word.startswith("-"):
            goals.append(word)
    makefile = load_makefile(repo, directory, file)
    if makefile is None:
        result.problems.append(f"no Makefile in {directory or '.'}; `{' '.join(argv)}` not followed")
        return result
    makefile.variables.update(overrides)
    if not goals and makefile.default:
        goals = [makefile.default]
    seen: set[str] = set()
    for goal in goals:
        _walk(makefile, goal, directory, env, seen, result)
    return result


def _walk(mk: Makefile, goal: str, cwd: str, env: Mapping[str, str], seen: set[str], out: Followed) -> None:
    if goal in seen:
        return
    seen.add(goal)
    rule = mk.rules.get(goal)
    if rule is None:
        out.problems.append(f"{mk.rel}: no target {goal!r}")
        return
    for prereq in rule.prereqs:
        if prereq in mk.rules:
            _walk(mk, prereq, cwd, env, seen, out)
    for line, text in rule.recipe:
        body = _expand(text, mk.variables, env, goal, rule.prereqs)
        for command in split_commands(body, line, env):
            if is_make(command.argv) and not any(a.startswith(("-C", "-f", "--directory", "--file")) for a in command.argv):
                for sub in command.argv[1:]:
                    if not sub.startswith("-") and "=" not in sub:
                        _walk(mk, sub, cwd, env, seen, out)
                continue
            out.reached.append(Reached(_rebase(command, cwd), mk.rel, f"{mk.rel}:{command.line} ({goal})"))


def _rebase(command: ShellCommand, cwd: str) -> ShellCommand:
    """Recipe commands run in the Makefile's directory."""
    import dataclasses

    joined = posixpath.normpath(posixpath.join(cwd, command.cwd)) if command.cwd else cwd
    return dataclasses.replace(command, cwd=joined)


def load_makefile(repo: Path, directory: str, file: str | None) -> Makefile | None:
    names = (file,) if file else MAKEFILE_NAMES
    for name in names:
        rel = posixpath.normpath(posixpath.join(directory, name))
        path = repo / rel
        if path.is_file():
            return parse_makefile(_read(path), rel)
    return None


def parse_makefile(text: str, rel: str) -> Makefile:
    variables: dict[str, str] = {"MAKE": "make"}
    rules: dict[str, _Rule] = {}
    default: str | None = None
    current: list[_Rule] = []
    lines = text.split("\n")
    i = 0
    in_define = False
    while i < len(lines):
        start = i
        raw = lines[i]
        i += 1
        while raw.endswith("\\") and i < len(lines):
            raw = raw + "\n" + lines[i]
            i += 1
        if in_define:
            in_define = raw.strip() != "endef"
            continue
        if raw.startswith("\t"):
            for rule in current:
                rule.recipe.append((start + 1, raw[1:]))
            continue
        stripped = raw.split("#", 1)[0].strip()
        if not stripped:
            continue
        if stripped.startswith("define "):
            in_define = True
            continue
        m = _ASSIGN.match(stripped)
        if m:
            name, op, value = m.groups()
            value = value.replace("\\\n", " ")
            if op == "?=":
                variables.setdefault(name, value)
            elif op == "+=":
                variables[name] = (variables.get(name, "") + " " + value).strip()
            else:
                variables[name] = value
            current = []
            continue
        m = _RULE.match(stripped)
        if m and not stripped.startswith(("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include")):
            targets = m.group(1).split()
            prereqs, _, inline = m.group(2).partition(";")
            current = [rules.setdefault(t, _Rule()) for t in targets]
            for rule in current:
                rule.prereqs.extend(p for p in prereqs.split() if "%" not in p)
                if inline.strip():
                    rule.recipe.append((start + 1, inline.strip()))
            if default is None:
                default = next((t for t in targets if not t.startswith(".") and "%" not in t), None)
            continue
        current = []
    return Makefile(rel=rel, variables=variables, rules=rules, default=default)


def _expand(text: str, variables: Mapping[str, str], env: Mapping[str, str], goal: str, prereqs: list[str]) -> str:
    text = text.lstrip("@-+ \t")
    text = text.replace("\n\t", "\n")
    text = text.replace("$$", "\0")
    text = text.replace("$@", goal).replace("$<", prereqs[0] if prereqs else "").replace("$^", " ".join(prereqs))

    def var(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in variables:
            return variables[name]
        return env.get(name, m.group(0))

    for _ in range(8):  # recursive variables, bounded against self-reference
        expanded = _MAKE_REF.sub(var, text)
        if expanded == text:
            break
        text = expanded
    return text.replace("\0", "$")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""

"""The repository around a script: the files it runs, and its Makefiles.

``RepoHost`` is what the shell evaluator (``linkgate.workflows.shell``) asks
when a command runs a script by path or runs ``make``. Make is read, never
run. Understood: ``-C DIR``, ``-f FILE``, the default goal, variables (``=``,
``:=``, ``::=``, ``?=``, ``+=``, ``export``, ``override``; make also imports
the environment), ``$$``, ``$@``/``$<``/``$^``, ``$(MAKE)``, prerequisites,
the ``@``/``-``/``+`` recipe prefixes, and backslash continuations. Each
recipe line runs in its own shell, as make does without ``.ONESHELL``; a goal
runs once per top-level ``make`` however often a recipe asks for it again.
Not understood: pattern rules, ``$(shell ...)`` and other functions (kept
verbatim and so unknown to the shell), ``include``d files, conditionals
(every branch is read).
"""

from __future__ import annotations

import glob
import itertools
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from linkgate import repofs
from linkgate.errors import RefusedFile
from linkgate.workflows import docker, makecond, taskfiles, tasks
from linkgate.workflows.coverage import Mention
from linkgate.workflows.shell.state import WORKSPACE, Recipe

_ASSIGN = re.compile(r"^(?:export\s+|override\s+)*([A-Za-z_][\w.-]*)\s*(::?=|:::=|\?=|\+=|=)\s*(.*)$")
_RULE = re.compile(r"^([^\t#=:][^=:]*?)\s*::?\s*([^=]*)$")
_MAKE_REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")
# Workspace directories one glob may name (a node_modules-free monorepo has far fewer).
_MAX_WORKSPACES = 1000
# As the shell evaluator's cap on one value (shell.words.MAX_VALUE).
MAX_EXPANSION = 1 << 16
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


class RepoHost:
    """Reads scripts and Makefiles from *repo*, each file once, through the one
    guard (``linkgate.repofs``): a file that resolves outside the repository, is
    not regular or is too large reads as absent, and ``take_refused`` names it."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._texts: dict[str, str | None] = {}
        self._refused: dict[str, str] = {}
        self._pending: list[tuple[str, str]] = []
        self._makefiles: dict[tuple[str, str | None, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]],
                              Makefile | None] = {}
        # Every file read since the caller last cleared it: the read coverage of one step.
        self.touched: list[str] = []
        # Images the workflow being read builds from the repository (workflows.docker).
        self.images: dict[str, docker.Image] = {}
        # The textual scan of each unread file (workflows.coverage.mentions), made once.
        self.scanned: dict[str, tuple[Mention, ...]] = {}
        # The source directory of each CMake build directory a `cmake -S SRC -B BUILD` configured.
        self.cmake_sources: dict[str, str] = {}
        # Directories the job being read checks out from another repository (`actions/checkout`
        # with `repository:` and `path:`), each with that OWNER/REPO.
        self.foreign_checkouts: dict[str, str] = {}

    def read_script(self, rel: str) -> str | None:
        text = self._read(rel)
        if text is not None:
            self.touched.append(rel)
        return text

    def peek(self, rel: str) -> str | None:
        """*rel*'s text for a textual scan: not counted as read (followed) for coverage."""
        return self._read(rel)

    def _read(self, rel: str) -> str | None:
        if rel not in self._texts:
            try:
                self._texts[rel] = repofs.read_text(rel, inside=self.repo, shown=rel, errors="replace")
            except RefusedFile as exc:
                self._texts[rel] = None
                if exc.why != "directory":  # a directory named as a script is only absent
                    self._refused[rel] = exc.reason
            except OSError:
                self._texts[rel] = None
        if rel in self._refused:
            self._pending.append((rel, self._refused[rel]))
        return self._texts[rel]

    def take_refused(self) -> list[tuple[str, str]]:
        """(path, reason) of each file refused since the last call, once each."""
        found, self._pending = list(dict.fromkeys(self._pending)), []
        return found

    def _makefile(self, directory: str, file: str | None, given: Mapping[str, str] | None = None,
                  env: Mapping[str, str] | None = None) -> Makefile | None:
        # Conditionals are decided with the command line's variables and the environment,
        # so each distinct pair is its own parse (a Makefile without conditionals parses the same).
        key = (directory, file, tuple(sorted((given or {}).items())), tuple(sorted((env or {}).items())))
        if key not in self._makefiles:
            self._makefiles[key] = load_makefile(self._read, directory, file, given, env)
        found = self._makefiles[key]
        if found is not None:
            self.touched.append(found.rel)
        # Command-line overrides change variables: each make gets its own copy.
        return None if found is None else Makefile(found.rel, dict(found.variables), found.rules, found.default)

    def container_command(self, image: str, args: list[str]) -> list[str] | None:
        """What `docker run IMAGE ARGS` runs when the workflow built IMAGE from a Dockerfile here."""
        built = self.images.get(image)
        return docker.run_command(self.read_script, built, args) if built is not None else None

    def task_recipes(self, argv: tuple[str, ...], cwd: str,
                     env: Mapping[str, str]) -> tuple[list[Recipe], list[tuple[str, bool]]] | None:
        if argv and posixpath.basename(argv[0]) in taskfiles.PROGRAMS:
            return taskfiles.recipes(self.read_script, argv, cwd)
        if not tasks.is_task_runner(argv):
            return None
        return tasks.task_recipes(self.read_script, argv, cwd, env, self.workspace_dirs)

    def checked_out_from(self, rel: str) -> str | None:
        for directory, repo in self.foreign_checkouts.items():
            if rel == directory or rel.startswith(directory + "/"):
                return repo
        return None

    def workspace_dirs(self, pattern: str) -> list[str]:
        """The directories *pattern* (a glob relative to the repository) matches, inside the repository only."""
        if pattern.startswith(("/", "..")) or "\0" in pattern:
            return []
        top = self.repo.resolve()
        out: list[str] = []
        try:
            # Bounded: a `**` over a wide tree stops at the cap instead of walking all of it.
            found = sorted(itertools.islice(self.repo.glob(pattern), _MAX_WORKSPACES)) \
                if pattern not in ("", ".") else [self.repo]
        except (OSError, ValueError):
            return []
        for path in found[:_MAX_WORKSPACES]:
            real = path.resolve()
            if not path.is_dir() or not repofs.is_inside(real, top):
                continue
            rel = real.relative_to(top).as_posix()
            if "node_modules" not in rel.split("/"):
                out.append("" if rel == "." else rel)
        return out

    def pathnames(self, pattern: str, cwd: str) -> list[str] | None:
        """What the shell's pathname expansion of *pattern* gives in *cwd*, sorted as bash sorts
        (C locale): each match as written (relative stays relative). None when it cannot be
        known here: a pattern outside the repository, or a match that resolves outside it.
        An empty list is bash's no-match (the caller keeps the word as written, as bash does).
        As bash without ``globstar`` or ``dotglob``: ``**`` is ``*`` and a leading dot is only
        matched by a pattern that writes it (the standard library's glob, which does the same)."""
        if "\0" in pattern or "\\" in pattern:
            return None
        if pattern == WORKSPACE or pattern.startswith(WORKSPACE + "/"):
            rel_pattern, prefix = pattern[len(WORKSPACE) + 1:], WORKSPACE + "/"
            base = ""
        elif pattern.startswith("/"):
            return None
        else:
            rel_pattern, prefix, base = pattern, "", cwd
        if not rel_pattern or ".." in rel_pattern.split("/") or base.startswith("/") or ".." in base.split("/"):
            return None
        top = self.repo.resolve()
        root = (self.repo / base) if base else self.repo
        try:
            found = sorted(itertools.islice(glob.iglob(rel_pattern, root_dir=root, recursive=False),
                                            _MAX_WORKSPACES + 1))
        except (OSError, ValueError):
            return None
        if len(found) > _MAX_WORKSPACES:
            return None
        for rel in found:
            if not repofs.is_inside((root / rel).resolve(), top):
                return None
        return [prefix + rel for rel in found]

    def make_recipes(
        self, argv: tuple[str, ...], cwd: str, env: Mapping[str, str], seen: set[tuple[str, str]]
    ) -> tuple[list[Recipe], list[tuple[str, bool]]]:
        """The recipe lines ``make ARGS`` runs in *cwd*, prerequisites first,
        and problems as (message, whether cargo may hide behind them)."""
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
            elif word in ("-j", "--jobs", "-l", "-o", "-W", "-I") and args and not args[0].startswith("-"):
                args.pop(0)
            elif "=" in word and not word.startswith("-"):
                name, _, value = word.partition("=")
                overrides[name] = value
            elif not word.startswith("-"):
                goals.append(word)
        directory = "" if directory == "." else directory
        makefile = self._makefile(directory, file, overrides, env)
        if makefile is None:
            # A Makefile the repository does not hold is written in CI by
            # ./configure, cmake or the like: a C or C++ build, not cargo.
            return [], [(f"no Makefile in {directory or '.'}; `{' '.join(argv)}` not followed", False)]
        makefile.variables.update(overrides)
        if not goals and makefile.default:
            goals = [makefile.default]
        out: list[Recipe] = []
        problems: list[tuple[str, bool]] = []
        for goal in goals:
            _walk(makefile, goal, directory, env, seen, out, problems)
        return out, problems


def _walk(mk: Makefile, goal: str, cwd: str, env: Mapping[str, str], seen: set[tuple[str, str]], out: list[Recipe],
          problems: list[tuple[str, bool]]) -> None:
    if (mk.rel, goal) in seen:
        return
    seen.add((mk.rel, goal))
    rule = mk.rules.get(goal)
    if rule is None:
        problems.append((f"{mk.rel}: no target {goal!r}", True))
        return
    for prereq in rule.prereqs:
        if prereq in mk.rules:
            _walk(mk, prereq, cwd, env, seen, out, problems)
    for line, text in rule.recipe:
        out.append(Recipe(mk.rel, line, _expand(text, mk.variables, env, goal, rule.prereqs, problems), cwd, goal))


def load_makefile(read: Callable[[str], str | None], directory: str, file: str | None,
                  given: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None) -> Makefile | None:
    names = (file,) if file else MAKEFILE_NAMES
    for name in names:
        rel = posixpath.normpath(posixpath.join(directory, name))
        text = read(rel)
        if text is not None:
            return parse_makefile(text, rel, given, env)
        if rel.startswith(("../", "/")):
            break  # a directory outside the repository: one refusal says it, not three
    return None


def parse_makefile(text: str, rel: str, given: Mapping[str, str] | None = None,
                   env: Mapping[str, str] | None = None) -> Makefile:
    """*text* read as make reads it: conditionals decided from the variables assigned above
    them, the command line's *given* ones and the known *env* (``workflows.makecond``), every
    branch read where that cannot decide."""
    variables: dict[str, str] = {"MAKE": "make"}
    rules: dict[str, _Rule] = {}
    default: str | None = None
    current: list[_Rule] = []
    # The command line's variables win over the Makefile's assignments (`override` aside), and a
    # `:=` expands with them: `CARGO_OPTS := --target $(TARGET)` under `make TARGET=x`.
    given = dict(given or {})
    variables.update(given)
    cond = makecond.Conditionals(makecond.lookup_in(variables, given, env))
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
        if raw.startswith("\t"):  # a recipe line, even one reading `ifeq` (make's manual)
            if cond.active:
                for rule in current:
                    rule.recipe.append((start + 1, raw[1:]))
            continue
        stripped = raw.split("#", 1)[0].strip()
        if not stripped:
            continue
        if cond.line(stripped) or not cond.active:
            continue
        if stripped.startswith("define "):
            in_define = True
            continue
        m = _ASSIGN.match(stripped)
        if m and m.group(1) in given and not stripped.startswith("override"):
            current = []
            continue
        if m:
            name, op, value = m.groups()
            value = value.replace("\\\n", " ")
            if op == "?=":
                variables.setdefault(name, value)
            elif op == "+=":
                variables[name] = (variables.get(name, "") + " " + value).strip()
            elif op in (":=", "::=", ":::="):
                # Simple: expanded once, here; so `X := $(X) -O2` appends, never refers to itself.
                # An undefined name expands to nothing, as in make.
                variables[name] = _Expansion({**variables, name: variables.get(name, "")}, {}).expand(value, ())
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


def _expand(text: str, variables: Mapping[str, str], env: Mapping[str, str], goal: str, prereqs: list[str],
            problems: list[tuple[str, bool]] | None = None) -> str:
    text = text.lstrip("@-+ \t")
    text = text.replace("\n\t", "\n")
    text = text.replace("$$", "\0")
    text = text.replace("$@", goal).replace("$<", prereqs[0] if prereqs else "").replace("$^", " ".join(prereqs))
    expansion = _Expansion(variables, env)
    out = expansion.expand(text, ())
    if problems is not None and expansion.problem is not None:
        problems.append((expansion.problem, True))
    return out.replace("\0", "$")


class _Expansion:
    """Make's recursive expansion of one line, bounded: a variable that refers to
    itself (make stops there too: "Recursive variable references itself") or an
    expansion past ``MAX_EXPANSION`` characters keeps its ``$(NAME)`` as written,
    which the shell reads as unknown, and leaves a note. Each variable is
    expanded once (memo), so `B = $(A)$(A)`, `C = $(B)$(B)`, ... is not
    exponential work."""

    def __init__(self, variables: Mapping[str, str], env: Mapping[str, str]) -> None:
        self.variables, self.env = variables, env
        self.memo: dict[str, str] = {}
        self.problem: str | None = None

    def expand(self, text: str, stack: tuple[str, ...]) -> str:
        size = 0

        def var(m: re.Match[str]) -> str:
            nonlocal size
            name = m.group(1)
            if name in stack:
                self.problem = self.problem or f"make variable {name} refers to itself; $({name}) is unknown"
                return m.group(0)
            if name in self.variables:
                if name not in self.memo:
                    self.memo[name] = self.expand(self.variables[name], stack + (name,))
                found = self.memo[name]
            else:
                found = self.env.get(name, m.group(0))
            size += len(found)
            if size > MAX_EXPANSION:
                self.problem = self.problem or (f"make variable {name} expands past {MAX_EXPANSION} characters; "
                                                f"$({name}) is unknown")
                return m.group(0)
            return found

        return _MAKE_REF.sub(var, text)


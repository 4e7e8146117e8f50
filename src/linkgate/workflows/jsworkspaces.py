"""The workspace forms of yarn, npm and pnpm: one package script run in several packages.

Read from each tool's documentation (yarn berry's ``workspaces foreach`` and
``workspace``, npm's ``--workspaces``/``--workspace``, pnpm's ``-r``/``--filter``):

- ``yarn workspaces foreach [-A|-R|-W|--since] [-p] [-i] [-t] [-j N] [--include G]
  [--exclude G] [--no-private] [--from G] run SCRIPT ARGS`` (``run`` may be left out):
  SCRIPT in every workspace that has it; ``--include``/``--exclude`` match the
  package name (a glob), ``--no-private`` leaves out ``"private": true`` packages.
  The workspace the command runs from is left out when its own SCRIPT is this
  very ``foreach`` (yarn does not run a script into itself).
- ``yarn workspace NAME [run] SCRIPT ARGS``: SCRIPT of the workspace named NAME.
- ``npm run SCRIPT --workspaces|-ws [--if-present]`` and ``--workspace|-w NAME|DIR``.
- ``pnpm -r|--recursive [--filter G] [run] SCRIPT ARGS``: every workspace package
  but the root (pnpm's default), ``--filter`` by name glob or ``./DIR``;
  ``--include-workspace-root`` adds the root.

Workspaces are the root ``package.json``'s ``workspaces`` (a list, or ``{packages:
[...]}``) or ``pnpm-workspace.yaml``'s ``packages``, globs expanded inside the
repository only (``!`` patterns exclude), in sorted order.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

ReadText = Callable[[str], "str | None"]
# A glob relative to the repository -> the directories it matches, inside the repository.
ListDirs = Callable[[str], list[str]]

_YARN_FOREACH_VALUE = {"-j", "--jobs", "--include", "--exclude", "--from", "--since"}
_YARN_FOREACH_SELECT = {"-A", "--all", "-R", "--recursive", "-W", "--worktree"}
_PNPM_VALUE = {"--filter", "-F", "--workspace-concurrency", "-C", "--dir", "--reporter", "--filter-prod",
               "--test-pattern", "--changed-files-ignore-pattern"}


@dataclass(frozen=True, eq=False)
class Package:
    dir: str  # relative to the repository, "" for the root
    rel: str  # its package.json
    name: str
    private: bool
    scripts: dict[str, str]


@dataclass(frozen=True)
class Selection:
    """Packages to run SCRIPT in, the words after SCRIPT, and problems (message, may hide cargo)."""

    packages: list[Package]
    script: str
    extra: list[str]
    problems: list[tuple[str, bool]]


def _package(read: ReadText, directory: str) -> Package | None:
    rel = posixpath.join(directory, "package.json") if directory else "package.json"
    text = read(rel)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    scripts = doc.get("scripts")
    return Package(directory, rel, str(doc.get("name") or ""), doc.get("private") is True,
                   {k: v for k, v in scripts.items() if isinstance(v, str)} if isinstance(scripts, dict) else {})


def _root(read: ReadText, cwd: str, pnpm: bool) -> tuple[str, list[str]] | None:
    """The workspace root from *cwd* up, and its workspace globs."""
    directory = cwd
    while True:
        globs = _pnpm_globs(read, directory) if pnpm else None
        if globs is None:
            globs = _npm_globs(read, directory)
        if globs is not None:
            return directory, globs
        if not directory:
            return None
        directory = posixpath.dirname(directory)


def _npm_globs(read: ReadText, directory: str) -> list[str] | None:
    text = read(posixpath.join(directory, "package.json") if directory else "package.json")
    try:
        doc = json.loads(text) if text is not None else None
    except ValueError:
        return None
    found = doc.get("workspaces") if isinstance(doc, dict) else None
    if isinstance(found, dict):
        found = found.get("packages")
    return [g for g in found if isinstance(g, str)] if isinstance(found, list) else None


def _pnpm_globs(read: ReadText, directory: str) -> list[str] | None:
    text = read(posixpath.join(directory, "pnpm-workspace.yaml") if directory else "pnpm-workspace.yaml")
    if text is None:
        return None
    from ruamel.yaml import YAML  # the project's YAML reader; only pnpm workspaces need it here
    from ruamel.yaml.error import YAMLError

    try:
        doc = YAML(typ="safe", pure=True).load(text)
    except (YAMLError, ValueError):
        return None
    found = doc.get("packages") if isinstance(doc, dict) else None
    return [g for g in found if isinstance(g, str)] if isinstance(found, list) else None


def members(read: ReadText, dirs: ListDirs, root: str, globs: list[str]) -> list[Package]:
    keep: dict[str, None] = {}
    for glob in globs:
        negate = glob.startswith("!")
        pattern = posixpath.normpath(posixpath.join(root, glob.lstrip("!").rstrip("/")))
        if pattern.startswith(("..", "/")):
            continue  # outside the repository: never read
        found = dirs(pattern)
        for d in found:
            if negate:
                keep.pop(d, None)
            else:
                keep[d] = None
    out = []
    for d in sorted(keep):
        pkg = _package(read, d)
        if pkg is not None:
            out.append(pkg)
    return out


def select(read: ReadText, dirs: ListDirs, runner: str, args: list[str], cwd: str) -> Selection | None:
    """The workspace form of *args* (after the runner's name), or None when it is no workspace form."""
    if runner == "yarn" and args[:2] == ["workspaces", "foreach"]:
        return _yarn_foreach(read, dirs, args[2:], cwd)
    if runner == "yarn" and args[:1] == ["workspace"] and len(args) >= 3:
        return _named(read, dirs, [args[1]], args[2:], cwd, "yarn")
    if runner == "npm" and any(a in ("--workspaces", "-ws", "--workspace", "-w") or a.startswith("--workspace=")
                               for a in args):
        return _npm(read, dirs, args, cwd)
    if runner == "pnpm" and any(a in ("-r", "--recursive", "--filter", "-F") or a.startswith("--filter=")
                                for a in args):
        return _pnpm(read, dirs, args, cwd)
    return None


def _script_words(words: list[str]) -> tuple[str, list[str]] | None:
    if words[:1] == ["run"]:
        words = words[1:]
    if not words:
        return None
    return words[0], [w for w in words[1:] if w != "--"]


def _yarn_foreach(read: ReadText, dirs: ListDirs, args: list[str], cwd: str) -> Selection | None:
    include: list[str] = []
    exclude: list[str] = []
    no_private = False
    problems: list[tuple[str, bool]] = []
    while args and args[0].startswith("-"):
        flag, eq, value = args.pop(0).partition("=")
        if flag in _YARN_FOREACH_VALUE:
            value = value if eq else (args.pop(0) if args else "")
            if flag == "--include":
                include.append(value)
            elif flag == "--exclude":
                exclude.append(value)
            elif flag in ("--since", "--from"):
                problems.append((f"`yarn workspaces foreach {flag} {value}` selects workspaces from git history "
                                 "or dependencies; every workspace was read", False))
        elif flag == "--no-private":
            no_private = True
    words = _script_words(args)
    if words is None:
        return None
    found = _root(read, cwd, False)
    if found is None:
        return Selection([], words[0], words[1], [(f"no package.json with workspaces from {cwd or '.'} up", True)])
    root, globs = found
    root_pkg = _package(read, root)
    packages = ([root_pkg] if root_pkg else []) + members(read, dirs, root, globs)
    chosen = []
    for pkg in packages:
        if include and not any(fnmatch.fnmatchcase(pkg.name, g) for g in include):
            continue
        if any(fnmatch.fnmatchcase(pkg.name, g) for g in exclude) or (no_private and pkg.private):
            continue
        body = pkg.scripts.get(words[0])
        if body is None or (pkg.dir == root and re.search(r"\bworkspaces\s+foreach\b", body)):
            continue  # no such script there; or the root's own script, which is this foreach
        chosen.append(pkg)
    return Selection(chosen, words[0], words[1], problems)


def _named(read: ReadText, dirs: ListDirs, names: list[str], words: list[str], cwd: str, runner: str,
           if_present: bool = False) -> Selection | None:
    script = _script_words(words)
    if script is None:
        return None
    found = _root(read, cwd, runner == "pnpm")
    if found is None:
        return Selection([], script[0], script[1], [(f"no package.json with workspaces from {cwd or '.'} up", True)])
    root, globs = found
    packages = members(read, dirs, root, globs)
    chosen: list[Package] = []
    problems: list[tuple[str, bool]] = []
    for name in names:
        path = posixpath.normpath(posixpath.join(cwd, name)) if name.startswith(".") or "/" in name else None
        hit = [p for p in packages if p.name == name or (path is not None and p.dir == path)]
        if not hit:
            where = posixpath.join(root, "package.json") if root else "package.json"
            problems.append((f"no workspace {name!r} in the workspaces of {where}; `{runner} {script[0]}` there "
                             "not followed", True))
        chosen += [p for p in hit if script[0] in p.scripts or not if_present]
    missing = [p for p in chosen if script[0] not in p.scripts]
    problems += [(f"{p.rel}: no script {script[0]!r}", True) for p in missing]
    return Selection([p for p in chosen if p not in missing], script[0], script[1], problems)


def _npm(read: ReadText, dirs: ListDirs, args: list[str], cwd: str) -> Selection | None:
    names: list[str] = []
    every = if_present = False
    rest: list[str] = []
    while args:
        word = args.pop(0)
        if word in ("--workspaces", "-ws"):
            every = True
        elif word in ("--workspace", "-w") and args:
            names.append(args.pop(0))
        elif word.startswith("--workspace="):
            names.append(word.split("=", 1)[1])
        elif word == "--if-present":
            if_present = True
        elif word == "--":
            rest += ["--", *args]
            break
        elif not (word.startswith("-") and not rest):
            rest.append(word)
    if rest[:1] not in (["run"], ["run-script"], ["test"], ["t"]):
        return None
    if rest[0] in ("test", "t"):
        rest = ["run", "test", *rest[1:]]
    if names and not every:
        return _named(read, dirs, names, rest, cwd, "npm", if_present)
    script = _script_words(rest)
    if script is None:
        return None
    found = _root(read, cwd, False)
    if found is None:
        return Selection([], script[0], script[1], [(f"no package.json with workspaces from {cwd or '.'} up", True)])
    packages = members(read, dirs, *found)
    missing = [p for p in packages if script[0] not in p.scripts]
    problems = [] if if_present else [(f"{p.rel}: no script {script[0]!r}", False) for p in missing]
    return Selection([p for p in packages if p not in missing], script[0], script[1], problems)


def _pnpm(read: ReadText, dirs: ListDirs, args: list[str], cwd: str) -> Selection | None:
    filters: list[str] = []
    with_root = False
    rest: list[str] = []
    while args:
        word = args.pop(0)
        flag, eq, value = word.partition("=")
        if flag in _PNPM_VALUE and (eq or args):
            value = value if eq else args.pop(0)
            if flag in ("--filter", "-F"):
                filters.append(value)
        elif word == "--include-workspace-root":
            with_root = True
        elif word.startswith("-") and not rest:
            continue
        else:
            rest.append(word)
    script = _script_words(rest)
    if script is None or script[0] in ("install", "i", "add", "exec", "update", "publish", "list", "ls"):
        return None
    found = _root(read, cwd, True)
    if found is None:
        return Selection([], script[0], script[1], [(f"no pnpm-workspace.yaml from {cwd or '.'} up", True)])
    root, globs = found
    packages = members(read, dirs, root, globs)
    root_pkg = _package(read, root)
    if with_root and root_pkg is not None:
        packages = [root_pkg, *packages]
    problems: list[tuple[str, bool]] = []
    if filters:
        chosen = []
        for f in filters:
            if f.startswith(("...", "!")) or f.endswith("...") or "[" in f or "{" in f:
                problems.append((f"pnpm --filter {f!r} is not read; every workspace was read", True))
                chosen = packages
                break
            path = posixpath.normpath(posixpath.join(cwd, f)) if f.startswith(".") else None
            chosen += [p for p in packages if (path is not None and p.dir == path) or fnmatch.fnmatchcase(p.name, f)]
        packages = list(dict.fromkeys(chosen))
    return Selection([p for p in packages if script[0] in p.scripts], script[0], script[1], problems)

"""CMake projects a workflow configures and builds: named, never read as commands.

A CMake project runs cargo from ``ExternalProject_Add`` (``BUILD_COMMAND cargo
...``), ``add_custom_command``/``add_custom_target`` (``COMMAND ${CARGO} build``),
``execute_process`` or Corrosion's ``corrosion_import_crate``; which of them run
depends on options, targets and generator, which linkgate does not evaluate. So
``cmake -S SRC -B BUILD`` records the source of BUILD, and ``cmake --build BUILD``
(the step that runs those commands) is a gap naming the project's files, with
the lines that write a program that runs cargo: ``CMakeLists.txt`` of the
source and what it ``include``s and ``add_subdirectory``s with literal paths.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from linkgate.workflows import coverage

ReadText = Callable[[str], "str | None"]
MAX_FILES = 64  # CMake files of one project followed through include/add_subdirectory
# CMake's own ways of naming cargo: a variable (`${CARGO}`, `${Rust_CARGO}`), Corrosion's import.
_CMAKE_CARGO = re.compile(r"\$\{\w*CARGO\w*\}|corrosion_import_crate|corrosion_add_cxxbridge", re.I)
_INCLUDE = re.compile(r"^\s*(include|add_subdirectory)\s*\(\s*\"?([^\s\")$]+)\"?", re.I | re.M)
_VALUE = {"-S", "-B", "-G", "-T", "-A", "-C", "-D", "-U", "--preset", "--toolchain", "--install-prefix"}


def configured(argv: tuple[str, ...], cwd: str) -> tuple[str, str] | None:
    """(source, build) directories of a `cmake` configure command line, repository-relative."""
    if not argv or argv[0].rsplit("/", 1)[-1] not in ("cmake", "cmake.exe"):
        return None
    if any(a in ("--build", "--install", "-E", "-P", "--open") for a in argv[1:]):
        return None
    source = build = None
    positional: list[str] = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in ("-S", "-B") and i + 1 < len(argv):
            if word == "-S":
                source = argv[i + 1]
            else:
                build = argv[i + 1]
            i += 2
            continue
        if word.startswith("-S") and len(word) > 2:
            source = word[2:]
        elif word.startswith("-B") and len(word) > 2:
            build = word[2:]
        elif word in _VALUE and i + 1 < len(argv):
            i += 1
        elif not word.startswith("-"):
            positional.append(word)
        i += 1
    if source is None and positional:
        source = positional[-1]  # `cmake ..` from the build directory
    if source is None and build is not None:
        source = "."  # `cmake -B build`: the source is the working directory (CMake >= 3.13)
    if source is None:
        return None
    return _rel(cwd, source), _rel(cwd, build or ".")


def built(argv: tuple[str, ...], cwd: str) -> str | None:
    """The build directory of `cmake --build BUILD ...`."""
    if not argv or argv[0].rsplit("/", 1)[-1] not in ("cmake", "cmake.exe"):
        return None
    words = list(argv[1:])
    if "--build" not in words:
        return None
    i = words.index("--build")
    return _rel(cwd, words[i + 1]) if i + 1 < len(words) else None


def _rel(cwd: str, path: str) -> str:
    from linkgate.workflows.shell.state import WORKSPACE

    if path.startswith(WORKSPACE + "/"):
        path = path[len(WORKSPACE) + 1:]
    joined = posixpath.normpath(posixpath.join(cwd, path))
    return "" if joined == "." else joined


def project_mentions(read: ReadText, source: str) -> tuple[str, tuple[coverage.Mention, ...]] | None:
    """The project's top CMakeLists.txt and the lines of its files that run cargo; None when the
    repository holds no CMakeLists.txt there (a project fetched or generated at run time)."""
    if source.startswith(("..", "/")):
        return None
    top = posixpath.join(source, "CMakeLists.txt") if source else "CMakeLists.txt"
    if read(top) is None:
        return None
    found: list[coverage.Mention] = []
    queue, seen = [top], {top}
    while queue and len(seen) <= MAX_FILES:
        rel = queue.pop(0)
        text = read(rel)
        if text is None:
            continue
        for no, line in enumerate(text.split("\n"), start=1):
            if line.lstrip().startswith("#"):
                continue  # a comment
            if coverage.mentions(rel, line) or _CMAKE_CARGO.search(line):
                found.append(coverage.Mention(rel, no, line.strip()[:160]))
        home = posixpath.dirname(rel)
        for kind, path in _INCLUDE.findall(text):
            if "${" in path or "/" in path and path.startswith("/"):
                continue
            target = posixpath.normpath(posixpath.join(home, path))
            if kind.lower() == "add_subdirectory":
                target = posixpath.join(target, "CMakeLists.txt")
            elif not target.endswith(".cmake"):
                continue  # `include(ExternalProject)`: a module of CMake's own
            if not target.startswith("..") and target not in seen:
                seen.add(target)
                queue.append(target)
    return top, tuple(found[:coverage.MAX_MENTIONS])

"""The files a compiled unit read, from the dep-info (``.d``) files rustc and cargo write.

rustc writes ``deps/<crate>-<hash>.d`` (``build/<pkg>-<hash>/build_script_build-<hash>.d``
for a build script) for every unit: Makefile rules naming each source file and
each ``include_str!``/``include_bytes!`` file. A local package's paths are
relative to the directory cargo ran rustc in, the workspace root; the first file
of the first rule is the crate root exactly as rustc was given it, so the root is
the unit's ``src_path`` (absolute, in cargo's message) minus that spelling. Cargo
writes ``<profile>/<name>.d`` beside each uplifted output, with absolute paths,
every local dependency's sources and build scripts' ``rerun-if-changed`` paths.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs

_EXTENSIONS = (".rlib", ".rmeta", ".so", ".dylib", ".dll", ".a", ".exe", ".wasm", ".lib", ".pdb")


@dataclass(frozen=True)
class DepInfo:
    """The files one dep-info file names, absolute; *unread* says why some could not be placed."""

    path: str
    files: tuple[str, ...]
    unread: str | None = None


def parse_rules(text: str) -> list[tuple[str, list[str]]]:
    """Makefile rules ``target: dep dep`` as rustc writes them (``\\ `` is a space in a name,
    a trailing ``\\`` continues the line); ``#`` lines (rustc's ``# env-dep:``) are skipped."""
    rules: list[tuple[str, list[str]]] = []
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending += raw[:-1] + " "
            continue
        logical.append(pending + raw)
        pending = ""
    if pending:
        logical.append(pending)
    for line in logical:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = _words(line)
        for i, w in enumerate(words):
            if w.endswith(":"):
                rules.append((" ".join(words[: i + 1])[:-1], words[i + 1:]))
                break
    return rules


def _words(line: str) -> list[str]:
    out: list[str] = []
    cur = ""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line) and line[i + 1] in " \\#":
            cur += line[i + 1]
            i += 2
            continue
        if c in " \t":
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def read(dep_file: Path, src_path: str | None) -> DepInfo | None:
    """The files *dep_file* names, made absolute; None when there is no such file."""
    try:
        text = repofs.read_text(dep_file, inside=None, errors="replace")
    except OSError:
        return None
    rules = parse_rules(text)
    names = list(dict.fromkeys(d for _, deps in rules for d in deps))
    relative = [n for n in names if not os.path.isabs(n)]
    if not relative:
        return DepInfo(str(dep_file), tuple(os.path.normpath(n) for n in names))
    first = next((deps[0] for _, deps in rules if deps), None)
    base = _base(first, src_path)
    if base is None:
        absolute = tuple(os.path.normpath(n) for n in names if os.path.isabs(n))
        return DepInfo(str(dep_file), absolute,
                       f"{len(relative)} relative paths, and the unit's crate root ({src_path or 'unknown'}) does "
                       f"not end with {first!r}, so the directory they are relative to is unknown")
    return DepInfo(str(dep_file), tuple(os.path.normpath(os.path.join(base, n)) for n in names))


def _base(first: str | None, src_path: str | None) -> str | None:
    if not first or not src_path or os.path.isabs(first):
        return None
    src = os.path.normpath(src_path)
    tail = os.path.normpath(first)
    if src == tail or not src.endswith(os.sep + tail):
        return None
    return src[: -len(tail) - 1] or os.sep


def dep_files(filenames: Iterable[str], build_script: bool) -> list[Path]:
    """The dep-info files of a unit whose outputs are *filenames* (cargo's ``compiler-artifact``)."""
    found: list[Path] = []
    for name in filenames:
        f = Path(name)
        if build_script:
            # build/<pkg>-<hash>/build-script-build; rustc's file is build_script_build-<hash>.d
            candidates = sorted(f.parent.glob("build_script_*.d"))
        else:
            stem = f.name
            for ext in _EXTENSIONS:
                if stem.endswith(ext):
                    stem = stem[: -len(ext)]
                    break
            candidates = [f.parent / f"{stem}.d"]
            if stem.startswith("lib"):
                candidates.append(f.parent / f"{stem[3:]}.d")
        for c in candidates:
            if c.is_file() and c not in found:
                found.append(c)
    return found

"""The static archives on a link line, and those the build scripts made.

An archive is a ``.a`` named by path or found for ``-l`` through ``-L``, or an
rlib: rustc bundles the objects of a ``static=`` library into its crate's
rlib, so an rlib is where GNU ld finds (or, too early on the line, misses)
those symbols. What each defines is read by :mod:`linkgate.objects.ar`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.cargo import linklib


@dataclass(frozen=True)
class LinkArchive:
    position: int  # index among the link line's inputs
    spelling: str  # as written: -lfoo, -l:libfoo.a or a path
    path: Path


def archives_on_line(argv: Sequence[str], cwd: Path | None = None) -> list[LinkArchive]:
    """Static archives and rlibs in link-line order, resolving ``-l`` through ``-L``."""
    flat: list[str] = []
    for arg in argv:
        # rustc and cc pass linker flags as -Wl,a,b
        flat.extend(arg[4:].split(",") if arg.startswith("-Wl,") else [arg])
    base = cwd or Path.cwd()
    search: list[Path] = []
    it = iter(range(len(flat)))
    for i in it:
        a = flat[i]
        if a == "-L" and i + 1 < len(flat):
            search.append(base / flat[i + 1])
        elif a.startswith("-L") and len(a) > 2:
            search.append(base / a[2:])
    out: list[LinkArchive] = []
    for i, a in enumerate(flat):
        if a.startswith("-l") and len(a) > 2:
            name = a[2:]
            candidates = [name[1:]] if name.startswith(":") else [f"lib{name}.a"]
            for d in search:
                p = d / candidates[0]
                if p.suffix == ".a" and p.is_file():
                    out.append(LinkArchive(i, a, p))
                    break
        elif a.endswith((".a", ".rlib")) and not a.startswith("-"):
            p = base / a
            if p.is_file():
                out.append(LinkArchive(i, a, p))
    return out


@dataclass(frozen=True)
class NativeArchive:
    """A static library a build script linked (``rustc-link-lib=static=NAME``), found on disk."""

    path: Path
    package: str  # the package whose build script named it
    build_script: str | None = None


def native_archives(
    package: str, linked_libs: Sequence[str], linked_paths: Sequence[str], build_script: str | None = None
) -> list[NativeArchive]:
    """Resolve cargo's ``linked_libs``/``linked_paths`` (``static=zlite``, ``native=/out``) to files."""
    dirs = [Path(p.split("=", 1)[1] if "=" in p else p) for p in linked_paths]
    out: list[NativeArchive] = []
    for value in linked_libs:
        lib = linklib.parse(value)
        if not lib.may_be_archive or not lib.name:
            continue  # dylib / framework: not an archive a build script made
        for d in dirs:
            path = d / lib.archive_file
            if path.is_file():
                out.append(NativeArchive(path, package, build_script))
                break
    return out

"""The object files and archives a recorded link line hands the linker.

Read from the line as the linker reads it: ``.o``, ``.a`` and ``.rlib``
arguments (relative to the link's directory, or the copy the wrapper kept when
rustc deleted a transient input), and ``-l NAME`` resolved to ``libNAME.a`` in
the line's ``-L`` directories. rustc's own sysroot rlibs (``lib/rustlib/``)
are left out: LLVM compiled them, they hold no GCC bytecode, and reading the
standard library's members on every link would cost more than the check.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from linkgate.gate.linkrecord import LinkRecord

_SUFFIXES = (".o", ".a", ".rlib")
_SYSROOT = "/lib/rustlib/"


def _resolve(token: str, rec: LinkRecord) -> Path | None:
    kept = rec.preserved.get(token)
    path = Path(kept) if kept else Path(rec.cwd, token)
    return path if path.is_file() else None


def _search_dirs(args: Sequence[str], cwd: str) -> list[str]:
    dirs = []
    for i, arg in enumerate(args):
        if arg == "-L" and i + 1 < len(args):
            dirs.append(args[i + 1])
        elif arg.startswith("-L") and len(arg) > 2:
            dirs.append(arg[2:])
    return [os.path.join(cwd, d) for d in dirs]


def _library(name: str, dirs: Sequence[str]) -> Path | None:
    # A -l the linker may take shared (libNAME.so first) is still checked as an
    # archive when one is there: a member found is GCC bytecode on the line only
    # if that archive was taken, so the finding names the archive it read.
    file = name[1:] if name.startswith(":") else f"lib{name}.a"
    for d in dirs:
        path = Path(d, file)
        if path.is_file() and path.suffix == ".a":
            return path
    return None


def inputs(rec: LinkRecord) -> list[Path]:
    """The line's objects and archives, in line order, each once; sysroot rlibs left out."""
    args = list(rec.args)
    dirs = _search_dirs(args, rec.cwd)
    found: list[Path] = []
    i = 0
    while i < len(args):
        arg = args[i]
        path: Path | None = None
        if arg == "-l" and i + 1 < len(args):
            i += 1
            path = _library(args[i], dirs)
        elif arg.startswith("-l") and len(arg) > 2:
            path = _library(arg[2:], dirs)
        elif not arg.startswith("-") and arg.endswith(_SUFFIXES) and _SYSROOT not in arg:
            path = _resolve(arg, rec)
        if path is not None and path not in found:
            found.append(path)
        i += 1
    return found

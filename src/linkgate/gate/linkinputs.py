"""The files a link command reads: objects, archives, shared libraries, scripts.

Resolves ``-l`` the way GNU ld does (``-L`` directories in order; ``.so``
before ``.a`` unless ``-Bstatic``/``-static`` is in force; ``-l:name`` is a
file name). Libraries found only in the system's default directories (libc,
libm, ...) are not named by the command and are not tracked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LinkInput:
    path: str          # absolute
    named_by: str      # the argument that brought it in ("-lcore", "/x/libstd.rlib")
    index: int         # position of that argument in the (expanded) argument list


def _linker_words(arg: str) -> list[str]:
    """``-Wl,-Bstatic,-lfoo`` -> the words the linker itself sees."""
    if arg.startswith("-Wl,"):
        return [w for w in arg[4:].split(",") if w]
    return [arg]


def library_name(arg: str) -> str | None:
    """``-lfoo``/``-l:libfoo.a`` -> ``foo``/``:libfoo.a``; else None."""
    if arg.startswith("-l") and len(arg) > 2:
        return arg[2:]
    return None


def resolve_library(name: str, search: Sequence[str], static: bool) -> str | None:
    if name.startswith(":"):
        files = [name[1:]]
    else:
        files = [f"lib{name}.a"] if static else [f"lib{name}.so", f"lib{name}.a"]
    for d in search:
        for f in files:
            candidate = os.path.join(d, f)
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
    return None


def normalize(args: Sequence[str]) -> list[str]:
    """Join ``-L dir``/``-l name``/``-o file`` pairs into single arguments."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-L", "-l", "-o", "-T") and i + 1 < len(args):
            out.append(a + args[i + 1])
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def inputs(args: Sequence[str], cwd: str) -> list[LinkInput]:
    """Every existing input file the arguments name, in command-line order."""
    search: list[str] = []
    static = False
    found: list[LinkInput] = []
    args = normalize(args)
    # -L applies to every -l on the line, wherever it stands.
    for a in args:
        for w in _linker_words(a):
            if w.startswith("-L") and len(w) > 2:
                search.append(os.path.join(cwd, w[2:]))
    for index, a in enumerate(args):
        if a.startswith("-o"):
            continue
        if a == "-static":
            static = True
        for w in _linker_words(a):
            if w in ("-Bstatic", "-static", "-dn", "-non_shared"):
                static = True
            elif w in ("-Bdynamic", "-dy", "-call_shared"):
                static = False
            elif (name := library_name(w)) is not None:
                hit = resolve_library(name, search, static)
                if hit:
                    found.append(LinkInput(hit, a, index))
            elif w.startswith("-T") and len(w) > 2:
                found.append(LinkInput(os.path.join(cwd, w[2:]), a, index))
            elif "=" in w and w.startswith("--") and "/" in w:
                found.append(LinkInput(os.path.join(cwd, w.split("=", 1)[1]), a, index))
            elif not w.startswith("-"):
                found.append(LinkInput(os.path.join(cwd, w), a, index))
    return [f for f in found if os.path.isfile(f.path)]


def stat_of(path: str) -> dict[str, object] | None:
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return {"path": path, "size": st.st_size, "mtime_ns": st.st_mtime_ns}

"""Which static archives on a link line define which symbols.

Reads the archive's own symbol index (the ``/`` or ``/SYM64/`` member that
``ar s`` writes) rather than running ``nm``: it is a few lines of parsing,
needs no binutils, and reads only the index, not the members.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.cargo import linklib

_MAGIC = (b"!<arch>\n", b"!<thin>\n")


def archive_symbols(path: Path) -> frozenset[str]:
    """Global symbols the archive defines; empty when unreadable or unindexed."""
    try:
        with path.open("rb") as fh:
            if fh.read(8) not in _MAGIC:
                return frozenset()
            header = fh.read(60)
            if len(header) < 60:
                return frozenset()
            name = header[:16].rstrip()
            size = int(header[48:58].strip() or b"0")
            if name not in (b"/", b"/SYM64/"):
                return frozenset()
            data = fh.read(size)
    except (OSError, ValueError):
        return frozenset()
    width = 8 if name == b"/SYM64/" else 4
    if len(data) < width:
        return frozenset()
    count = int.from_bytes(data[:width], "big")
    names = data[width + count * width:].split(b"\0")[:count]
    return frozenset(n.decode("utf-8", errors="replace") for n in names if n)


@dataclass(frozen=True)
class LinkArchive:
    position: int  # index among the link line's inputs
    spelling: str  # as written: -lfoo, -l:libfoo.a or a path
    path: Path


def archives_on_line(argv: Sequence[str], cwd: Path | None = None) -> list[LinkArchive]:
    """Static archives in link-line order, resolving ``-l`` through ``-L``."""
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
        elif a.endswith(".a") and not a.startswith("-"):
            p = base / a
            if p.is_file():
                out.append(LinkArchive(i, a, p))
    return out


def archive_members(path: Path) -> frozenset[str]:
    """Names of the members of an ar archive (GNU and BSD long names); empty when unreadable."""
    names: set[str] = set()
    try:
        with path.open("rb") as fh:
            if fh.read(8) != b"!<arch>\n":
                return frozenset()
            longnames = b""
            while len(header := fh.read(60)) == 60:
                raw, size = header[:16].rstrip(), int(header[48:58].strip() or b"0")
                data = fh.read(size + (size & 1))
                if raw in (b"/", b"/SYM64/", b"__.SYMDEF", b"__.SYMDEF SORTED"):
                    continue
                if raw == b"//":
                    longnames = data
                elif raw.startswith(b"/") and raw[1:].isdigit():
                    start = int(raw[1:])
                    end = longnames.find(b"/\n", start)
                    names.add(longnames[start:end if end != -1 else None].decode("utf-8", "replace"))
                elif raw.startswith(b"#1/") and raw[3:].isdigit():
                    names.add(data[: int(raw[3:])].rstrip(b"\0").decode("utf-8", "replace"))
                else:
                    names.add(raw.rstrip(b"/").decode("utf-8", "replace"))
    except (OSError, ValueError):
        return frozenset(names)
    return frozenset(names)


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

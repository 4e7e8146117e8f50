"""The members of an ar archive: static libraries (``.a``) and rlibs alike.

An rlib is an ar archive too: rustc puts the crate's own objects, its
``lib.rmeta`` and the objects of every static library it bundles (``static=``
without ``-bundle``) into it, and writes the same symbol index (``/`` or
``/SYM64/``) that ``ar s`` writes for a ``.a``. GNU ld and gold search that
index, so it is what decides where on a link line a symbol is found.

Hand-written: Python's standard library has no ar reader, and the format is
a fixed 60-byte text header per member (GNU ``/N`` and BSD ``#1/N`` long
names), a few lines to walk; binutils' ``ar``/``nm`` would cost a process per
archive. Nothing here raises on a damaged file: an unreadable archive is an
empty one, and callers say so.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_MAGIC = b"!<arch>\n"
_THIN = b"!<thin>\n"
_INDEX = (b"/", b"/SYM64/")
_BSD_INDEX = (b"__.SYMDEF", b"__.SYMDEF SORTED")


@dataclass(frozen=True)
class Member:
    name: str
    offset: int  # where its data starts in the file
    size: int


def members(path: Path) -> Iterator[Member]:
    """Each regular member (not the index, not the long-name table), in archive order."""
    try:
        with path.open("rb") as fh:
            if fh.read(8) != _MAGIC:
                return
            longnames = b""
            while len(header := fh.read(60)) == 60:
                raw, size = header[:16].rstrip(), int(header[48:58].strip() or b"0")
                start = fh.tell()
                if raw == b"//":
                    longnames = fh.read(size)
                elif raw in _INDEX or raw in _BSD_INDEX:
                    pass
                elif raw.startswith(b"/") and raw[1:].isdigit():
                    at = int(raw[1:])
                    end = longnames.find(b"/\n", at)
                    yield Member(longnames[at:end if end != -1 else None].decode("utf-8", "replace"), start, size)
                elif raw.startswith(b"#1/") and raw[3:].isdigit():
                    # BSD: the name is the first N bytes of the data.
                    n = int(raw[3:])
                    name = fh.read(n).rstrip(b"\0").decode("utf-8", "replace")
                    yield Member(name, start + n, size - n)
                else:
                    yield Member(raw.rstrip(b"/").decode("utf-8", "replace"), start, size)
                fh.seek(start + size + (size & 1))
    except (OSError, ValueError):
        return


def member_names(path: Path) -> frozenset[str]:
    """Names of the archive's members; empty when unreadable."""
    return frozenset(m.name for m in members(path))


def read_member(path: Path, name: str, limit: int = 64 << 20) -> bytes | None:
    """The bytes of the first member called *name* (at most *limit*); None when absent or unreadable."""
    for m in members(path):
        if m.name == name:
            try:
                with path.open("rb") as fh:
                    fh.seek(m.offset)
                    return fh.read(min(m.size, limit))
            except OSError:
                return None
    return None


def symbol_index(path: Path) -> frozenset[str]:
    """Global symbols the archive's index says its members define; empty when unreadable or unindexed.

    Reads only the index, the first member, never the objects: that is the table
    GNU ld and gold consult (an archive without one fails there as "no index").
    """
    try:
        with path.open("rb") as fh:
            if fh.read(8) not in (_MAGIC, _THIN):
                return frozenset()
            header = fh.read(60)
            if len(header) < 60:
                return frozenset()
            name = header[:16].rstrip()
            size = int(header[48:58].strip() or b"0")
            if name not in _INDEX:
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

"""What an ELF object or linked file holds: objects read with pyelftools, linked
files by hand (read_linked says why).

pyelftools (pure Python, maintained since 2011, what binutils-free tools such as
angr read ELF with) parses section headers, symbol tables and the dynamic
section from a file or from bytes: an archive member is read in memory, with no
``readelf``/``nm`` process per member (a link line names hundreds). Imported
lazily, and only for a member whose bytes name a ``.gnu.lto_`` section: most
commands never read an ELF file, and most members are never parsed.

Nothing here raises on a damaged or non-ELF input: it reads as None, and
callers say what they could not read.
"""

from __future__ import annotations

import io
import mmap
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate.objects import ar

LTO_PREFIX = ".gnu.lto_"
SIZED_SECTIONS = (".text", ".data", ".rodata", ".bss", ".init_array")


def _elf(stream: Any) -> Any | None:
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        return ELFFile(stream)
    except (ELFError, ValueError, OSError, EOFError):
        return None


def carries_gcc_lto(data: bytes) -> bool:
    """Whether an object's bytes hold GCC LTO bytecode (a ``.gnu.lto_*`` section)."""
    # The section name is in .shstrtab: bytes without it cannot have such a
    # section, and most members of a link line do not, so most are never parsed.
    if LTO_PREFIX.encode() not in data:
        return False
    from elftools.common.exceptions import ELFError

    elf = _elf(io.BytesIO(data))
    try:
        return elf is not None and any(s.name.startswith(LTO_PREFIX) for s in elf.iter_sections())
    except (ELFError, ValueError, EOFError):
        return False


def lto_members(path: Path) -> tuple[str, ...] | None:
    """The members of an archive (``.a`` or rlib) that carry GCC LTO bytecode, in
    archive order; for an object file, its own name when it does. None: unreadable."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
            if head == b"!<arch>\n":
                found = []
                for m in ar.members(path):
                    fh.seek(m.offset)
                    if carries_gcc_lto(fh.read(m.size)):
                        found.append(m.name)
                return tuple(found)
            if head.startswith(b"\x7fELF"):
                fh.seek(0)
                return (path.name,) if carries_gcc_lto(fh.read()) else ()
    except OSError:
        return None
    return None


@dataclass(frozen=True)
class LinkedView:
    """What one linked file asks of the loader and what code it holds. Symbol names
    are without their version (GNU ld writes ``statx@GLIBC_2.28`` into ``.symtab``
    where lld writes ``statx``: one name to every linker)."""

    needed: tuple[str, ...]
    dynamic_undefined: frozenset[str]   # undefined in .dynsym (resolved at load time)
    weak_undefined: frozenset[str]      # weak and undefined in either table: null unless something defines it
    functions: frozenset[str] | None    # defined FUNC symbols of .symtab; None: the file has none
    defined: frozenset[str]             # every defined symbol of either table
    sizes: dict[str, int]               # SIZED_SECTIONS present, in bytes


# st_info's binding and type, st_shndx's "undefined".
_WEAK, _FUNC, _UNDEF = 2, 2, 0
# sh_type of the sections read; d_tag of NEEDED and of the table's end.
_SHT_SYMTAB, _SHT_DYNAMIC, _SHT_DYNSYM = 2, 6, 11
_DT_NULL, _DT_NEEDED = 0, 1


@dataclass(frozen=True)
class _Section:
    name: str
    type: int
    offset: int
    size: int
    link: int


def _name_at(strtab: bytes, at: int) -> str:
    end = strtab.find(b"\0", at)
    return strtab[at:end if end != -1 else None].decode("utf-8", "replace")


def _symbol_at(strtab: bytes, at: int) -> str:
    """A symbol's name without its version (``@VER``, ``@@VER``)."""
    end = strtab.find(b"\0", at)
    raw = strtab[at:end if end != -1 else None]
    version = raw.find(b"@")
    return (raw if version == -1 else raw[:version]).decode("utf-8", "replace")


def _sections(data: Any) -> tuple[str, list[_Section]] | None:
    """The byte order (``<`` or ``>``) and section headers of ELF *data*; None: not ELF."""
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    order, wide = "<" if data[5] == 1 else ">", data[4] == 2
    head = struct.unpack_from(order + ("HHIQQQIHHHHHH" if wide else "HHIIIIIHHHHHH"), data, 16)
    shoff, shentsize, shnum, shstrndx = head[5], head[10], head[11], head[12]
    fmt = order + ("IIQQQQIIQQ" if wide else "IIIIIIIIII")
    if not shoff:
        return order, []
    if shentsize < struct.calcsize(fmt):
        return None
    first = struct.unpack_from(fmt, data, shoff)
    if shnum == 0:           # more than 0xff00 sections: the count is section 0's sh_size
        shnum = first[5]
    if shstrndx == 0xFFFF:   # SHN_XINDEX: the index is section 0's sh_link
        shstrndx = first[6]
    raw = [struct.unpack_from(fmt, data, shoff + n * shentsize) for n in range(shnum)]
    names = raw[shstrndx] if shstrndx < len(raw) else None
    strtab = bytes(data[names[4]:names[4] + names[5]]) if names else b""
    return order, [_Section(_name_at(strtab, h[0]) if strtab else "", h[1], h[4], h[5], h[6]) for h in raw]


def _symbols(data: Any, order: str, wide: bool, sec: _Section, strsec: _Section) -> Iterator[tuple[str, bool, bool, bool]]:
    """(name, undefined, weak, function) of each named symbol of *sec*, unpacked
    with struct.iter_unpack from the table's bytes."""
    fmt = order + ("IBBHQQ" if wide else "IIIBBH")
    strtab = bytes(data[strsec.offset:strsec.offset + strsec.size])
    table = bytes(data[sec.offset:sec.offset + sec.size])
    size = struct.calcsize(fmt)
    for entry in struct.iter_unpack(fmt, table[:len(table) - len(table) % size]):
        if wide:
            name_at, info, shndx = entry[0], entry[1], entry[3]
        else:
            name_at, info, shndx = entry[0], entry[3], entry[5]
        if name_at:
            yield _symbol_at(strtab, name_at), shndx == _UNDEF, info >> 4 == _WEAK, info & 0xF == _FUNC


def read_linked(path: str) -> LinkedView | None:
    """The file's view; None when it is not readable ELF.

    Read by hand with struct from a memory map, not with pyelftools as the
    objects are: a linked file needs only its section headers, its dynamic
    section and its two symbol tables, fixed-layout records the ELF
    specification defines, and pyelftools costs 50-90 ms to import and 3-12 ms a
    file to parse through construct here (the demo's ten files under five
    linkers: 100-150 ms in all, most of what comparing them costs), where this
    reads the same ten in a few milliseconds. Only the pages those sections sit
    on are read: a file with gigabytes of debug information costs no more.
    tests/unit/objects/test_read_linked.py holds it to pyelftools' reading of
    the same files."""
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            found = _sections(data)
            if found is None:
                return None
            order, secs = found
            wide = data[4] == 2
            needed: list[str] = []
            dyn_undef: set[str] = set()
            weak: set[str] = set()
            funcs: set[str] = set()
            sizes: dict[str, int] = {}
            defined: set[str] = set()
            symtab = False
            for sec in secs:
                if sec.name in SIZED_SECTIONS:
                    sizes[sec.name] = sec.size
                if sec.type == _SHT_DYNAMIC and sec.link < len(secs):
                    strsec = secs[sec.link]
                    dynstr = bytes(data[strsec.offset:strsec.offset + strsec.size])
                    table = bytes(data[sec.offset:sec.offset + sec.size])
                    fmt = order + ("qQ" if wide else "iI")
                    for tag, value in struct.iter_unpack(fmt, table[:len(table) - len(table) % struct.calcsize(fmt)]):
                        if tag == _DT_NULL:
                            break
                        if tag == _DT_NEEDED:
                            needed.append(_name_at(dynstr, value))
                if sec.type in (_SHT_SYMTAB, _SHT_DYNSYM) and sec.name in (".symtab", ".dynsym") \
                        and sec.link < len(secs):
                    symtab = symtab or sec.name == ".symtab"
                    for name, undef, is_weak, func in _symbols(data, order, wide, sec, secs[sec.link]):
                        if undef and is_weak:
                            weak.add(name)
                        if undef and sec.name == ".dynsym":
                            dyn_undef.add(name)
                        if not undef:
                            defined.add(name)
                            if func and sec.name == ".symtab":
                                funcs.add(name)
    except (OSError, ValueError, struct.error, IndexError):
        # OSError: unreadable; ValueError: an empty file (mmap) or a bad header;
        # struct.error: headers or tables past the end of the file.
        return None
    return LinkedView(tuple(needed), frozenset(dyn_undef), frozenset(weak),
                      frozenset(funcs) if symtab else None, frozenset(defined), sizes)

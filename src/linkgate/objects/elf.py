"""What an ELF object or linked file holds, read with pyelftools.

pyelftools (pure Python, maintained since 2011, what binutils-free tools such as
angr read ELF with) parses section headers, symbol tables and the dynamic
section from a file or from bytes: an archive member is read in memory, with no
``readelf``/``nm`` process per member (a link line names hundreds), and a
linked file's symbols come as records, not as text columns to split.
Imported lazily: most commands never read an ELF file.

Nothing here raises on a damaged or non-ELF input: it reads as None, and
callers say what they could not read.
"""

from __future__ import annotations

import io
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
    """What one linked file asks of the loader and what code it holds."""

    needed: tuple[str, ...]
    dynamic_undefined: frozenset[str]   # undefined in .dynsym (resolved at load time)
    weak_undefined: frozenset[str]      # weak and undefined in either table: null unless something defines it
    functions: frozenset[str] | None    # defined FUNC symbols of .symtab; None: the file has none
    defined: frozenset[str]             # every defined symbol of either table
    sizes: dict[str, int]               # SIZED_SECTIONS present, in bytes


# st_info's binding and type, st_shndx's "undefined".
_WEAK, _FUNC, _UNDEF = 2, 2, 0


def _symbols(elf: Any, sec: Any) -> Iterator[tuple[str, bool, bool, bool]]:
    """(name, undefined, weak, function) of each named symbol of *sec*.

    Unpacked with struct from the table's bytes: pyelftools builds one Python
    object per symbol through construct (the demo's test binary: 1.6 s for ten
    files), struct.iter_unpack reads the same table in milliseconds. pyelftools
    still finds the table, its string table, its byte order and class."""
    order = "<" if elf.little_endian else ">"
    fmt = order + ("IBBHQQ" if elf.elfclass == 64 else "IIIBBH")
    strtab = elf.get_section(sec["sh_link"]).data()
    data = sec.data()
    size = struct.calcsize(fmt)
    for entry in struct.iter_unpack(fmt, data[:len(data) - len(data) % size]):
        if elf.elfclass == 64:
            name_at, info, _, shndx = entry[0], entry[1], entry[2], entry[3]
        else:
            name_at, info, shndx = entry[0], entry[3], entry[5]
        if not name_at:
            continue
        end = strtab.find(b"\0", name_at)
        name = strtab[name_at:end if end != -1 else None].decode("utf-8", "replace")
        yield name, shndx == _UNDEF, info >> 4 == _WEAK, info & 0xF == _FUNC


def read_linked(path: str) -> LinkedView | None:
    """The file's view; None when it is not readable ELF."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.sections import SymbolTableSection

    try:
        with open(path, "rb") as fh:
            elf = _elf(fh)
            if elf is None:
                return None
            needed: list[str] = []
            dyn_undef: set[str] = set()
            weak: set[str] = set()
            funcs: set[str] = set()
            sizes: dict[str, int] = {}
            defined: set[str] = set()
            symtab = False
            for sec in elf.iter_sections():
                if sec.name in SIZED_SECTIONS:
                    sizes[sec.name] = int(sec["sh_size"])
                if isinstance(sec, DynamicSection):
                    # pyelftools sets `needed` on a DT_NEEDED tag at parse time (no declared attribute).
                    needed += [str(getattr(t, "needed")) for t in sec.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
                if isinstance(sec, SymbolTableSection) and sec.name in (".symtab", ".dynsym"):
                    symtab = symtab or sec.name == ".symtab"
                    for name, undef, is_weak, func in _symbols(elf, sec):
                        if undef and is_weak:
                            weak.add(name)
                        if undef and sec.name == ".dynsym":
                            dyn_undef.add(name)
                        if not undef:
                            defined.add(name)
                            if func and sec.name == ".symtab":
                                funcs.add(name)
    except (OSError, ELFError, ValueError, EOFError, struct.error):
        return None
    return LinkedView(tuple(needed), frozenset(dyn_undef), frozenset(weak),
                      frozenset(funcs) if symtab else None, frozenset(defined), sizes)

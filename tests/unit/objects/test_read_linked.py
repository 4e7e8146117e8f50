"""read_linked (ELF read by hand with struct) against pyelftools' reading of the
same files: real gcc links under GNU ld, gold, lld and mold, a stripped copy, an
object file, and files that are not ELF or are cut short."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate.objects.elf import SIZED_SECTIONS, LinkedView, read_linked

MAIN = r"""
#include <stdio.h>
#include <zlib.h>
extern int hook(void) __attribute__((weak));
int table[4096];
__attribute__((noinline)) int used(void) { return table[1] + 3; }
int main(void) { printf("%s %d\n", zlibVersion(), hook ? hook() : used()); return 0; }
"""


def _oracle(path: Path) -> LinkedView:
    """What pyelftools reads: the implementation read_linked replaced."""
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    needed, dyn, weak, funcs, defined, sizes, symtab = [], set(), set(), set(), set(), {}, False
    with path.open("rb") as fh:
        for sec in ELFFile(fh).iter_sections():
            if sec.name in SIZED_SECTIONS:
                sizes[sec.name] = sec["sh_size"]
            if isinstance(sec, DynamicSection):
                needed += [t.needed for t in sec.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
            if isinstance(sec, SymbolTableSection) and sec.name in (".symtab", ".dynsym"):
                symtab = symtab or sec.name == ".symtab"
                for s in sec.iter_symbols():
                    if not s.name:
                        continue
                    name = s.name.split("@", 1)[0]
                    undef = s["st_shndx"] == "SHN_UNDEF"
                    if undef and s["st_info"]["bind"] == "STB_WEAK":
                        weak.add(name)
                    if undef and sec.name == ".dynsym":
                        dyn.add(name)
                    if not undef:
                        defined.add(name)
                        if s["st_info"]["type"] == "STT_FUNC" and sec.name == ".symtab":
                            funcs.add(name)
    return LinkedView(tuple(needed), frozenset(dyn), frozenset(weak), frozenset(funcs) if symtab else None,
                      frozenset(defined), sizes)


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("elf")
    (d / "main.c").write_text(MAIN)
    out = []
    for linker in ("bfd", "gold", "lld", "mold"):
        exe = d / f"main-{linker}"
        subprocess.run(["gcc", "-O2", f"-fuse-ld={linker}", str(d / "main.c"), "-o", str(exe), "-lz"], check=True)
        out.append(exe)
    stripped = d / "main-stripped"
    subprocess.run(["strip", "-o", str(stripped), str(out[0])], check=True)
    obj = d / "main.o"
    subprocess.run(["gcc", "-O2", "-c", str(d / "main.c"), "-o", str(obj)], check=True)
    shared = d / "libz-copy.so"
    shutil.copy(Path(subprocess.run(["gcc", "-print-file-name=libz.so"], capture_output=True, text=True,
                                    check=True).stdout.strip()).resolve(), shared)
    return [*out, stripped, obj, shared]


def test_reads_what_pyelftools_reads(linked: list[Path]) -> None:
    for path in linked:
        assert read_linked(str(path)) == _oracle(path), path.name
    bfd = read_linked(str(linked[0]))
    assert bfd is not None and "libz.so.1" in bfd.needed and "hook" in bfd.weak_undefined
    assert bfd.functions is not None and "used" in bfd.functions and bfd.sizes[".bss"] >= 4096 * 4
    # GNU ld writes zlibVersion@ZLIB_1.2.0 and printf@GLIBC_2.2.5 into .symtab: read without the version.
    assert {"zlibVersion", "printf"} <= bfd.dynamic_undefined and not any("@" in n for n in bfd.defined)
    assert read_linked(str(linked[4])).functions is None  # type: ignore[union-attr]  # stripped: no .symtab


def test_not_elf_or_cut_short_reads_as_none(linked: list[Path], tmp_path: Path) -> None:
    data = linked[0].read_bytes()
    cases = {"empty": b"", "text": b"#!/bin/sh\necho hi\n", "header-only": data[:64],
             "no-section-headers": data[:len(data) // 2], "bad-class": data[:4] + b"\x07" + data[5:]}
    for name, body in cases.items():
        (tmp_path / name).write_bytes(body)
        assert read_linked(str(tmp_path / name)) is None, name
    assert read_linked(str(tmp_path / "missing")) is None
    assert read_linked(str(tmp_path)) is None  # a directory

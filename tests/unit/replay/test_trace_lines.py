"""`--trace-symbol` output of each linker, as printed for `cc tr.o -Wl,--trace-symbol=puts`
(Debian 12: GNU ld 2.40, gold 1.16, lld 14, mold 1.10, rust-lld from rustc 1.95)."""

from __future__ import annotations

import pytest

from linkgate.replay.sweep import definitions

LIBC = "/lib/x86_64-linux-gnu/libc.so.6"


@pytest.mark.parametrize(
    "lines",
    [
        ["/usr/bin/ld.bfd: tr.o: reference to puts", f"/usr/bin/ld.bfd: {LIBC}: definition of puts"],
        ["tr.o: reference to puts", f"{LIBC}: definition of puts"],  # gold
        ["tr.o: reference to puts", f"{LIBC}: shared definition of puts"],  # lld, rust-lld
        [f"trace-symbol: {LIBC}: definition of puts", "trace-symbol: tr.o: reference to puts"],  # mold
    ],
)
def test_definition_names_the_file(lines):
    assert definitions(lines) == [(LIBC, "puts")]


def test_archive_member_and_no_definition():
    assert definitions(["/x/libringa.a(ring_entry.o): definition of ring_entry"]) == [
        ("/x/libringa.a(ring_entry.o)", "ring_entry")]
    assert definitions(["/usr/bin/ld: main.o: reference to missing"]) == []

"""Relinking a recorded link under another linker: only the driver flags change."""

from __future__ import annotations

import pytest

from linkgate.gate.linkers import retarget

SYSLIB = "/home/u/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/x86_64-unknown-linux-gnu/lib"
GCC_LD = SYSLIB[: -len("/lib")] + "/bin/gcc-ld"
HEAD = ["-m64", "/t/deps/a.o", "-Wl,--as-needed", "-lc", "-L", "/t/deps/rustcX/raw-dylibs"]
TAIL = ["-Wl,--eh-frame-hdr", "-Wl,-z,noexecstack", "-L", SYSLIB, "-o", "/t/deps/a-1", "-nodefaultlibs"]
# As rustc 1.95 writes them (recorded by linkgate's wrapper, FACTS.md "Which linker runs").
RECORDED = {
    "default": [*HEAD, f"-B{GCC_LD}", "-fuse-ld=lld", *TAIL],
    # linkgate names bfd too, so an earlier -fuse-ld in the user's flags loses (gate/overrides.py).
    "bfd": [*HEAD, *TAIL, "-fuse-ld=bfd"],
    "gold": [*HEAD, *TAIL, "-fuse-ld=gold"],
    "lld": [*HEAD, *TAIL, "-fuse-ld=lld"],
    "mold": [*HEAD, *TAIL, "-fuse-ld=mold"],
}


@pytest.mark.parametrize("source", sorted(RECORDED))
@pytest.mark.parametrize("target", sorted(RECORDED))
def test_any_recorded_line_becomes_what_rustc_writes_for_the_target(source, target):
    assert retarget(RECORDED[source], target) == RECORDED[target]


def test_a_separate_B_argument_is_removed_too():
    args = [*HEAD, "-B", GCC_LD, "-fuse-ld=lld", *TAIL]
    assert retarget(args, "bfd") == RECORDED["bfd"]


def test_default_needs_the_sysroot_on_the_line():
    assert retarget([*HEAD, "-o", "x"], "default") is None
    assert retarget([*HEAD, "-o", "x"], "mold") == [*HEAD, "-o", "x", "-fuse-ld=mold"]

"""Which copy of a -l argument on a link line each package's directive put there.

The link lines are shaped as rustc 1.95 writes them (captured with a linker
wrapper on the bzpair fixture and three more packages): the linked crate's own
libraries first, then each rlib followed by its unbundled static libraries,
then every crate's dynamic libraries, crate by crate in rlib order.
"""

from __future__ import annotations

from linkgate.replay.copies import OLD_RECORDING, Unit, claim, siblings
from linkgate.replay.directives import SourceDirective

SYSROOT = "/rust/lib/rustlib/x86_64-unknown-linux-gnu/lib"
DEPS = "/t/debug/deps"
STD = [f"{SYSROOT}/libstd-d1237ef7159db0a2.rlib", f"{SYSROOT}/libcore-120cbae4e86ec454.rlib"]
TAIL = ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc", "-Wl,--eh-frame-hdr"]


def pid(name: str) -> str:
    return f"path+file:///w/{name}#0.1.0"


def d(package: str, value: str, key: str = "rustc-link-lib") -> SourceDirective:
    return SourceDirective(key, value, package, f"/w/{package}/build.rs", 3, f"/t/build/{package}-1/output", 1,
                           package_id=pid(package))


def rlib(crate: str) -> str:
    return f"{DEPS}/lib{crate}-0123456789abcdef.rlib"


UNITS = (
    Unit(pid("bzlink1"), True, rlib("bzlink1")),
    Unit(pid("bzlink2"), True, rlib("bzlink2")),
    Unit(pid("bzstat"), True, rlib("bzstat")),
    Unit(pid("app"), True, rlib("app")),
    Unit(pid("app"), False, None, f"{DEPS}/first-73d7e1da62cc7cc9"),
    Unit(pid("app"), True, None, f"{DEPS}/app-4cdb15929262ac16"),
)


def line(*middle: str) -> list[str]:
    return ["-m64", f"{DEPS}/first-73d7e1da62cc7cc9.0.rcgu.o", "-Wl,--as-needed", "-Wl,-Bstatic",
            *middle, "-o", f"{DEPS}/first-73d7e1da62cc7cc9"]


FIRST = line(rlib("bzlink1"), *STD, "-Wl,-Bdynamic", "-lbz2", *TAIL)


def test_the_copy_belongs_to_the_crate_on_the_line_whatever_order_the_scripts_ran_in():
    for found in ([d("bzlink1", "bz2"), d("bzlink2", "bz2")], [d("bzlink2", "bz2"), d("bzlink1", "bz2")]):
        c = claim(found, FIRST, UNITS, f"{DEPS}/first-73d7e1da62cc7cc9")
        one = next(i for i, x in enumerate(found) if x.package == "bzlink1")
        two = 1 - one
        assert c.where == {one: FIRST.index("-lbz2")} and two not in c.where and not c.doubt
        assert pid("bzlink1") in c.present and pid("bzlink2") not in c.present


def test_dynamic_copies_follow_the_rlib_order_and_static_ones_stand_after_their_rlib():
    args = line(rlib("bzstat"), "-lbz2", rlib("bzlink2"), rlib("bzlink1"), *STD, "-Wl,-Bdynamic",
                "-lz", "-lz", "-lbz2", "-lbz2", *TAIL)
    found = [d("bzlink1", "bz2"), d("bzlink2", "bz2"), d("bzlink2", "z"), d("bzlink2", "bz2"),
             d("bzstat", "static:-bundle=bz2"), d("bzstat", "z")]
    c = claim(found, args, UNITS, f"{DEPS}/first-73d7e1da62cc7cc9")
    dyn = [j for j, a in enumerate(args) if a == "-lbz2"]
    zs = [j for j, a in enumerate(args) if a == "-lz"]
    assert c.where[4] == args.index(rlib("bzstat")) + 1  # static, right after bzstat's rlib
    assert c.where[3] == dyn[1] and c.where[0] == dyn[2]  # bzlink2's rlib comes before bzlink1's
    assert 1 not in c.where  # bzlink2 printed bz2 twice: one copy, the last directive's
    assert siblings(found, 1) == [1, 3]
    assert c.where[5] == zs[0] and c.where[2] == zs[1]
    assert not c.doubt


def test_the_linked_crates_own_libraries_come_before_every_rlib():
    out = f"{DEPS}/app-4cdb15929262ac16"  # app's lib test harness: app's -l are its own
    args = ["-Wl,--as-needed", "-Wl,-Bdynamic", "-lbz2", "-Wl,-Bstatic", rlib("bzlink1"), *STD,
            "-Wl,-Bdynamic", "-lbz2", *TAIL, "-o", out]
    c = claim([d("bzlink1", "bz2"), d("app", "bz2")], args, UNITS, out)
    assert c.where == {1: 2, 0: args.index("-lbz2", 5)}


def test_a_crate_before_it_that_may_link_the_library_itself_is_a_doubt_not_a_guess():
    # app's rlib (no directive of its own) stands first; its metadata cannot be read here.
    args = line(rlib("app"), rlib("bzlink1"), *STD, "-Wl,-Bdynamic", "-lbz2", "-lbz2", *TAIL)
    c = claim([d("bzlink1", "bz2")], args, UNITS, f"{DEPS}/first-73d7e1da62cc7cc9")
    assert 0 not in c.where and "libapp-0123456789abcdef.rlib comes before bzlink1's rlib" in c.doubt[0]


def test_a_recording_without_units_cannot_tell_copies_apart():
    c = claim([d("bzlink1", "bz2")], FIRST, None)
    assert c.where == {} and c.doubt[0] == OLD_RECORDING.format(arg="-lbz2")


def test_a_link_arg_reaches_only_its_own_package_targets():
    args = [*FIRST[:-2], "-lhelper", *FIRST[-2:]]
    found = [d("bzlink2", "-lhelper", key="rustc-link-arg"), d("app", "-lhelper", key="rustc-link-arg")]
    c = claim(found, args, UNITS, f"{DEPS}/first-73d7e1da62cc7cc9")
    assert c.where == {1: args.index("-lhelper")}


def test_the_standard_librarys_own_copy_comes_after_every_crate_of_the_workspace():
    # app and bzlink1 both print `dylib=m`; std's -lm is the third copy, in its tail.
    args = line(rlib("app"), rlib("bzlink1"), *STD, "-Wl,-Bdynamic", "-lm", "-lm", *TAIL)
    c = claim([d("bzlink1", "dylib=m"), d("app", "dylib=m")], args, UNITS, f"{DEPS}/first-73d7e1da62cc7cc9")
    ms = [j for j, a in enumerate(args) if a == "-lm"]
    assert len(ms) == 3 and c.where == {1: ms[0], 0: ms[1]} and not c.doubt

"""The comparison's rules on values: what is a divergence, what is linker noise."""

from __future__ import annotations

from linkgate.divergence.compare import differences
from linkgate.objects.elf import LinkedView


def _view(needed=("libc.so.6",), dyn=(), weak=(), functions=("main", "helper"), defined=None, **sizes):
    return LinkedView(tuple(needed), frozenset(dyn), frozenset(weak),
                      None if functions is None else frozenset(functions),
                      frozenset(defined if defined is not None else functions or ()),
                      {".text": 10_000, ".rodata": 4_000, ".bss": 200, **{f".{k}": v for k, v in sizes.items()}})


def _kinds(a, b, first="default", other="bfd", threshold=0.02):
    return [(d.kind, d.detail) for d in differences("app", first, a, other, b, threshold)]


def test_alike_files_and_linker_noise_are_nothing():
    a = _view(functions=("main", "helper", "__udivti3", "memcpy$plt"), dyn=("statx",), weak=("__gmon_start__",))
    # Versions (helper@@V1, statx@GLIBC_2.28) are not in a view: elf.read_linked drops them.
    b = _view(functions=("main", "helper", "__truncsfhf2"), dyn=("statx", "accept4"),
              weak=(), bss=208, rodata=6_000)
    assert _kinds(a, b) == []


def test_needed_functions_and_sizes_differ():
    a, b = _view(), _view(needed=("libc.so.6", "libz.so.1"), functions=("main",), text=10_300)
    assert [k for k, _ in _kinds(a, b)] == ["needed", "functions", "section-size"]
    assert ("functions", "defined functions: 1 only under default (helper)") in _kinds(a, b)
    assert _kinds(a, b, threshold=0.05)[-1][0] == "functions"


def test_rodata_is_compared_within_a_family_and_resolution_across_files():
    a, b = _view(), _view(rodata=6_000)
    assert [k for k, _ in _kinds(a, b, "bfd", "mold")] == ["section-size"]
    assert _kinds(a, b, "default", "mold") == []
    weak = _view(weak=("on_exit_hook",))
    strong = _view(functions=("main", "helper", "on_exit_hook"))
    assert [k for k, _ in _kinds(weak, strong)] == ["weak-undefined", "functions"]
    loader = _view(dyn=("deflate",))
    inside = _view(functions=("main", "helper", "deflate"))
    assert [k for k, _ in _kinds(loader, inside)] == ["dynamic-undefined", "functions"]


def test_a_file_without_symtab_compares_no_functions():
    assert _kinds(_view(), _view(functions=None, defined=("main",))) == []

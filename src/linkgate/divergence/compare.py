"""Where two linked files of one target differ: what each asks of the loader, what
code it holds, how large its sections are.

What differs between linkers by nature is left out, each for a measured reason
(the demo, ccsys and ordersys linked under all five linkers, both matrix modes):
- symbol versions: GNU ld writes ``statx@GLIBC_2.28`` into ``.symtab`` where lld
  writes ``statx``; names are compared without the ``@`` suffix (elf.read_linked
  reads them so, once per file, not once per comparison);
- undefined dynamic symbols present in one file and absent from the other:
  rust-lld and GNU ld keep a ``.dynsym`` entry only for references from code
  that survives ``--gc-sections``, gold and mold for every reference (the demo's
  ``nativelink``: 70 under rust-lld, 180 under gold and mold, the same calls);
  what counts is a symbol left to the loader in one file and defined inside the
  other (a different library or archive member resolved it);
- mold's own PLT symbols (``memcpy$plt``, ``_Unwind_Resume$pltgot``), which no
  other linker writes into ``.symtab``;
- a file without ``.symtab``: mold 1.x drops the whole table under
  ``--strip-debug``, which rustc passes in release; its functions are not
  compared (a note on the leg says so), the rest is;
- names that begin with ``__``: reserved to the implementation (C11 7.1.3), they
  are compiler-builtins' and libgcc's helpers (``__udivti3``, ``__truncsfhf2``),
  glibc's and the linkers' own (``__bss_start``, ``__init_array_start``); each
  linker pulls and discards a different set of them from the same archives, with
  no effect on the program's own code;
- ``.rodata`` between an lld-family file (rust-lld, lld) and another: lld
  garbage-collects mergeable string sections piece by piece, GNU ld, gold and
  mold by whole section (the demo's ``.rodata``: 22,096 bytes under rust-lld,
  29,968 under GNU ld, same code); within a family it is compared;
- a size difference of less than 64 bytes: section alignment and padding
  (``.bss`` 202 bytes under rust-lld, 208 under GNU ld).
``.comment`` and other sections outside ``SIZED_SECTIONS`` are never compared:
they carry the linker's own name and version.
"""

from __future__ import annotations

from dataclasses import dataclass

from linkgate.objects.elf import SIZED_SECTIONS, LinkedView

SHOWN = 5           # first names shown of a set that differs
PADDING = 64        # bytes: a smaller size difference is alignment
LLD_FAMILY = frozenset({"default", "lld"})


@dataclass(frozen=True)
class Difference:
    """One way *linker*'s file of *target* differs from *first*'s."""

    kind: str       # needed | dynamic-undefined | weak-undefined | functions | section-size
    target: str
    first: str
    linker: str
    detail: str
    only_first: tuple[str, ...] = ()   # names in the first linker's file only (the first SHOWN)
    only_other: tuple[str, ...] = ()
    counts: tuple[int, int] = (0, 0)   # how many names on each side (sizes: the two sizes)
    level: str = "warning"             # "error" under divergence = "fail"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "target": self.target, "linkers": [self.first, self.linker],
                "detail": self.detail, "only_first": list(self.only_first), "only_other": list(self.only_other),
                "counts": list(self.counts), "level": self.level}


def _own(names: frozenset[str]) -> frozenset[str]:
    return frozenset(n for n in names if not n.startswith("__") and "$plt" not in n)


def _sets(kind: str, what: str, a: frozenset[str], b: frozenset[str], ctx: tuple[str, str, str]) -> list[Difference]:
    target, first, linker = ctx
    gone, new = sorted(a - b), sorted(b - a)
    if not gone and not new:
        return []
    parts = [f"{len(gone)} only under {first}" if gone else "", f"{len(new)} only under {linker}" if new else ""]
    shown = ", ".join([*gone[:SHOWN], *new[:SHOWN]])
    detail = f"{what}: " + "; ".join(p for p in parts if p) + f" ({shown}{' ...' if len(gone) + len(new) > 2 * SHOWN else ''})"
    return [Difference(kind, target, first, linker, detail, tuple(gone[:SHOWN]), tuple(new[:SHOWN]),
                       (len(gone), len(new)))]


def differences(target: str, first: str, a: LinkedView, linker: str, b: LinkedView,
                threshold: float = 0.02) -> list[Difference]:
    """How *b* (under *linker*) differs from *a* (under *first*); empty when alike."""
    ctx = (target, first, linker)
    out = _sets("needed", "NEEDED", frozenset(a.needed), frozenset(b.needed), ctx)
    da, db = a.defined, b.defined
    # Resolved differently: left to the loader in one file, defined inside the other.
    ua, ub = _own(a.dynamic_undefined), _own(b.dynamic_undefined)
    out += _sets("dynamic-undefined", "symbols left to the loader in one file, defined inside the other",
                 frozenset(ua & db), frozenset(ub & da), ctx)
    # A weak reference resolved in one file and null in the other: weak-undefined
    # on one side, defined on the other.
    wa, wb = _own(a.weak_undefined), _own(b.weak_undefined)
    out += _sets("weak-undefined", "weak symbols resolved in one file only (null in the other)",
                 frozenset(wb & da), frozenset(wa & db), ctx)
    if a.functions is not None and b.functions is not None:
        out += _sets("functions", "defined functions", _own(a.functions), _own(b.functions), ctx)
    for name in SIZED_SECTIONS:
        if name == ".rodata" and (first in LLD_FAMILY) != (linker in LLD_FAMILY):
            continue
        sa, sb = a.sizes.get(name, 0), b.sizes.get(name, 0)
        if abs(sa - sb) >= PADDING and abs(sa - sb) > threshold * max(sa, sb):
            pct = 100 * (sb - sa) / max(sa, 1)
            out.append(Difference("section-size", target, first, linker,
                                  f"{name}: {sa} bytes under {first}, {sb} under {linker} ({pct:+.1f} %)",
                                  counts=(sa, sb)))
    return out

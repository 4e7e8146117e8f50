"""Which argument of a link line each build-script directive put there.

Several packages may print the same ``rustc-link-lib`` (two -sys crates that
both link ``bz2``). Each copy of ``-lbz2`` on a link line belongs to one
crate, and a control that drops one package's directive must remove that
copy and no other, or none when that package's crate is not on the line.
rustc writes a link line in a fixed shape (rustc 1.95, measured with a linker
wrapper on tests/fixtures/bzpair and three more packages):

- the crate being linked lists its own native libraries first, before any
  rlib (cargo gives a build script's ``-l`` to the package's library target,
  or to every target when the package has none);
- then each upstream crate's rlib in rustc's crate order, each followed by
  its unbundled static libraries (``static:-bundle``);
- then, after the last rlib, every upstream crate's dynamic libraries, crate
  by crate in the same order, one copy per crate (a crate that prints a
  library twice keeps the last).

So a package's copy is found from which rlibs stand on that line (cargo's
``compiler-artifact`` records name each rlib's package: :class:`Unit`) and
what each of those packages printed, never from the order the build scripts
happened to run in. A crate before it on the line whose libraries linkgate
cannot read (a ``#[link]`` attribute, the standard library) makes the copy
uncertain: :attr:`Claims.doubt` says so, and callers refuse rather than guess.

``rustc-link-arg`` values are appended verbatim after rustc's own arguments,
in the order printed, to the package's own targets only: each claims the last
unclaimed equal argument of a line that links one of them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.cargo import linklib
from linkgate.objects.ar import read_member
from linkgate.replay.directives import SourceDirective

OLD_RECORDING = ("the recording does not say which package each rlib belongs to (made by an older linkgate), so "
                 "the copy of {arg} a package put on the line cannot be told")


@dataclass(frozen=True)
class Unit:
    """A unit cargo built, as the recording keeps it (``compiler-artifact``)."""

    package_id: str
    lib: bool                # a library target (its test harness too)
    rlib: str | None = None  # the rlib it wrote
    output: str | None = None  # the file a linker wrote

    def to_dict(self) -> dict[str, Any]:
        return {"package_id": self.package_id, "lib": self.lib, "rlib": self.rlib, "output": self.output}


def units_from(raw: Any) -> tuple[Unit, ...] | None:
    """The recording's ``units``; None when absent (a recording made before they were kept)."""
    if not isinstance(raw, list):
        return None
    return tuple(
        Unit(str(u.get("package_id", "")), bool(u.get("lib")), u.get("rlib") or None, u.get("output") or None)
        for u in raw if isinstance(u, dict)
    )


@dataclass(frozen=True)
class Claims:
    where: dict[int, int] = field(default_factory=dict)  # directive index -> argument index
    doubt: dict[int, str] = field(default_factory=dict)  # directive index -> why its copy cannot be told
    present: frozenset[str] = frozenset()  # package ids whose crate this line links (own or by rlib)


@dataclass(frozen=True)
class _Line:
    args: Sequence[str]
    rlibs: list[tuple[int, str | None]]  # (position, package id or None: not built by cargo)
    own: str | None                       # the package whose build-script -l are this crate's own
    own_package: str | None               # the package of the unit this line links

    def rlib_of(self, package_id: str) -> list[int]:
        return [j for j, p in self.rlibs if p == package_id]


def _norm(path: str, cwd: str | None) -> str:
    return os.path.normpath(os.path.join(cwd or "", path))


def _line(args: Sequence[str], units: Sequence[Unit], output: str | None, cwd: str | None) -> _Line:
    by_rlib = {_norm(u.rlib, None): u.package_id for u in units if u.rlib}
    with_rlib = {u.package_id for u in units if u.rlib}
    rlibs = [(j, by_rlib.get(_norm(a, cwd))) for j, a in enumerate(args) if a.endswith(".rlib") and not a.startswith("-")]
    name = os.path.basename(output or "")
    unit = next((u for u in units if u.output and os.path.basename(u.output) == name), None) if name else None
    own = None
    if unit is not None and (unit.lib or unit.package_id not in with_rlib):
        own = unit.package_id
    return _Line(args, rlibs, own, unit.package_id if unit else None)


def _mentions(rlib: str, name: str) -> bool:
    """Might this crate link *name* itself (``#[link(name = ...)]``)? Its metadata holds the
    name as a string then (checked with rustc 1.95 for bz2, z, m, dl, rt, pthread, ssl); a
    match may also be any identifier containing it, which only makes the answer "maybe".
    A name too short to search for (``c``: rustc keeps it as a built-in symbol) counts as
    mentioned."""
    if len(name) < 3:
        return True
    data = read_member(Path(rlib), "lib.rmeta")
    return data is None or name.encode() in data


def _dynamic(i: int, directives: Sequence[SourceDirective], line: _Line, reserved: frozenset[int],
             where: dict[int, int], doubt: dict[int, str]) -> None:
    """The copy of a dynamic library after the last rlib: one per crate, in rlib order."""
    d = directives[i]
    arg, name = d.argument, linklib.parse(d.value).name
    last = line.rlibs[-1][0]
    copies = [j for j in range(last + 1, len(line.args)) if line.args[j] == arg and j not in reserved]
    contributors: list[str] = []
    for _, pkg in line.rlibs:
        if pkg is not None and pkg not in contributors and any(
            o.package_id == pkg and o.key == "rustc-link-lib" and o.argument == arg
            and linklib.parse(o.value).kind != "static" for o in directives
        ):
            contributors.append(pkg)
    rank = contributors.index(d.package_id)
    if len(copies) < len(contributors):
        doubt[i] = (f"{len(contributors)} crates on the link line print {arg} but it is there "
                    f"{len(copies)} times after the rlibs; which copy is {d.package}'s cannot be told")
        return
    if len(copies) > len(contributors):
        # Some copies come from crates whose libraries no build script printed: the standard
        # library's (its rlibs stand after every crate of the workspace, and so do its copies)
        # or a #[link] attribute. One before this crate would shift which copy is its own.
        mine = line.rlib_of(d.package_id)[0]
        # A crate whose build script names the library fixes its kind there (the command line
        # overrides a #[link] of the same name), so only crates silent about it are unknowns.
        known = {o.package_id for o in directives if o.key == "rustc-link-lib" and linklib.parse(o.value).name == name}
        for j, pkg in line.rlibs:
            if j >= mine:
                break
            if pkg in known:
                continue
            rlib = line.args[j]
            if pkg is None or _mentions(rlib, name):
                doubt[i] = (f"{os.path.basename(rlib)} comes before {d.package}'s rlib on the link line, and "
                            f"linkgate cannot read whether that crate links {arg} itself, so which of the "
                            f"{len(copies)} copies of {arg} is {d.package}'s cannot be told")
                return
    where[i] = copies[rank]


def _library(i: int, directives: Sequence[SourceDirective], line: _Line, taken: set[int],
             reserved: frozenset[int], where: dict[int, int], doubt: dict[int, str]) -> None:
    d = directives[i]
    arg, lib = d.argument, linklib.parse(d.value)
    if d.package_id == line.own:
        end = line.rlibs[0][0] if line.rlibs else len(line.args)
        hit = next((j for j in range(end) if line.args[j] == arg and j not in taken), None)
        if hit is not None:
            where[i] = hit
            taken.add(hit)
        return
    mine = line.rlib_of(d.package_id)
    if not mine:
        if not line.rlibs and arg in line.args:
            # No rlib on the line at all (LTO merges them): whose copy this is cannot be read.
            doubt[i] = f"the link line names no rlib (LTO?), so whether {arg} there is {d.package}'s cannot be told"
        return
    if len(mine) > 1:
        doubt[i] = f"{d.package} has {len(mine)} rlibs on the link line; which one's {arg} this is cannot be told"
        return
    if lib.bundled:
        return  # its objects are inside the rlib: no -l for it on this line
    if lib.kind == "static":
        nxt = next((j for j, _ in line.rlibs if j > mine[0]), len(line.args))
        hit = next((j for j in range(mine[0] + 1, nxt) if line.args[j] == arg and j not in taken), None)
        if hit is None:
            doubt[i] = f"{arg} is not right after {d.package}'s rlib, where rustc puts an unbundled static library"
            return
        where[i] = hit
        taken.add(hit)
        return
    _dynamic(i, directives, line, reserved, where, doubt)


def claim(
    directives: Sequence[SourceDirective], args: Sequence[str], units: Sequence[Unit] | None,
    output: str | None = None, cwd: str | None = None,
) -> Claims:
    """Each directive's argument on this link line (*output*: the file it writes)."""
    where: dict[int, int] = {}
    doubt: dict[int, str] = {}
    taken: set[int] = set()
    line = _line(args, units or (), output, cwd)
    # rustc-link-arg values stand after everything rustc writes: claim them first, from the end.
    for i in sorted((i for i, d in enumerate(directives) if d.key != "rustc-link-lib"), reverse=True):
        d = directives[i]
        if line.own_package is not None and d.package_id and d.package_id != line.own_package:
            continue  # rustc-link-arg reaches only the printing package's own targets
        hits = [j for j, a in enumerate(args) if a == d.argument and j not in taken]
        if hits:
            where[i] = hits[-1]
            taken.add(hits[-1])
    reserved = frozenset(taken)  # the rustc-link-arg copies; a library's copies are the others
    libs = [i for i, d in enumerate(directives) if d.key == "rustc-link-lib"]
    # A package that prints a library twice has one copy on the line: the last directive's.
    last: dict[tuple[str, str], int] = {}
    for i in libs:
        last[(directives[i].package_id, directives[i].argument)] = i
    for i in libs:
        if units is None:
            if directives[i].argument in args:
                doubt[i] = OLD_RECORDING.format(arg=directives[i].argument)
        elif last[(directives[i].package_id, directives[i].argument)] == i:
            _library(i, directives, line, taken, reserved, where, doubt)
    present = {p for _, p in line.rlibs if p is not None} | ({line.own} if line.own else set())
    return Claims(where, doubt, frozenset(present))


def siblings(directives: Sequence[SourceDirective], i: int) -> list[int]:
    """The directives that put the same copy on a line as *i* (the package printed it more than once)."""
    d = directives[i]
    return [k for k, o in enumerate(directives)
            if (o.package_id, o.key, o.argument) == (d.package_id, d.key, d.argument) and d.key == "rustc-link-lib"] or [i]

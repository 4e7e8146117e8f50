"""Archive order: a symbol one archive needs, defined by an archive placed before it.

GNU ld and gold search each archive once, when they reach it on the command
line, and only for the symbols undefined so far; an archive must therefore
come after every archive that uses it. rust-lld, lld and mold search all
archives whenever a symbol is undefined, so the same line links there
(FACTS.md, "Which linker runs"). Two ways to see it:

- a failed GNU ld or gold link says "undefined reference" to a symbol that an
  archive on that very line defines (its symbol index says so): the cause is
  the order, never a missing library;
- lld's ``--warn-backrefs`` prints "backward reference detected" for each
  reference GNU ld would not resolve, on a link that succeeds (FACTS.md,
  "Archive order under lld").
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from linkgate.diagnose.archives import LinkArchive, archives_on_line
from linkgate.diagnose.model import Diagnostic
from linkgate.objects.ar import symbol_index

# "rust-lld: backward reference detected: helper_fn in /o/libshim.a(shim.o) refers to /o/libhelper.a(helper.o)"
# (ld.lld 14 puts "warning: " before "backward"); the referrer may be a plain object.
BACKREF = re.compile(
    r"backward reference detected: (?P<sym>\S+) in (?P<user>.+?) refers to (?P<definer>.+?)\s*$"
)
# An archive member as linkers print it: "/p/libx.a(x.o)", GNU ld adds ":(function)".
_MEMBER = re.compile(r"^(?P<archive>.+?\.(?:a|rlib))\((?P<member>[^)]*)\)")


@dataclass(frozen=True)
class Placed:
    """One archive where it stands on the link line."""

    path: str
    spelling: str  # as written: -lfoo, -l:libfoo.a or a path; the file name when unknown
    position: int | None  # index among the link line's words; None when unknown


def _archive_of(where: str | None) -> str | None:
    m = _MEMBER.match(where or "")
    return m["archive"] if m else None


def _flat(args: Sequence[str]) -> list[str]:
    out: list[str] = []
    for a in args:
        out.extend(a[4:].split(",") if a.startswith("-Wl,") else [a])
    return out


def _place(path: str, archives: Sequence[LinkArchive], args: Sequence[str]) -> Placed:
    """Find *path* (an archive a linker named) on the line: resolved ``-l`` first, then by file name."""
    name = os.path.basename(path)
    for a in archives:
        if str(a.path) == path or a.path.name == name:
            return Placed(str(a.path), a.spelling, a.position)
    for i, word in enumerate(_flat(args)):
        # rustc elides rlibs as "/d/{liba-1,libb-2}.rlib"; a plain path ends with the name.
        if word.endswith(name) or (name.endswith(".rlib") and name[:-5] in word):
            return Placed(path, word if word.endswith(name) else name, i)
    return Placed(path, name, None)


_RLIB = re.compile(r"^lib(?P<crate>.+)-[0-9a-f]+\.rlib$")


def crate_of(path: str) -> str | None:
    """``/d/libneedsys-7505a2dc.rlib`` -> ``needsys``; None for anything but a cargo-built rlib."""
    m = _RLIB.match(os.path.basename(path))
    return m["crate"] if m else None


def _say(p: Placed) -> str:
    name = os.path.basename(p.path)
    crate = crate_of(p.path)
    if crate is not None:
        return f"`{crate}`'s rlib ({name})"
    return f"`{p.spelling}` ({name})" if p.spelling != name else f"`{name}`"


def describe(symbol: str, definer: Placed, user: Placed | None, *, passed: bool) -> tuple[str, str]:
    """The message (both archives, in their order) and the hint (what to move, or group)."""
    needs = _say(user) if user else "the objects that need it"
    message = (
        f"`{symbol}` is needed by {needs} but defined in {_say(definer)}, which comes before it on the "
        f"link line ({_say(definer)} then {needs})"
    )
    defining, using = crate_of(definer.path), crate_of(user.path) if user else None
    if defining and using:
        # Both are rlibs (the libraries rustc bundled into them): rustc, not a build
        # script, orders them, putting a crate before the crates it depends on.
        hint = (
            f"rustc places each crate's rlib before the crates it depends on, and `{using}` does not depend "
            f"on `{defining}`: add `{defining}` to the [dependencies] of `{using}` and `use {defining} as _;` "
            f"to its lib.rs, so `{defining}`'s rlib (and the library it bundles) comes after it. "
            + explanation(symbol, passed=passed)
        )
        return message, hint
    hint = (
        f"Move `{definer.spelling}` after " + (f"`{user.spelling}`" if user else "the archives that use it")
        + ", or wrap both in `-Wl,--start-group ... -Wl,--end-group`. " + explanation(symbol, passed=passed)
    )
    return message, hint


def explanation(symbol: str, *, passed: bool) -> str:
    """Why the order matters, and to which linkers."""
    why = (
        "GNU ld and gold search each archive once, left to right, so an archive must come after every "
        "archive that uses it."
    )
    if passed:
        return (
            f"{why} This link passed only because lld searches archives in any order; under GNU ld or "
            f"gold it fails with an undefined reference to `{symbol}`."
        )
    return f"{why} (rust-lld and mold accept any order, which is why this can pass locally and fail under GNU ld.)"


def from_undefined(d: Diagnostic, archives: Sequence[LinkArchive], args: Sequence[str]) -> Diagnostic | None:
    """*d* as an archive-order diagnostic when an archive on the line defines its symbol, before its user."""
    if d.symbol is None or d.kind != "undefined-symbol" or d.linker not in ("gnu-ld", "gold", None):
        return None
    definers = [a for a in archives if d.symbol in symbol_index(a.path)]
    if not definers:
        return None
    definer = definers[-1]
    user = None
    for ref in d.references or ((d.referenced_from,) if d.referenced_from else ()):
        archive = _archive_of(ref)
        if archive is not None:
            user = _place(archive, archives, args)
            break
    if user is not None and user.position is not None and definer.position > user.position:
        return None  # defined after its user: GNU ld would have found it; something else is wrong
    placed = Placed(str(definer.path), definer.spelling, definer.position)
    message, hint = describe(d.shown_symbol or d.symbol, placed, user, passed=False)
    return replace(
        d, kind="archive-order", message=message, hint=hint, library=str(definer.path),
        archives=(str(definer.path), *((user.path,) if user else ())),
    )


def from_backrefs(
    lines: Sequence[tuple[int, str]], *, args: Sequence[str] = (), cwd: Path | None = None, linker: str = "lld"
) -> list[Diagnostic]:
    """One warning-level archive-order diagnostic per (definer, user) pair lld reported
    in *lines* (numbered); *args*, the link line, gives each archive's spelling."""
    archives = archives_on_line(args, cwd) if args else []
    found: dict[tuple[str, str], Diagnostic] = {}
    for number, line in lines:
        m = BACKREF.search(line) if "backward reference" in line else None
        if m is None:
            continue
        definer_path = _archive_of(m["definer"]) or m["definer"]
        user_path = _archive_of(m["user"]) or m["user"]
        key = (definer_path, user_path)
        if key in found:
            d = found[key]
            found[key] = replace(d, count=d.count + 1, examples=d.examples + ((line.strip(),) if len(d.examples) < 5 else ()))
            continue
        definer, user = _place(definer_path, archives, args), _place(user_path, archives, args)
        message, hint = describe(m["sym"], definer, user, passed=True)
        found[key] = Diagnostic(
            "archive-order", message, linker, symbol=m["sym"], referenced_from=m["user"], library=definer_path,
            examples=(line.strip(),), hint=hint, line=number, references=(m["user"],), level="warning",
            archives=(definer_path, user_path),
        )
    return list(found.values())

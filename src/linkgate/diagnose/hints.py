"""What to do about each diagnosis, from its kind and the evidence at hand."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from linkgate.diagnose.archives import LinkArchive, NativeArchive
from linkgate.diagnose.model import Diagnostic
from linkgate.objects.ar import member_names, symbol_index
from linkgate.diagnose.order import from_undefined

_SONAME = re.compile(r"^lib(?P<name>.+?)\.(?:so(?:\.[0-9.]+)?|a|dylib|tbd)$")


@dataclass(frozen=True)
class Evidence:
    """What is known about the failing link besides its output."""

    archives: Sequence[LinkArchive] = ()
    args: Sequence[str] = ()  # the link line, when known
    search_paths: Sequence[str] = ()
    searched: Sequence[str] = ()  # files GNU ld --verbose tried
    native: Sequence[NativeArchive] = ()  # static libraries the build scripts made and linked
    profile: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def library_flag(path: str) -> str:
    """``/x/libz.so.1`` -> ``-lz``; an unconventional name gets ``-l:<file>``."""
    name = Path(path).name
    m = _SONAME.match(name)
    return f"-l{m['name']}" if m else f"-l:{name}"


def _dso_missing(d: Diagnostic) -> str:
    flag = library_flag(d.library or "")
    lib = Path(d.library).name if d.library else "the library"
    sym = f"`{d.shown_symbol}`" if d.symbol else "the symbol"
    return (
        f"{sym} is defined in {lib}, which this link reaches only through another library's "
        f"DT_NEEDED entry, and GNU ld does not search those. Add `{flag}` after the archive or "
        f"object that uses {sym} (in a build script: `cargo::rustc-link-lib={flag[2:]}` next to "
        "the library that needs it). rustc emits its own `-lc` and system libraries before "
        "anything `rustc-link-arg` appends, so a library appended that way must be followed by "
        "everything it needs."
    )


def _order_from_native(d: Diagnostic, ev: Evidence) -> Diagnostic | None:
    """Without the link line: the static libraries the build scripts linked, in the order
    they printed them (rustc keeps that order on the line)."""
    if ev.args or not ev.native:
        return None
    placed = [
        LinkArchive(i, f"-l{n.path.name[3:-2]}" if n.path.name.startswith("lib") else str(n.path), n.path)
        for i, n in enumerate(ev.native)
    ]
    return from_undefined(d, placed, ())


def _undefined(d: Diagnostic, ev: Evidence) -> str | None:
    if d.symbol is None:
        return None
    own = _missing_from_own_archive(d, ev.native) or _not_in_built_archives(d, ev.native)
    if own:
        return own
    where = f" (referenced from {d.referenced_from})" if d.referenced_from else ""
    return (
        f"Nothing on the link line defines `{d.shown_symbol}`{where}. Link the library that "
        "provides it (`cargo::rustc-link-lib=NAME` in the build script, or `-lNAME`), or check "
        "that the feature or cfg that compiles it in is enabled."
    )


# "libzsys-41c0f6df27e14b96.rlib(deflate.o)" or "/out/libzlite.a(deflate.o)", then ":(function)".
_MEMBER = re.compile(r"^(?P<archive>.+?\.(?:a|rlib))\((?P<member>[^)]+)\)")
_RLIB = re.compile(r"^lib(?P<crate>.+)-[0-9a-f]+\.rlib$")


def _missing_from_own_archive(d: Diagnostic, native: Sequence[NativeArchive]) -> str | None:
    """The symbol is used by C code a build script compiled, and no archive it made defines it.

    rustc bundles a ``static=`` library into the crate's rlib, so GNU ld and
    lld name the member inside ``lib<crate>-<hash>.rlib``; with ``-bundle``
    they name the ``.a`` itself. Either way the member is one of the
    objects the build script archived.
    """
    if not native or d.symbol is None:
        return None
    if any(d.symbol in symbol_index(n.path) for n in native):
        return None  # defined on the line after all: an order problem, not a missing source
    for ref in d.references or ((d.referenced_from,) if d.referenced_from else ()):
        m = _MEMBER.match(ref)
        if m is None or m["member"].endswith(".rcgu.o"):
            continue  # not an archive member, or Rust code
        archive, member = Path(m["archive"]), m["member"]
        crate = _RLIB.match(archive.name)
        for n in native:
            same = n.path == archive or n.path.name == archive.name
            bundled = crate is not None and crate["crate"] == n.package.replace("-", "_")
            if (same or bundled) and member in member_names(n.path):
                script = f" ({n.build_script})" if n.build_script else ""
                return (
                    f"`{d.shown_symbol}` is used by {member} in {n.path.name}, which the build script of "
                    f"{n.package}{script} compiles and archives, and no archive it links defines "
                    f"`{d.shown_symbol}`. The source file that defines it is most likely missing from the "
                    "build script's list of sources (a `cc::Build::file`/`files` call, or the list it "
                    "compiles): add it. If the symbol comes from a system library instead, link that "
                    "library (`cargo::rustc-link-lib=NAME`)."
                )
    return None


def _not_in_built_archives(d: Diagnostic, native: Sequence[NativeArchive]) -> str | None:
    """Referenced from Rust (an ``extern`` block of a -sys crate) or from where we cannot
    tell, while the build scripts' own static libraries are linked and none defines it."""
    if not native or d.symbol is None or any(d.symbol in symbol_index(n.path) for n in native):
        return None
    made = ", ".join(f"{n.path.name} ({n.package}{', ' + n.build_script if n.build_script else ''})"
                     for n in native[:3]) + (" and more" if len(native) > 3 else "")
    return (
        f"Nothing on the link line defines `{d.shown_symbol}`, and the static libraries the build "
        f"scripts made are linked: {made}; none of them defines it. If one of them should (the "
        "symbol is declared in that crate's `extern` block), the source file that defines it is "
        "missing from its build list, renamed, or compiled out by a #if or a define: check the "
        "build script's sources. Otherwise link the library that provides it "
        "(`cargo::rustc-link-lib=NAME`)."
    )


def _library_not_found(d: Diagnostic, ev: Evidence) -> str:
    lib = d.library or "the library"
    if d.linker == "rustc":
        # rustc looks for lib<name>.a itself while it bundles the library into the rlib.
        return (
            f"rustc found no `lib{lib}.a` in any search directory while building the crate whose "
            f"build script says `rustc-link-lib=static={lib}`; no linker ran. Make the build script "
            "produce that archive before printing the directive, add its directory with "
            "`cargo::rustc-link-search=native=DIR`, or correct the name."
        )
    text = f"The linker found no `{lib}`."
    tried = list(ev.searched) or [str(p) for p in ev.search_paths]
    if tried:
        shown = ", ".join(tried[:8]) + (" ..." if len(tried) > 8 else "")
        text += f" It looked in: {shown}."
    return text + (
        " Install it (its -dev package), or add its directory with "
        "`cargo::rustc-link-search=native=DIR` (or `-L DIR`), or correct the name."
    )


_STATIC = {
    "duplicate-symbol": "Two inputs define the same symbol. Remove one definition, make one "
    "`static`/non-exported, or stop linking both copies (a library pulled in twice, or a "
    "vendored copy next to a system one).",
    "relocation-overflow": "A 32-bit PC-relative relocation cannot reach its target: code plus "
    "data over 2 GiB, usually one huge static array. Move the big data to the heap, or build "
    "with a larger code model (`-C code-model=medium` in RUSTFLAGS, `-mcmodel=medium` for C); "
    "GNU ld's GOTPCREL form also says to relink with `-Wl,--no-relax`. The optimisation profile "
    "matters: opt-level, LTO and codegen-units change code size and layout, so link the profile "
    "you ship.",
    "incompatible-input": "An input was built for another architecture or is not an object "
    "file. Rebuild it for this target (check the target triple and CC/AR for cross builds), "
    "or point the search path at the right copy.",
    "linker-not-found": "The linker program is missing. Install it or fix `linker =` / "
    "`-C linker=` / `-fuse-ld=` in .cargo/config.toml or RUSTFLAGS.",
    "unknown": "The link failed, but linkgate recognises none of the linker's lines: read them in "
    "the log (`linkgate run --format json` keeps them as linker_output).",
    "linker-crashed": "The linker died, usually killed by the out-of-memory killer. Give the "
    "job more memory, link fewer things at once (`cargo build -j1`), or reduce debug info "
    "(`-C debuginfo=1` or `split-debuginfo`).",
}


def with_hints(diags: list[Diagnostic], evidence: Evidence | None = None) -> list[Diagnostic]:
    ev = evidence or Evidence()
    out = []
    for d in diags:
        hint: str | None
        if d.kind == "dso-missing":
            hint = _dso_missing(d)
        elif d.kind == "undefined-symbol":
            order = from_undefined(d, ev.archives, ev.args) or _order_from_native(d, ev)
            if order is not None:
                out.append(order)
                continue
            hint = _undefined(d, ev)
        elif d.kind == "library-not-found":
            hint = _library_not_found(d, ev)
        else:
            hint = _STATIC.get(d.kind)
        out.append(replace(d, hint=hint) if hint else d)
    return out

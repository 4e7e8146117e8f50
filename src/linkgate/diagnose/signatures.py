"""What each linker family says, as regular expressions with named groups.

Wording was captured from real links on x86_64 Debian 12 (GNU ld 2.40,
gold 1.16, Debian lld 14, rust-lld from rustc 1.95, mold 1.10.1; see
tests/fixtures/linker-output/) and, for ld64 and link.exe, taken from their
documented formats. Groups: ``sym`` symbol, ``lib`` library, ``obj`` object
or archive member, ``fn`` referencing function, ``path`` a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Literal substrings that every line worth parsing contains. The streaming
# reader looks for these with bytes.find, which runs at memory speed; a
# regex alternation in Python's re is about 7x slower (measured: 20 MB/s vs
# 140 MB/s on a 50 MB build log). Keep the list short: each entry is a pass.
TRIGGERS: tuple[str, ...] = (
    "defin",  # undefined reference/symbol, Undefined symbols, multiple definition, already defined
    "ld:",  # /usr/bin/ld:, ld.lld:, rust-lld:, mold:, ld64's ld:
    "find ",  # cannot find -lX, unable to find library
    "referenced from",  # ld64: one line per undefined symbol
    "DSO missing",  # GNU ld names itself ld.bfd: on this line
    "not found",
    "duplicate symbol",
    "relocation",
    "ncompatible",
    "format",  # file format not recognized, file in wrong format
    "LNK",
    "signal",
    "memory",
    "attempt to open",
    "linking with `",  # rustc: the link failed, whatever the linker said
    "native library",  # rustc's own recipe errors, before any linker runs
    ">>> ",  # lld and mold list every reference on lines of their own
    "in function `",  # GNU ld's header over undefined references (also spelt "ld.bfd:")
    "build-script-executed",  # cargo's JSON record of what a build script linked: evidence for hints
    '"-o" "',  # rustc's quoted linker command line: which archives, in which order
    "exit status",  # collect2's "ld returned 1 exit status": a link failed, whatever else was said
    "with exit code",  # clang's "linker command failed with exit code 1"
)


@dataclass(frozen=True)
class Signature:
    kind: str
    pattern: re.Pattern[str]
    linker: str | None = None  # None: decided from the line's prefix


def _s(kind: str, pattern: str, linker: str | None = None) -> Signature:
    return Signature(kind, re.compile(pattern), linker)


# Lines that only summarise what earlier lines said.
IGNORE = re.compile(
    r"ld returned \d+ exit status|symbol\(s\) not found for architecture|"
    r"LNK1120: \d+ unresolved externals|LNK1169: one or more multiply defined|"
    r"^Undefined symbols for architecture|^ld: Undefined symbols:$|"
    r"\d+ duplicate symbols? for architecture|too many errors emitted|"
    r"linker command failed with exit code|previous definition here"
)

# rustc's header over a failed link. Not a diagnosis by itself: the linker's
# lines follow. Only when none of them is recognised does the header become an
# `unknown` diagnostic, so a failed link is never reported as "no problem".
RUSTC_LINK_FAILED = re.compile(r"^(?:error: )?linking with `(?P<path>[^`]+)` failed: exit (?:status|code):? ?(?P<code>-?\d+)")

# The compiler driver's word that the linker it ran failed (gcc's collect2,
# clang). Like rustc's header, not a diagnosis by itself; when nothing since
# the previous one was classified, the failed link is `unknown`, never clean.
LINK_EXIT = re.compile(r"collect2: (?:fatal )?error: ld returned (?P<code>\d+) exit status|"
                       r"linker command failed with exit code (?P<code2>\d+)")

# GNU ld's first half of "DSO missing": held until the second half arrives.
GNU_DSO_SYMBOL = re.compile(r"undefined reference to symbol '(?P<sym>[^']+)'")
GNU_DSO_LIBRARY = re.compile(r"(?P<path>\S+): error adding symbols: DSO missing from command line")
# GNU ld prints the referencing function on the line before the error.
GNU_IN_FUNCTION = re.compile(r"^(?:\S+: )?(?P<obj>\S+): in function `(?P<fn>.+)':$")
# lld and mold: ">>> referenced by main.c" then ">>>   main.o:(main)"; an
# archive member adds " in archive /p/libx.a" (lld), and without debug info
# lld puts it all on one line: ">>> referenced by a.o:(a_fn) in archive ./liba.a".
LLD_REFERENCED = re.compile(
    r"^>>>\s+(?:referenced by )?(?P<obj>\S.*?):\((?P<fn>.+?)\)(?: in archive (?P<archive>\S.*))?$"
)
# The source line of a reference, when the objects carry debug info (FACTS.md,
# measured with rustc 1.95 on a dev build): rust-lld and ld.lld say
# ">>> referenced by main.rs:3 (src/main.rs:3)", the path relative to rustc's
# working directory; GNU ld "/abs/src/main.rs:3: undefined reference to `x'" under
# its "in function" line; gold "src/main.rs:3: error: undefined reference to 'x'".
# mold 1.10 names only the codegen unit.
LLD_SOURCE = re.compile(r"^>>>\s+referenced by (?P<short>\S+?):(?P<sline>\d+)(?: \((?P<path>.+):(?P<line>\d+)\))?$")
SOURCE_PREFIX = re.compile(r"^(?:\S+: )?(?P<path>[^\s:]+\.rs):(?P<line>\d+): ")
# ld64: `      _main in main.o` after `"_x", referenced from:`.
LD64_REFERENCED = re.compile(r"^(?P<fn>\S+) in (?P<obj>\S+)$")
# GNU ld --verbose lists every file it tried.
SEARCH_ATTEMPT = re.compile(r"attempt to open (?P<path>\S+) failed")

SIGNATURES: tuple[Signature, ...] = (
    # undefined-symbol
    _s("undefined-symbol", r"undefined reference to `(?P<sym>.+)'$", "gnu-ld"),
    _s(
        "undefined-symbol",
        r"^(?P<obj>[^:]+):(?:[^:]*:)?function (?P<fn>.+?): error: undefined reference to '(?P<sym>.+)'$",
        "gold",
    ),
    _s("undefined-symbol", r"error: undefined reference to '(?P<sym>.+)'$", "gold"),
    _s("undefined-symbol", r"error: undefined symbol: (?P<sym>.+)$"),
    _s("undefined-symbol", r'^"(?P<sym>[^"]+)", referenced from:$', "ld64"),
    _s("undefined-symbol", r"^(?P<sym>[^\s,]+), referenced from:$", "ld64"),
    _s(
        "undefined-symbol",
        r"^(?P<obj>.+?) : error LNK2019: unresolved external symbol (?P<sym>.+?) referenced in function (?P<fn>.+)$",
        "link.exe",
    ),
    _s("undefined-symbol", r"^(?P<obj>.+?) : error LNK2001: unresolved external symbol (?P<sym>.+)$", "link.exe"),
    # rustc's own recipe errors while it bundles native static libraries into an rlib
    _s("library-not-found", r"could not find native static library `(?P<lib>[^`]+)`", "rustc"),
    _s("incompatible-input", r"failed to add native library (?P<obj>\S+?): ", "rustc"),
    # library-not-found
    _s("library-not-found", r"cannot find -l(?P<lib>[^\s:]+)"),
    _s("library-not-found", r"unable to find library -l(?P<lib>\S+)"),
    _s("library-not-found", r"library not found for -l(?P<lib>\S+)", "ld64"),
    _s("library-not-found", r"library not found: (?P<lib>\S+)", "mold"),
    _s("library-not-found", r"LNK(?:1181|1104): cannot open (?:input )?file '(?P<lib>[^']+)'", "link.exe"),
    _s("library-not-found", r"cannot find (?P<lib>\S+\.(?:a|so|o|lib))\b"),
    # duplicate-symbol
    _s("duplicate-symbol", r"multiple definition of `(?P<sym>.+?)'(?:; (?P<obj>.+?): first defined here)?$", "gnu-ld"),
    _s("duplicate-symbol", r"error: (?P<obj>\S+): multiple definition of '(?P<sym>.+)'$", "gold"),
    _s("duplicate-symbol", r"^mold: error: duplicate symbol: (?P<obj>\S+): \S+: (?P<sym>.+)$", "mold"),
    _s("duplicate-symbol", r"error: duplicate symbol: (?P<sym>.+)$"),
    _s("duplicate-symbol", r"^duplicate symbol '?(?P<sym>[^' ]+)'? in:$", "ld64"),
    _s("duplicate-symbol", r"^(?P<obj>.+?) : error LNK2005: (?P<sym>.+?) already defined in \S+$", "link.exe"),
    # relocation-overflow
    _s(
        "relocation-overflow",
        r"relocation truncated to fit: \S+ against (?:symbol )?[`']?(?P<sym>[^'`]+)'?",
        "gnu-ld",
    ),
    _s("relocation-overflow", r"failed to convert GOTPCREL relocation against '(?P<sym>[^']+)'", "gnu-ld"),
    _s("relocation-overflow", r"error: relocation overflow(?:: reference to (?P<sym>.+?) in (?P<obj>\S+))?", "gold"),
    _s(
        "relocation-overflow",
        r"^(?:\S+: error: )?(?P<obj>[^:]+):\(.*relocation \S+ out of range:[^;]*(?:; references (?:section )?'(?P<sym>[^']+)')?",
    ),
    _s("relocation-overflow", r"relocation \S+ against (?P<sym>\S+) out of range", "mold"),
    _s("relocation-overflow", r"relocation \S+ out of range"),
    # incompatible-input
    _s(
        "incompatible-input",
        r"architecture of input file `(?P<obj>[^']+)' is incompatible with (?P<out>.+) output",
        "gnu-ld",
    ),
    _s("incompatible-input", r"skipping incompatible (?P<obj>\S+) when searching for -l(?P<lib>\S+)", "gnu-ld"),
    _s("incompatible-input", r"(?P<obj>\S+): file format not recognized", "gnu-ld"),
    _s("incompatible-input", r"(?P<obj>\S+): (?:error adding symbols: )?file in wrong format", "gnu-ld"),
    _s("incompatible-input", r"error: (?P<obj>\S+): incompatible target", "gold"),
    _s("incompatible-input", r"error: (?P<obj>\S+) is incompatible with \S+"),
    _s("incompatible-input", r"(?P<obj>\S+): incompatible file type:", "mold"),
    _s("incompatible-input", r"ignoring file (?P<obj>[^,]+), building for \S+ but attempting to link with file built for", "ld64"),
    _s("incompatible-input", r"^(?P<obj>.+?) : (?:fatal )?(?:error|warning) LNK(?:1112|4272): ", "link.exe"),
    # linker-not-found
    _s("linker-not-found", r"linker `(?P<path>[^`]+)` not found"),
    _s("linker-not-found", r"collect2: fatal error: cannot find '(?P<path>[^']+)'"),
    _s("linker-not-found", r"invalid linker name in argument '-fuse-ld=(?P<path>[^']+)'"),
    # linker-crashed
    _s("linker-crashed", r"terminated with signal (?P<sig>\d+)"),
    _s("linker-crashed", r"linking with `(?P<path>[^`]+)` failed: signal: (?P<sig>\d+)"),
    _s("linker-crashed", r"LLVM ERROR: out of memory|std::bad_alloc|memory exhausted|Cannot allocate memory|out of memory"),
)

# A line from a linker that none of the signatures knows.
LINKER_ERROR = re.compile(
    r"^(?:\S*/)?(?:ld(?:\.bfd|\.gold|\.lld|64\.lld)?|rust-lld|lld-link|wasm-ld|mold)(?::| :) (?:.*\b)?(?:error|fatal)\b"
)

_PREFIX_FAMILY = (
    (re.compile(r"^(?:\S*/)?(?:rust-lld|ld\.lld|ld64\.lld|lld-link|wasm-ld|lld):"), "lld"),
    (re.compile(r"^(?:\S*/)?mold:"), "mold"),
    (re.compile(r"^(?:\S*/)?ld\.gold:"), "gold"),
    (re.compile(r"^(?:\S*/)?ld\.bfd:|^/\S*/ld:"), "gnu-ld"),
    (re.compile(r"LNK\d{4}"), "link.exe"),
)


# One anchored alternation instead of a search per family: family_of runs on
# every hit line. Every entry but the last (LNK, unanchored) starts with ^, so
# match() tries them in list order at the line's start and fails fast; the
# unanchored link.exe entry is searched only when "LNK" is in the line.
_ANCHORED_FAMILY = re.compile(
    "|".join(f"(?P<f{i}>{rx.pattern})" for i, (rx, _) in enumerate(_PREFIX_FAMILY[:-1]))
)


def family_of(line: str) -> str | None:
    m = _ANCHORED_FAMILY.match(line)
    if m is not None and m.lastgroup is not None:
        return _PREFIX_FAMILY[int(m.lastgroup[1:])][1]
    if "LNK" in line and _PREFIX_FAMILY[-1][0].search(line):
        return _PREFIX_FAMILY[-1][1]
    return None

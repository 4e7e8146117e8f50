"""Readable names for Rust (legacy and v0) and C++ (Itanium) symbols.

No demangler on PyPI fits: ``rustc-demangle`` has no Python package,
``cxxfilt`` wraps libstdc++'s __cxa_demangle (C++ only), and the pure-Python
Rust ones are unmaintained. So Rust's legacy scheme, which is simple and by
far the most common in linker output, is decoded here; v0 (``_R``) and C++
go to binutils' ``c++filt`` (2.36+ knows v0), run once per batch through
linkgate.proc. Without c++filt those names stay mangled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_LEGACY_HASH = re.compile(r"^h[0-9a-f]{16}$")
_ESCAPES = {
    "$SP$": "@", "$BP$": "*", "$RF$": "&", "$LT$": "<", "$GT$": ">",
    "$LP$": "(", "$RP$": ")", "$C$": ",",
}
_ESCAPE = re.compile(r"\$(?:SP|BP|RF|LT|GT|LP|RP|C|u[0-9a-f]{1,6})\$")


def demangle_rust_legacy(symbol: str) -> str | None:
    """``_ZN4core3ptr17h0123456789abcdefE`` -> ``core::ptr``; None if not legacy Rust."""
    name = symbol
    if name.startswith("__ZN"):  # Mach-O adds an underscore
        name = name[1:]
    if not name.startswith("_ZN") or not name.endswith("E"):
        return None
    body, i, parts = name[3:-1], 0, []
    while i < len(body):
        j = i
        while j < len(body) and body[j].isdigit():
            j += 1
        if j == i:
            return None
        n = int(body[i:j])
        if n == 0 or j + n > len(body):
            return None
        parts.append(body[j:j + n])
        i = j + n
    if not parts or not _LEGACY_HASH.match(parts[-1]):
        return None  # without the hash it is C++, which c++filt does better
    return "::".join(_unescape(p) for p in parts[:-1])


def _unescape(part: str) -> str:
    if part.startswith("_$"):
        part = part[1:]
    part = part.replace("..", "::")

    def sub(m: re.Match[str]) -> str:
        token = m.group(0)
        if token.startswith("$u"):
            return chr(int(token[2:-1], 16))
        return _ESCAPES[token]

    return _ESCAPE.sub(sub, part)


def is_mangled(symbol: str) -> bool:
    s = symbol[1:] if symbol.startswith("__") else symbol
    return s.startswith(("_Z", "_R"))


def demangle_many(symbols: Iterable[str]) -> dict[str, str]:
    """Map each mangled symbol to its readable form; unknown ones are left out."""
    out: dict[str, str] = {}
    rest: list[str] = []
    for s in dict.fromkeys(symbols):
        if not is_mangled(s):
            continue
        legacy = demangle_rust_legacy(s)
        if legacy is not None:
            out[s] = legacy
        else:
            rest.append(s)
    if rest:
        out.update(_cxxfilt(rest))
    return out


def _cxxfilt(symbols: list[str]) -> dict[str, str]:
    from linkgate.errors import LinkgateError
    from linkgate import proc

    # Mach-O symbols carry an extra leading underscore c++filt does not expect.
    plain = [s[1:] if s.startswith("__") else s for s in symbols]
    try:
        done = proc.run(["c++filt"], stdin="\n".join(plain) + "\n", check=False)
    except LinkgateError:
        return {}
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(symbols):
        return {}
    return {s: d for s, p, d in zip(symbols, plain, lines) if d != p}

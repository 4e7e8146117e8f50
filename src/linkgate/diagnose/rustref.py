"""The Rust line that calls an undefined native symbol, read from the sources.

With debug info the linker names it (``src/main.rs:8: undefined reference``,
lld's ``>>> referenced by main.rs:8``). A release, LTO or ``codegen-units = 1``
build carries no line table, so the linker names only the object and the
function (``natapp.…-cgu.0:(.text._ZN6natapp4main17h…E+0xf)``), and an
annotation would fall back to an unrelated build-script directive. The call is
still in the sources: the first call of the symbol (an identifier followed by
``(``, not its ``fn`` declaration in the ``extern`` block), preferring one
inside the function the linker named, else the declaration itself.

Tokens come from ``rustlex``, so a name in a comment or a string is not a call.
The walk is bounded: it reads the ``.rs`` files under the roots it is given
(the failing unit's package, or the link's working directory for a replayed
link), never follows a symlinked directory, skips build output, and stops at
``MAX_FILES`` files of at most ``MAX_BYTES``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from linkgate import repofs
from linkgate.diagnose.demangle import demangle_rust_legacy
from linkgate.rustlex import Token, tokenize

MAX_FILES = 2000
MAX_BYTES = 1 << 20
_SKIP_DIRS = {"target", ".git", "node_modules", ".linkgate"}
# GNU ld and gold: `(.text._ZN6natapp4main17h…E+0xf)`; lld and mold: `(natapp::main::h4f9d…)`.
_MANGLED = re.compile(r"(_ZN[0-9A-Za-z_$.]+?E)(?:\.[0-9a-z.]+)?(?:\+0x[0-9a-f]+)?\)")
_PLAIN = re.compile(r":\(((?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z_][A-Za-z0-9_]*)\)")


def referencing_function(references: Iterable[str]) -> str | None:
    """The last path segment of the Rust function the linker says makes the reference
    (``main`` of ``natapp::main``), from its object:(section) wording."""
    for where in references:
        m = _MANGLED.search(where)
        if m:
            name = demangle_rust_legacy(m.group(1))
            if name:
                return name.split("::")[-1]
        m = _PLAIN.search(where)
        if m:
            parts = m.group(1).split("::")
            if len(parts) > 2 and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
                parts.pop()  # the legacy mangling's hash
            return parts[-1]
    return None


def find_call(symbol: str, roots: Sequence[Path], function: str | None = None) -> tuple[str, int] | None:
    """(path, line) of the Rust line that calls *symbol*, in the ``.rs`` files under *roots*."""
    first_call: tuple[str, int] | None = None
    declaration: tuple[str, int] | None = None
    for path in _rust_files(roots):
        try:
            text = repofs.read_text(path, inside=None, limit=MAX_BYTES, errors="replace")
        except OSError:
            continue
        if symbol not in text:
            continue
        for line, inside, declares in _uses(tokenize(text), symbol):
            if declares:
                declaration = declaration or (path, line)
            elif function is not None and inside == function:
                return path, line
            else:
                first_call = first_call or (path, line)
    return first_call or declaration


def _uses(tokens: list[Token], symbol: str) -> Iterable[tuple[int, str | None, bool]]:
    """(line, enclosing fn name, is-declaration) for each use of *symbol* as a callee."""
    current: str | None = None
    for i, tok in enumerate(tokens):
        if tok.kind == "ident" and tok.text == "fn" and i + 1 < len(tokens) and tokens[i + 1].kind == "ident":
            if tokens[i + 1].text != symbol:
                current = tokens[i + 1].text
            continue
        if tok.kind != "ident" or tok.text != symbol:
            continue
        declares = i > 0 and tokens[i - 1].is_("fn")
        calls = i + 1 < len(tokens) and tokens[i + 1].is_("(")
        if declares or calls:
            yield tok.line, current, declares


def _rust_files(roots: Sequence[Path]) -> list[str]:
    """The ``.rs`` files under *roots*, roots' own ``src/`` first, bounded by MAX_FILES."""
    found: list[str] = []
    seen: set[str] = set()
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if name.endswith(".rs") and path not in seen:
                    seen.add(path)
                    found.append(path)
                    if len(found) >= MAX_FILES:
                        return found
    src_first = sorted(found, key=lambda p: (not any(p.startswith(str(r / "src") + os.sep) for r in roots),))
    return src_first

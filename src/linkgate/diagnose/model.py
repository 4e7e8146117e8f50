"""The value a classification produces: one problem, however many lines said it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = (
    "undefined-symbol",
    # An undefined symbol that an archive on the same link line defines, placed
    # before the archive that needs it (GNU ld and gold search each archive once,
    # left to right); from lld, a "backward reference detected" warning.
    "archive-order",
    # One library linked both from its static archive and as a shared library
    # into one binary (a warning on a link that passed: two copies of its code and state).
    "mixed-linkage",
    # GCC LTO objects (.gnu.lto_* sections) linked by rust-lld or lld, which cannot
    # run GCC's plugin: their fallback code is linked (a warning on a link that passed).
    "lto-skipped",
    "dso-missing",
    "library-not-found",
    "duplicate-symbol",
    "relocation-overflow",
    "incompatible-input",
    "linker-not-found",
    "linker-crashed",
    "unknown",
)

# "rustc": rustc reported a link-recipe error itself, before any linker ran.
FAMILIES = ("gnu-ld", "gold", "lld", "mold", "ld64", "link.exe", "rustc")


@dataclass(frozen=True)
class RecipeLine:
    """A build-script directive involved in a diagnosis, located in cargo's record."""

    key: str
    value: str
    output_file: str
    line: int
    package_id: str | None = None
    build_script: str | None = None


@dataclass(frozen=True)
class Diagnostic:
    """One linker problem.

    ``message`` is the one line that matters; ``examples`` the first few lines
    of that kind (hundreds of "relocation truncated" lines are one problem,
    counted in ``count``). ``line`` is the 1-based line of the first
    occurrence in the log.
    """

    kind: str
    message: str
    linker: str | None = None
    symbol: str | None = None
    demangled: str | None = None
    referenced_from: str | None = None
    library: str | None = None
    count: int = 1
    examples: tuple[str, ...] = field(default_factory=tuple)
    hint: str | None = None
    line: int | None = None
    directives: tuple[RecipeLine, ...] = field(default_factory=tuple)
    build_script: str | None = None
    # Every referencing object or archive member seen (the first few); the
    # first is ``referenced_from``.
    references: tuple[str, ...] = field(default_factory=tuple)
    # "error": the link failed of it; "warning": the link succeeded, and another
    # linker would fail (lld's --warn-backrefs on an archive-order problem).
    level: str = "error"
    # archive-order: the two archives in link-line order, the definer first.
    archives: tuple[str, ...] = field(default_factory=tuple)
    # "path:line" of the first Rust source line that makes the reference, when the
    # linker names one (objects with debug info); an annotation points there.
    source: str | None = None

    @property
    def shown_symbol(self) -> str | None:
        return self.demangled or self.symbol

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["examples"] = list(self.examples)
        d["directives"] = [asdict(r) for r in self.directives]
        d["references"] = list(self.references)
        d["archives"] = list(self.archives)
        return d

"""Linker diagnostics: classify linker output into stable kinds with hints.

API (stable; callers: linkgate run, explain, prove):
  classify(lines: Iterable[str]) -> list[Diagnostic]
  classify_text(text: str) -> list[Diagnostic]
  Diagnostic.to_dict() -> dict (JSON-ready)

This is the minimal first version; the diagnostics issue replaces the engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

_ERROR = re.compile(r"(error|undefined reference|cannot find|DSO missing|multiple definition|undefined symbol)", re.I)


@dataclass(frozen=True)
class Diagnostic:
    kind: str
    message: str
    linker: str | None = None
    symbol: str | None = None
    library: str | None = None
    count: int = 1
    examples: tuple[str, ...] = field(default_factory=tuple)
    hint: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["examples"] = list(self.examples)
        return d


def classify(lines: Iterable[str]) -> list[Diagnostic]:
    out = []
    for line in lines:
        if _ERROR.search(line):
            out.append(Diagnostic(kind="unknown", message=line.strip()))
    return out


def classify_text(text: str) -> list[Diagnostic]:
    return classify(text.splitlines())


def linker_lines_from_cargo_message(msg: dict[str, Any]) -> list[str]:
    """The linker's own stderr from a rustc "linking with `cc` failed" message.

    rustc's notes are: the elided command line, "some arguments are omitted",
    then the linker's stderr verbatim (FACTS.md); keep only the last kind.
    """
    lines: list[str] = []
    for child in msg.get("children", []):
        text = child.get("message", "")
        if text.startswith('"') or "object files omitted" in text or text.startswith("some arguments are omitted"):
            continue
        lines.extend(text.splitlines())
    return lines

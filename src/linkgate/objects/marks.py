"""Which linker wrote an ELF file, read from the marks linkers leave in it.

lld writes ``Linker: [vendor] LLD <version>`` into ``.comment`` (rust-lld is an lld whose
version is not the system ld.lld's), mold ``mold <version> (compatible with GNU
ld)``, gold a ``.note.gnu.gold-version`` note; GNU ld writes nothing of its own
(readelf on binaries each linker wrote here, FACTS.md). So a file is GNU ld's only
when no linker's mark is in it at all: the check runs both ways, the chosen
linker's mark present where it writes one and no other linker's mark present.

Compilers write ``.comment`` lines too (``GCC: ...``, ``rustc version ...``,
``clang version ...``); they name no linker and are not marks.
"""

from __future__ import annotations

import functools
import re
import shutil
from dataclasses import dataclass

from linkgate import proc

_DYN = re.compile(r"\(NEEDED\)\s+\S.*?\[(.*)\]")
_COMMENT = re.compile(r"^\s*\[\s*[0-9a-f]+\]\s+(.*?)\s*$")
_GOLD = re.compile(r"Version:\s+(gold \S+)")


@dataclass(frozen=True)
class Mark:
    """One linker's mark: who (``lld``, ``mold``, ``gold`` or ``other``), as written, and where."""

    family: str
    text: str
    section: str

    def to_dict(self) -> dict[str, str]:
        return {"family": self.family, "text": self.text, "section": self.section}


@dataclass(frozen=True)
class LinkerMarks:
    """Every linker mark a linked file carries (none: GNU ld), and what it needs."""

    marks: tuple[Mark, ...]
    needed: tuple[str, ...]

    @property
    def families(self) -> frozenset[str]:
        return frozenset(m.family for m in self.marks)

    def describe(self) -> str:
        return ", ".join(m.text for m in self.marks) or "no linker mark (GNU ld writes none)"


def _comment_mark(text: str) -> Mark | None:
    if text.startswith("Linker: "):
        family = "lld" if "LLD" in text else "other"
        return Mark(family, text, ".comment")
    if text.startswith("mold "):
        return Mark("mold", text.split(" (", 1)[0], ".comment")
    if "compatible with GNU ld" in text:
        # How mold words it; any other linker that says so is a linker that is not GNU ld.
        return Mark("other", text, ".comment")
    return None


def read(path: str) -> LinkerMarks | None:
    """The file's linker marks; None when readelf cannot read it as ELF."""
    done = proc.run(["readelf", "-W", "-d", "-n", "-p", ".comment", path], check=False)
    if done.returncode != 0 and "ELF" not in done.stdout:
        return None
    needed = tuple(m.group(1) for m in _DYN.finditer(done.stdout))
    found = [Mark("gold", m.group(1), ".note.gnu.gold-version") for m in _GOLD.finditer(done.stdout)]
    for line in done.stdout.splitlines():
        m = _COMMENT.match(line)
        mark = _comment_mark(m.group(1)) if m else None
        if mark is not None and mark not in found:
            found.append(mark)
    return LinkerMarks(tuple(found), needed)


@functools.lru_cache(maxsize=2)
def system_lld_version(path: str | None) -> str | None:
    """``ld.lld --version`` as lld writes it into ``.comment`` (without "(compatible ...)")."""
    exe = shutil.which("ld.lld", path=path)
    if exe is None:
        return None
    first = (proc.run([exe, "--version"], check=False).stdout.splitlines() or [""])[0]
    return first.split(" (compatible", 1)[0].strip() or None


# The family whose mark each of linkgate's linkers leaves; bfd (GNU ld) leaves none.
_FAMILY = {"default": "lld", "lld": "lld", "gold": "gold", "mold": "mold", "bfd": None}


def names_linker(found: LinkerMarks, linker: str, path_env: str | None = None) -> bool:
    """Whether *found* is exactly what linkgate's *linker* leaves: its own mark where
    it writes one, and no other linker's mark (for GNU ld: no mark at all)."""
    family = _FAMILY[linker]
    if family is None:
        return not found.marks
    if found.families != {family}:
        return False
    if family != "lld":
        return True
    system = system_lld_version(path_env)
    versions = {m.text[len("Linker: "):] for m in found.marks}
    if linker == "lld":
        return versions == {system}
    return system is None or system not in versions

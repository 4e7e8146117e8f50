"""What a linked ELF file asks of the dynamic loader: NEEDED, RUNPATH, undefined symbols.

Two links that agree on these load and resolve the same way; this is what
makes a dropped directive "redundant" rather than merely "still links".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from linkgate import proc

_DYN = re.compile(r"\((NEEDED|RUNPATH|RPATH)\)\s+\S.*?\[(.*)\]")


@dataclass(frozen=True)
class DynamicView:
    needed: tuple[str, ...]
    runpath: tuple[str, ...]
    undefined: frozenset[str]

    def differences(self, other: DynamicView) -> list[str]:
        out = []
        for name, mine, theirs in (("NEEDED", self.needed, other.needed), ("RUNPATH", self.runpath, other.runpath)):
            if mine != theirs:
                gone = [x for x in mine if x not in theirs]
                new = [x for x in theirs if x not in mine]
                out.append(f"{name} " + ", ".join([*(f"-{x}" for x in gone), *(f"+{x}" for x in new)] or ["order"]))
        added = sorted(other.undefined - self.undefined)
        if added:
            out.append("new undefined symbols: " + ", ".join(added[:5]) + (" ..." if len(added) > 5 else ""))
        return out


def read(path: str) -> DynamicView:
    dyn = proc.run(["readelf", "-d", "-W", path], check=False).stdout
    needed: list[str] = []
    runpath: list[str] = []
    for m in _DYN.finditer(dyn):
        (needed if m.group(1) == "NEEDED" else runpath).append(m.group(2))
    syms = proc.run(["readelf", "--dyn-syms", "-W", path], check=False).stdout
    undefined = set()
    for line in syms.splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) >= 8 and parts[6] == "UND" and parts[7]:
            undefined.add(parts[7])
    return DynamicView(tuple(needed), tuple(runpath), frozenset(undefined))


def defined_globals(path: str, limit: int = 400) -> list[str]:
    """Global symbols an archive or shared library defines (for tracing)."""
    flags = ["-D"] if ".so" in path.rsplit("/", 1)[-1] else []
    out = proc.run(["nm", "-g", "--defined-only", "-P", *flags, path], check=False).stdout
    names = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not parts[0].endswith(":"):
            names.append(parts[0].split("@", 1)[0])
        if len(names) >= limit:
            break
    return names


@dataclass(frozen=True)
class LinkerMark:
    """What a linked ELF file says about the linker that wrote it, and what it needs.

    lld writes ``Linker: <version>`` into ``.comment``, mold ``mold <version>``,
    gold a ``.note.gnu.gold-version`` note; GNU ld writes nothing of its own.
    """

    family: str | None          # "lld", "mold", "gold", or None (no linker named: GNU ld)
    version: str
    needed: tuple[str, ...]


_COMMENT = re.compile(r"^\s*\[\s*[0-9a-f]+\]\s+(.*?)\s*$")
_GOLD = re.compile(r"Version:\s+(gold \S+)")


def mark(path: str) -> LinkerMark | None:
    """The file's linker mark; None when it cannot be read as ELF."""
    done = proc.run(["readelf", "-W", "-d", "-n", "-p", ".comment", path], check=False)
    if done.returncode != 0 and "ELF" not in done.stdout:
        return None
    needed = tuple(m.group(2) for m in _DYN.finditer(done.stdout) if m.group(1) == "NEEDED")
    gold = _GOLD.search(done.stdout)
    if gold:
        return LinkerMark("gold", gold.group(1), needed)
    for line in done.stdout.splitlines():
        m = _COMMENT.match(line)
        if m is None:
            continue
        text = m.group(1)
        if text.startswith("Linker: "):
            return LinkerMark("lld", text[len("Linker: "):], needed)
        if text.startswith("mold "):
            return LinkerMark("mold", text.split(" (", 1)[0], needed)
    return LinkerMark(None, "", needed)


@functools.lru_cache(maxsize=2)
def system_lld_version(path: str | None) -> str | None:
    """``ld.lld --version`` as lld writes it into ``.comment`` (without "(compatible ...)")."""
    import shutil

    exe = shutil.which("ld.lld", path=path)
    if exe is None:
        return None
    first = (proc.run([exe, "--version"], check=False).stdout.splitlines() or [""])[0]
    return first.split(" (compatible", 1)[0].strip() or None


def names_linker(found: LinkerMark, linker: str, path_env: str | None = None) -> bool:
    """Whether *found* is the mark linkgate's *linker* leaves (rust-lld is an lld whose
    version is not the system ld.lld's; GNU ld is the one that leaves none)."""
    if linker == "bfd":
        return found.family is None
    if linker in ("gold", "mold"):
        return found.family == linker
    if found.family != "lld":
        return False
    system = system_lld_version(path_env)
    return (found.version == system) if linker == "lld" else (system is None or found.version != system)

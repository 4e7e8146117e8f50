"""What a linked ELF file asks of the dynamic loader: NEEDED, RUNPATH, undefined symbols.

Two links that agree on these load and resolve the same way; this is what
makes a dropped directive "redundant" rather than merely "still links".
"""

from __future__ import annotations

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

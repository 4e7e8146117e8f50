"""``lto-skipped``: GCC LTO objects linked by a linker that cannot run GCC's plugin.

``gcc -flto -ffat-lto-objects`` puts GIMPLE in ``.gnu.lto_*`` sections beside
ordinary code. GNU ld, gold and mold, driven by ``cc``, load GCC's
``liblto_plugin.so`` and optimise across those objects; rust-lld (the default on
x86_64 Linux since Rust 1.90) and lld have no GCC plugin and link the fallback
code, exit 0, say nothing (rust-lang/rust#159355: s2n-tls measured handshakes
2-4 % slower). So the check needs only the leg's linker and its link lines,
and runs with one linker as with five.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.diagnose.model import Diagnostic
from linkgate.divergence import linkline, origin
from linkgate.gate.linkrecord import LinkRecord
from linkgate.objects import elf

# linkgate's linkers that are lld: neither loads GCC's LTO plugin (the proof of
# link has already read the output's marks, so the name is what ran).
NO_GCC_PLUGIN = {"default": "rust-lld", "lld": "lld"}

FIXES = ("link this target with a linker that runs GCC's LTO plugin (linkers = [\"bfd\"], \"gold\" or \"mold\"), "
         "or compile that C without -flto, or compile it with Clang -flto=thin and link with -Clinker-plugin-lto")


@dataclass(frozen=True)
class _Found:
    archive: Path
    members: tuple[str, ...]
    targets: tuple[str, ...]


def _scan(records: Sequence[LinkRecord], targets: Mapping[str, str], unread: list[str]) -> list[_Found]:
    by_input: dict[Path, tuple[tuple[str, ...], list[str]]] = {}
    for rec in records:
        target = targets.get(rec.id) or Path(rec.output or "?").name
        for path in linkline.inputs(rec):
            if path not in by_input:
                members = elf.lto_members(path)
                if members is None:
                    unread.append(str(path))
                by_input[path] = (members or (), [])
            if by_input[path][0] and target not in by_input[path][1]:
                by_input[path][1].append(target)
    return [_Found(p, m, tuple(t)) for p, (m, t) in by_input.items() if m]


def lto_skipped(linker: str, records: Sequence[LinkRecord], build_scripts: Sequence[tuple[str, str]],
                targets: Mapping[str, str], unread: list[str] | None = None) -> list[Diagnostic]:
    """One warning per input holding GCC bytecode on this leg's passing links; none
    under a linker that runs GCC's plugin. Inputs that are neither ar archives nor
    ELF objects (or cannot be opened) are appended to *unread*."""
    program = NO_GCC_PLUGIN.get(linker)
    if program is None:
        return []
    out = []
    for found in _scan([r for r in records if r.exit_status == 0], targets, unread if unread is not None else []):
        src = origin.of(found.archive, found.members, build_scripts)
        where = f"{', '.join(found.members)} in {found.archive.name}"
        if src.archive and src.archive != found.archive:
            where = f"{', '.join(found.members)} from {src.archive.name} (bundled into {found.archive.name})"
        by = f", compiled by {src.package}'s build script" if src.package else ""
        message = (f"{where}{by} carry GCC LTO bytecode (.gnu.lto_* sections), and {program} cannot run GCC's "
                   f"LTO plugin: {', '.join(found.targets)} linked their fallback code, without the cross-file "
                   "optimisation a GNU ld, gold or mold link performs (the link passes and says nothing)")
        out.append(Diagnostic(
            kind="lto-skipped", message=message, linker="lld", level="warning", hint=FIXES,
            library=str(src.archive or found.archive), references=found.members,
            archives=tuple(dict.fromkeys(str(p) for p in (src.archive, found.archive) if p)),
            build_script=str(src.script) if src.script else None,
            source=f"{src.script}:{src.line}" if src.script and src.line else None,
        ))
    return out

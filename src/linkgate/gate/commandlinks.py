"""What a ``command = [...]`` gate linked, as the recording wrapper saw it.

linkgate cannot read cargo's messages through an arbitrary command, but the
wrapper sits between rustc and the linker for every cargo the command starts
(it inherits ``CARGO_TARGET_<TRIPLE>_LINKER``). A command gate has linked when
the wrapper recorded a successful link of its own in this run; links that
``cargo check`` makes too do not count:

- a build script (``build_script_build-<hash>``), linked before it runs;
- a proc-macro, a shared object the compiler loads, linked by ``cargo check``
  as well. rustc exports its registrar as ``__rustc_proc_macro_decls_<id>__``
  from every proc-macro and from nothing else, so the output names it.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterable
from pathlib import Path

from linkgate.gate.linkrecord import LinkRecord, read_records

_PROC_MACRO_SYMBOL = b"__rustc_proc_macro_decls_"
_HASH = re.compile(r"-[0-9a-f]{16}$")


def _build_script(rec: LinkRecord) -> bool:
    return os.path.basename(rec.output or "").startswith(("build_script_", "build-script-"))


def _proc_macro(path: str) -> bool:
    if not path.endswith((".so", ".dylib", ".dll")):
        return False
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(_PROC_MACRO_SYMBOL) != -1
    except (OSError, ValueError):  # gone, or empty (mmap of 0 bytes)
        return False


def own_links(records: Iterable[LinkRecord]) -> list[LinkRecord]:
    """The successful links the gate itself made: not build scripts, not proc-macros."""
    return [r for r in records
            if r.exit_status == 0 and r.output and not _build_script(r) and not _proc_macro(r.output)]


def this_run(tdir: Path, since: float) -> list[LinkRecord]:
    return own_links(read_records(tdir, since=since))


def relink_victim(tdir: Path, before: float) -> Path | None:
    """The smallest output an earlier run of the gate linked that still exists inside its
    target directory: deleting it makes cargo relink exactly that unit (FACTS.md)."""
    root = tdir.resolve()
    sized = []
    for rec in own_links(r for r in read_records(tdir) if r.started < before):
        path = Path(rec.output or "")
        try:
            inside = path.resolve().is_relative_to(root)
            size = path.stat().st_size
        except OSError:
            continue
        if inside:
            sized.append((size, str(path)))
    return Path(min(sized)[1]) if sized else None


def describe(rec: LinkRecord) -> tuple[str, str]:
    """(target, kind) of a recorded output: its file name without cargo's hash, and
    whether the linker wrote an executable or a shared library."""
    name = os.path.basename(rec.output or "")
    shared = name.endswith((".so", ".dylib", ".dll")) or "-shared" in rec.args
    stem = name.rsplit(".", 1)[0] if shared and "." in name else name
    stem = _HASH.sub("", stem)
    if shared and stem.startswith("lib"):
        stem = stem[3:]
    return stem, "shared-library" if shared else "executable"

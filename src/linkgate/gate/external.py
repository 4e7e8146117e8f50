"""Static libraries a build script links from outside the repository and the target dir.

``cargo:rustc-link-lib=static=sqlite3`` with ``rustc-link-search=native=$SQLITE_DIR``
makes rustc copy ``libsqlite3.a`` into the crate's rlib when it compiles the
crate. Neither cargo nor rustc watches that file, so after it changes or
vanishes a warm build relinks the old copy from the rlib and passes, while a
cold build fails or links other code. linkgate records each such archive
(size, mtime, sha256) after every run, in ``<target-dir>/linkgate-links/``,
and before judging the next one compares: a changed or vanished archive makes
it rebuild the owning package, as for blind in-repo inputs (gate/stale.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate.gate.linkrecord import LINKS_DIR

RECORD = "external-inputs.state"  # not *.json: read_records globs those


@dataclass(frozen=True)
class ExternalChange:
    """A file outside the workspace a build script linked from that vanished or changed since."""

    package_id: str
    path: str
    why: str  # "vanished" or "changed"


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def external_archives(
    build_scripts: Iterable[tuple[str, Sequence[str], Sequence[str]]], root: Path, target_dir: Path
) -> dict[str, list[str]]:
    """package_id -> the static archives its build script links from outside *root* and *target_dir*.

    *build_scripts* are (package_id, linked_libs, linked_paths) as cargo reports them.
    """
    skip = [root.resolve(), target_dir.resolve()]
    found: dict[str, list[str]] = {}
    for package_id, libs, paths in build_scripts:
        dirs = [Path(p.split("=", 1)[1] if "=" in p else p) for p in paths]
        for lib in libs:
            kind, _, name = lib.rpartition("=")
            if kind and not kind.startswith("static"):
                continue
            name = name.split(":", 1)[0]
            for d in dirs:
                candidate = d / f"lib{name}.a"
                if candidate.is_file():
                    if not _inside(candidate.resolve(), skip):
                        found.setdefault(package_id, []).append(str(candidate))
                    break
    return found


def _stat(path: str, previous: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if previous and previous.get("size") == st.st_size and previous.get("mtime_ns") == st.st_mtime_ns:
        return dict(previous)  # unchanged by size and mtime: no need to read it again
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest.hexdigest()}


def load(target_dir: Path) -> dict[str, dict[str, dict[str, Any]]]:
    try:
        doc = json.loads((target_dir / LINKS_DIR / RECORD).read_text())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def changes(target_dir: Path) -> list[ExternalChange]:
    """The recorded external archives that vanished or whose content changed since the last run."""
    out: list[ExternalChange] = []
    for package_id, files in load(target_dir).items():
        if not isinstance(files, dict):
            continue
        for path, was in files.items():
            now = _stat(path, was if isinstance(was, dict) else None)
            if now is None:
                out.append(ExternalChange(package_id, path, "vanished"))
            elif not isinstance(was, dict) or now.get("sha256") != was.get("sha256"):
                out.append(ExternalChange(package_id, path, "changed"))
    return out


def save(target_dir: Path, archives: Mapping[str, Sequence[str]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Record the archives as they are now (size, mtime, sha256); return the record."""
    previous = load(target_dir)
    doc: dict[str, dict[str, dict[str, Any]]] = {}
    for package_id, paths in archives.items():
        for path in paths:
            st = _stat(path, previous.get(package_id, {}).get(path))
            if st is not None:
                doc.setdefault(package_id, {})[path] = st
    folder = target_dir / LINKS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{RECORD}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    os.replace(tmp, folder / RECORD)
    return doc

"""Static libraries a build script links from anywhere but the target dir, compared by content.

``cargo:rustc-link-lib=static=sqlite3`` with ``rustc-link-search=native=$SQLITE_DIR``
makes rustc copy ``libsqlite3.a`` into the crate's rlib when it compiles the
crate. Neither cargo nor rustc watches that file, so after it changes or
vanishes a warm build relinks the old copy from the rlib and passes, while a
cold build fails or links other code. The same holds for a prebuilt archive
committed to the repository (inside a package or outside every package), and
for a ``rerun-if-changed`` one: cargo compares mtimes, and ``touch -r`` keeps
the old one. linkgate records each such archive (size, mtime, inode, ctime,
sha256) after every run, in ``<target-dir>/linkgate-links/``, and before the
next build compares them by content: a changed or vanished archive makes it
rebuild the owning package first. Archives in the target dir are build output
(a script's ``OUT_DIR``); cargo rebuilds them with their package.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import statedir
from linkgate.cargo import linklib
from linkgate.gate.linkrecord import LINKS_DIR

RECORD = "external-inputs.state"  # not *.json: read_records globs those


@dataclass(frozen=True)
class ExternalChange:
    """An archive a build script linked from outside the target dir that vanished or changed since."""

    package_id: str
    path: str
    why: str  # "vanished" or "changed"


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def external_archives(
    build_scripts: Iterable[tuple[str, Sequence[str], Sequence[str]]], target_dir: Path
) -> dict[str, list[str]]:
    """package_id -> the static archives its build script links from outside *target_dir*.

    *build_scripts* are (package_id, linked_libs, linked_paths) as cargo reports them;
    an archive is the first file the linker would find, in search-path order.
    """
    skip = [target_dir.resolve()]
    found: dict[str, list[str]] = {}
    for package_id, libs, paths in build_scripts:
        dirs = [Path(p.split("=", 1)[1] if "=" in p else p) for p in paths]
        for value in libs:
            lib = linklib.parse(value)
            if not lib.may_be_archive or not lib.name:
                continue  # dylib / framework: nothing rustc bundles or cargo would miss
            for d in dirs:
                candidate = d / lib.archive_file
                if candidate.is_file():
                    if not _inside(candidate.resolve(), skip) and str(candidate) not in found.get(package_id, ()):
                        found.setdefault(package_id, []).append(str(candidate))
                    break
    return found


# What must all be equal for a file to be the one hashed before without reading it again:
# a replacement of the same size with its mtime put back (`touch -r`, `cp -p`, an
# unpacked tarball) still gets a new ctime, and a rename over it a new inode.
_IDENTITY = ("size", "mtime_ns", "ino", "dev", "ctime_ns")


def _stat(path: str, previous: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    now = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino, "dev": st.st_dev,
           "ctime_ns": st.st_ctime_ns}
    if previous and previous.get("sha256") and all(previous.get(k) == now[k] for k in _IDENTITY):
        return dict(previous)  # the very file hashed last time, untouched since
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return {**now, "sha256": digest.hexdigest()}


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
    """Record the archives as they are now (stat identity and sha256); return the record."""
    previous = load(target_dir)
    doc: dict[str, dict[str, dict[str, Any]]] = {}
    for package_id, paths in archives.items():
        for path in paths:
            st = _stat(path, previous.get(package_id, {}).get(path))
            if st is not None:
                doc.setdefault(package_id, {})[path] = st
    folder = target_dir / LINKS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    statedir.replace_with(folder / RECORD, json.dumps(doc, indent=1) + "\n")
    return doc

"""What a build script reads from its package directory at build time, read now.

``glob("csrc/*.c")``, ``read_dir("asm")``, ``WalkDir::new("src")`` and a
source list kept in a text file (``include_str!("sources.txt")``,
``fs::read_to_string(...)``) name files only when the script runs; linkgate
walks the same directories, relative to the package directory (cargo runs
the script there).
"""

from __future__ import annotations

import glob as globmod
import os
from pathlib import Path

from linkgate import repofs

_MAX_TEXT = 1 << 20  # a source list, not a data file


def glob(package_dir: Path, pattern: str) -> list[str]:
    base = pattern if pattern.startswith("/") else os.path.join(package_dir, pattern)
    return [_rel(package_dir, f) for f in sorted(globmod.glob(base, recursive=True)) if os.path.isfile(f)]


def walk(package_dir: Path, directory: str, recursive: bool) -> list[str]:
    root = directory if directory.startswith("/") else os.path.join(package_dir, directory)
    out: list[str] = []
    for here, dirs, files in os.walk(root):
        dirs.sort()
        out += [_rel(package_dir, os.path.join(here, f)) for f in sorted(files)]
        if not recursive:
            break
    return out


def read_text(package_dir: Path, name: str) -> str | None:
    path = Path(name) if name.startswith("/") else package_dir / name
    try:
        repofs.check(path, inside=None, limit=repofs.UNLIMITED)  # a FIFO or a device is never opened
        with path.open(encoding="utf-8", errors="replace") as fh:
            return fh.read(_MAX_TEXT)
    except OSError:
        return None


def _rel(package_dir: Path, path: str) -> str:
    rel = os.path.relpath(path, package_dir)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")

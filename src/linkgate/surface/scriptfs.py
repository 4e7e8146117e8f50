"""What a build script reads from its package directory at build time, read now.

``glob("csrc/*.c")``, ``read_dir("asm")``, ``WalkDir::new("src")`` and a
source list kept in a text file (``include_str!("sources.txt")``,
``fs::read_to_string(...)``) name files only when the script runs; linkgate
walks the same directories, relative to the package directory (cargo runs
the script there).

Bounded, whatever the script names: a walk never leaves the repository (the
nearest directory up from the package that holds ``.git``; without one, the
outermost one holding a ``Cargo.toml``), never descends into a symlinked directory (so a symlink
loop is one entry, not an endless path), and stops after ``MAX_ENTRIES``
directory entries. Hand-written rather than ``glob.glob``: its ``**`` follows
symlinked directories, loops included, and it has no count limit. Patterns
run on RE2 (``linkgate.userregex``), so no pattern backtracks.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from linkgate import repofs
from linkgate.userregex import RegexRefused, UserRegex, compile_user

_MAX_TEXT = 1 << 20  # a source list, not a data file
# Directory entries one glob or walk looks at: the largest C trees vendored by
# -sys crates (openssl-src, boringssl) hold about 20,000 files; five times that
# and the walk is either a mistake or hostile.
MAX_ENTRIES = 100_000
_MAGIC = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Listing:
    """The files found, relative to the package directory, and why the list may be incomplete."""

    files: list[str] = field(default_factory=list)
    note: str | None = None


def glob(package_dir: Path, pattern: str) -> Listing:
    parts = pattern.replace("\\", "/").split("/")
    fixed = 0
    while fixed < len(parts) - 1 and not _MAGIC.search(parts[fixed]):
        fixed += 1
    start = "/".join(parts[:fixed]) or ("/" if pattern.startswith("/") else ".")
    rest = parts[fixed:]
    if not _MAGIC.search(rest[-1]) and len(rest) == 1:
        # No wildcard at all: the file itself, if it is one (and inside).
        path = _inside(package_dir, pattern)
        if isinstance(path, str):
            return Listing(note=path)
        return Listing([_rel(package_dir, str(path))] if path.is_file() else [])
    try:
        regex = _component_regex(tuple(rest))
    except RegexRefused:
        return Listing(note=f'glob("{pattern}"): a pattern linkgate cannot read')
    root = _inside(package_dir, start)
    if isinstance(root, str):
        return Listing(note=root)
    found, note = _walk(root, recursive=len(rest) > 1)
    base = str(root)
    files = [f for f in found if regex.fullmatch(os.path.relpath(f, base).replace(os.sep, "/"))]
    return Listing([_rel(package_dir, f) for f in files], note and f'glob("{pattern}"): {note}')


def walk(package_dir: Path, directory: str, recursive: bool) -> Listing:
    root = _inside(package_dir, directory)
    if isinstance(root, str):
        return Listing(note=root)
    found, note = _walk(root, recursive)
    how = "WalkDir::new" if recursive else "read_dir"
    return Listing([_rel(package_dir, f) for f in found], note and f'{how}("{directory}"): {note}')


def read_text(package_dir: Path, name: str) -> str | None:
    path = _inside(package_dir, name)
    if isinstance(path, str):
        return None
    try:
        repofs.check(path, inside=None, limit=repofs.UNLIMITED)  # a FIFO or a device is never opened
        with path.open(encoding="utf-8", errors="replace") as fh:
            return fh.read(_MAX_TEXT)
    except OSError:
        return None


def repository_root(package_dir: Path) -> Path:
    """The nearest directory from *package_dir* up that holds ``.git``; without one (a
    tree not under git), the outermost directory up that holds a ``Cargo.toml``."""
    return _root(str(Path(package_dir).resolve()))


@functools.lru_cache(maxsize=64)
def _root(start: str) -> Path:
    here = Path(start)
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    manifests = [c for c in (here, *here.parents) if (c / "Cargo.toml").is_file()]
    return manifests[-1] if manifests else here


def _inside(package_dir: Path, name: str) -> Path | str:
    """*name* (from the package directory) resolved, or why it is not read: outside the repository."""
    path = Path(os.path.normpath(os.path.join(package_dir, name)))
    root = repository_root(package_dir)
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop on the way
        return f"{name}: cannot be resolved (a symlink loop?); not read"
    if real != root and root not in real.parents:
        return f"{name} is outside the repository ({real}); not read"
    return path


def _walk(root: Path, recursive: bool) -> tuple[list[str], str | None]:
    """Regular files under *root* in sorted order, breadth by directory, with a stack (no
    recursion: a tree 10,000 directories deep is still walked); symlinked directories are
    not entered."""
    out: list[str] = []
    seen = 0
    stack = [str(root)]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                return out, f"stopped after {MAX_ENTRIES:,} directory entries; files past them are not listed"
            try:
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(entry.path)
                elif entry.is_file(follow_symlinks=True):
                    out.append(entry.path)
            except OSError:
                continue
        if recursive:
            stack.extend(reversed(subdirs))
    return out, None


@functools.lru_cache(maxsize=256)
def _component_regex(parts: tuple[str, ...]) -> UserRegex:
    """The glob crate's semantics for the pattern's remaining components: ``*`` and ``?``
    stay within one component, ``**`` alone spans any number of them."""
    out: list[str] = []
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]*/)*")
            continue
        out.append(_translate(part) + ("" if last else "/"))
    return compile_user("".join(out))


def _translate(part: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = part.find("]", i + 2)
            if end < 0:
                out.append(re.escape(c))
            else:
                body = part[i + 1:end]
                neg = body[:1] == "!"
                body = (body[1:] if neg else body).replace("\\", "\\\\")
                out.append("[" + ("^" if neg else "") + body + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _rel(package_dir: Path, path: str) -> str:
    rel = os.path.relpath(path, package_dir)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")

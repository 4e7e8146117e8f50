"""The one reader of files from a repository: inside it, regular, bounded.

Every file linkgate opens from a repository (a workflow, a script, a Makefile,
a manifest, a build script) comes through here, so one rule holds for all:
  - the path is resolved, symlinks included, and must stay inside the
    repository (or inside a directory the user named on the command line): a
    committed symlink to ``/etc`` or to the runner's home reads nothing;
  - only a regular file is read: it is ``stat``-ed before it is opened, so a
    FIFO never blocks and a device (``/dev/zero``) is never opened;
  - its size is checked against a limit before a byte is read, and no more
    than the limit is read even when the file grows meanwhile.
A refused file raises ``RefusedFile`` (exit 2 in a command); a reader that
judges (the audit) turns it into an ``unresolved`` note naming the file.
A missing file is an ``OSError``, as ``open`` raises it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from linkgate.errors import RefusedFile

MIB = 1024 * 1024
# A script, Makefile, justfile, package.json, manifest or build script: the
# largest real ones are a few hundred KB (a generated Cargo.lock of a big
# workspace reaches 2 MB); 16 MiB is far past them and reads in well under a second.
MAX_SOURCE = 16 * MIB
# A build log handed to `explain` (a CI log of a large workspace is tens of MB).
MAX_LOG = 512 * MIB
# A webhook payload: GitHub caps them at 25 MB.
MAX_PAYLOAD = 32 * MIB
# For a reader that bounds what it reads itself and only needs a regular file.
UNLIMITED = 1 << 62

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def is_file(path: str | Path) -> bool:
    """Path.is_file() for any name a repository can spell: Python 3.11's raises on a
    component past NAME_MAX (ENAMETOOLONG) instead of answering False."""
    try:
        return Path(path).is_file()
    except OSError:
        return False


def is_dir(path: str | Path) -> bool:
    """Path.is_dir(), False for a name no file system takes (as is_file)."""
    try:
        return Path(path).is_dir()
    except OSError:
        return False


def is_inside(path: str | Path, root: str | Path) -> bool:
    """Whether *path* is *root* or below it, both as given (resolve first)."""
    path, root = os.fspath(path), os.fspath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve(path: str | Path, *, inside: Path | None, also: tuple[Path, ...] = (), shown: str | None = None) -> Path:
    """*path* (relative to *inside* when relative) with every symlink resolved;
    RefusedFile when it leaves *inside* and every directory in *also*.
    *inside* None: a path the user named, taken as it is."""
    full = Path(path) if inside is None else Path(inside, path)
    real = os.path.realpath(full)
    if inside is not None:
        roots = (inside, *also)
        if not any(is_inside(real, os.path.realpath(r)) for r in roots):
            raise RefusedFile(shown or os.fspath(path), "it resolves to a path outside the repository",
                              why="outside")
    return Path(real)


def check(path: str | Path, *, inside: Path | None, limit: int, also: tuple[Path, ...] = (),
          shown: str | None = None) -> Path:
    """The resolved path of a regular file within *limit* bytes, or RefusedFile
    (OSError when it does not exist). For readers that open it themselves (SQLite)."""
    name = shown or os.fspath(path)
    real = resolve(path, inside=inside, also=also, shown=name)
    try:
        st = os.stat(real)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # realpath leaves a loop unresolved; stat names it
            raise RefusedFile(name, "it is a loop of symlinks", why="not-regular") from None
        raise
    _check_stat(st, name, limit)
    return real


def _check_stat(st: os.stat_result, name: str, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise RefusedFile(name, f"it is {kind_of(st.st_mode)}, not a regular file",
                          why="directory" if stat.S_ISDIR(st.st_mode) else "not-regular")
    if st.st_size > limit:
        raise RefusedFile(name, f"it is {st.st_size:,} bytes, over the {limit:,} linkgate reads for it",
                          why="too-large")


def read_bytes(path: str | Path, *, inside: Path | None, limit: int = MAX_SOURCE, also: tuple[Path, ...] = (),
               shown: str | None = None) -> bytes:
    """The bytes of a regular file inside the repository, at most *limit*."""
    name = shown or os.fspath(path)
    real = check(path, inside=inside, limit=limit, also=also, shown=name)
    # O_NOFOLLOW: the resolved path holds no symlink; one swapped in since is refused.
    # O_NONBLOCK: a FIFO swapped in since opens at once instead of waiting for a writer.
    fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _check_stat(os.fstat(fd), name, limit)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, MIB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise RefusedFile(name, f"it grew past the {limit:,} bytes linkgate reads for it while read",
                          why="too-large")
    return data


def read_text(path: str | Path, *, inside: Path | None, limit: int = MAX_SOURCE, also: tuple[Path, ...] = (),
              shown: str | None = None, errors: str = "strict") -> str:
    """``read_bytes`` decoded as UTF-8 (UnicodeDecodeError with *errors* strict),
    line ends translated to ``\n`` as ``Path.read_text`` does, which every reader
    here was written against."""
    text = read_bytes(path, inside=inside, limit=limit, also=also, shown=shown).decode("utf-8", errors)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text

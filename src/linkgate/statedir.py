"""The ``.linkgate/`` directory at the repository root: lock, journal, crash log.

It ignores itself, as pytest's ``.pytest_cache`` does, so that ``git add -A``
never commits a journal of someone's mutated file and ``git status`` (which the
dirty check of ``prove`` reads) stays clean.

A repository is untrusted input, and it can commit ``.linkgate`` (or a file in
it) as a symlink to anything the user can write: ``~/.bashrc``, its own
``src/main.rs``. So ``.linkgate`` must be a real directory (``lstat``, never
followed), and every file linkgate opens in it is opened with ``O_NOFOLLOW``
and must be a regular file; anything else is ``UnsafeState`` and nothing is
written through it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from linkgate.errors import UnsafeState

STATE_DIR = ".linkgate"
_GITIGNORE = "# Created by linkgate automatically.\n*\n"
_HINT = ("`.linkgate/` is linkgate's own state, never part of a repository: remove it "
         "(and stop committing it), then run again")


def _what(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def unsafe(path: Path, what: str, *, hint: str = _HINT) -> UnsafeState:
    return UnsafeState(f"{path} is {what}; linkgate writes nothing through it", hint=hint)


def ensure(root: Path) -> Path:
    """Create ``root/.linkgate`` with its own ``.gitignore``; return its path.
    UnsafeState when it is a symlink or not a directory."""
    state = root / STATE_DIR
    try:
        os.mkdir(state)
    except FileExistsError:
        pass
    st = os.lstat(state)
    if not stat.S_ISDIR(st.st_mode):
        raise unsafe(state, _what(st.st_mode) + ", not a directory")
    write_ignore(state / ".gitignore")
    return state


def write_ignore(ignore: Path, *, hint: str = _HINT) -> None:
    """A ``.gitignore`` of ``*`` in linkgate's own directory, created once and
    never through a symlink; UnsafeState when one is there that is not a regular file."""
    try:
        st = os.lstat(ignore)
    except FileNotFoundError:
        try:
            fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError:
            return  # a read-only checkout still gets its lock; only hygiene is lost
        try:
            os.write(fd, _GITIGNORE.encode())
        except OSError:
            pass
        finally:
            os.close(fd)
        return
    if not stat.S_ISREG(st.st_mode):
        raise unsafe(ignore, _what(st.st_mode), hint=hint)


def open_file(root: Path, name: str, flags: int, mode: int = 0o644) -> int:
    """A descriptor of ``.linkgate/NAME``, opened with *flags*, never through a
    symlink and only when it is a regular file (O_TRUNC is refused: truncate
    with ``os.ftruncate`` once the file is known to be regular)."""
    assert not flags & os.O_TRUNC
    path = ensure(root) / name
    try:
        # O_NONBLOCK: a FIFO committed under the name opens at once (or fails
        # with ENXIO) instead of blocking; it is refused below.
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
            raise unsafe(path, _what(os.lstat(path).st_mode)) from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise unsafe(path, _what(st.st_mode))
    os.set_blocking(fd, True)
    return fd


def check_file(root: Path, name: str) -> Path:
    """``.linkgate/NAME`` for a reader that opens it itself (SQLite): UnsafeState
    unless ``.linkgate`` is a real directory and NAME is absent or a regular file."""
    state = root / STATE_DIR
    path = state / name
    for here in (state, path):
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            return path
        wanted = stat.S_ISDIR if here is state else stat.S_ISREG
        if not wanted(st.st_mode):
            raise unsafe(here, _what(st.st_mode))
    return path


def create_fresh(path: Path, data: bytes | str) -> None:
    """Write *data* into a new file at *path*, whatever was there: a file, or a
    symlink a repository committed (under ``target/`` too), is removed first and
    never written through (``O_EXCL|O_NOFOLLOW``)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def replace_with(path: Path, data: bytes | str) -> None:
    """Replace *path* by a file holding *data*: written fresh beside it, then
    renamed over it (a rename replaces a symlink, never follows it)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        create_fresh(tmp, data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

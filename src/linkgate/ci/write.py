"""Write the files `ci github --write` planned: one writer at a time, atomically,
and no temp file left behind.

- Writers serialise on an flock of the repository's root directory, held from
  reading the workflow to replacing it: two `--write`s at once would each
  read the old text, and the later replace would drop the other's gate. A
  directory is flocked because it needs no file of its own (nothing to
  create, commit or follow as a symlink); the flock ends with the process,
  kill -9 included.
- Each file is written to a temp file beside it (``os.replace`` is atomic on
  one filesystem only), fsynced, then renamed over it, so a kill leaves the
  old bytes or the new ones. A kill between the two leaves the temp file:
  its name is recognisable (``.ci.yml.linkgate.XXXXXXXX.tmp``), and the next
  writer, holding the lock (so no live writer owns one), removes it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from linkgate.errors import LockHeld
from linkgate.prove.lock import flock_holders

WAIT_SECONDS = 60.0
_POLL_SECONDS = 0.1


def _temp_pattern(name: str) -> re.Pattern[str]:
    # Also the names of linkgate before this one (``.ci.yml.k2j4_x9a.tmp``, tempfile's
    # eight characters), which a kill left behind with nothing to remove them.
    return re.compile(rf"\.{re.escape(name)}\.(?:linkgate\.)?[A-Za-z0-9_]{{8}}\.tmp")


@contextmanager
def writers_lock(root: Path, waiting: Callable[[str], object]) -> Iterator[None]:
    """Hold the lock of workflow writers in *root* for the block. *waiting* is
    told once when another writer holds it; after WAIT_SECONDS, LockHeld (exit 4)."""
    import fcntl

    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise LockHeld(f"cannot lock {root} for writing workflows ({exc.strerror})") from None
    try:
        deadline = None
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is None:
                    pids = ", ".join(str(pid) for pid, _ in flock_holders(fd))
                    waiting(f"waiting for another `linkgate ci github --write`{f' (pid {pids})' if pids else ''} "
                            f"in {root}, up to {WAIT_SECONDS:.0f} s")
                    deadline = time.monotonic() + WAIT_SECONDS
                elif time.monotonic() > deadline:
                    raise LockHeld(f"another `linkgate ci github --write` has been writing in {root} for over "
                                   f"{WAIT_SECONDS:.0f} s", hint="wait for it to finish, then run again") from None
                time.sleep(_POLL_SECONDS)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temp files an interrupted writer of *path* left; return them.
    Call only under ``writers_lock``."""
    pattern = _temp_pattern(path.name)
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return []
    for entry in entries:
        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def write_keeping_mode(path: Path, text: str) -> None:
    """Replace *path* with *text* (UTF-8, line ends as given) atomically, keeping its mode."""
    import tempfile

    from linkgate.report import OutputError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.linkgate.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:  # disk full, read-only: the workflow stays as it was
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current

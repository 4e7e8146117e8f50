"""The repository lock, ``.linkgate/lock``: one flock with two modes.

``prove`` and ``recover`` hold it exclusively while files may be mutated;
``run`` holds it shared, so runs coexist but neither side ever builds or
mutates under the other. A refused process names the holder's pid, read from
``/proc/locks`` (the kernel's word, also for shared holders); an exclusive
holder also writes its pid into the file, for systems without ``/proc``.
"""

from __future__ import annotations

import os
from pathlib import Path

from linkgate.errors import LockHeld, RecoveryError, UnsafeState
from linkgate.statedir import STATE_DIR, open_file

LOCK = "lock"


class RepositoryLock:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / STATE_DIR
        self.path = self.state / LOCK
        self._fd: int | None = None
        self._shared = False

    def acquire(self, *, shared: bool = False) -> None:
        import fcntl

        try:
            fd = open_file(self.root, LOCK, os.O_RDWR | os.O_CREAT)
        except UnsafeState:
            raise  # a symlink or FIFO committed as the lock: never followed, also for a shared lock
        except OSError as exc:
            if not shared:
                raise RecoveryError(
                    f"cannot create the lock in {self.state}: {exc.strerror}",
                    hint="prove journals files there before mutating them; make the checkout writable",
                ) from None
            # A read-only checkout (target-dir elsewhere): nothing can mutate
            # it, so a run has nothing to guard against.
            return
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holders = flock_holders(fd)
            os.close(fd)
            raise self._held(holders, shared) from None
        if not shared:
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, str(os.getpid()).encode(), 0)
            except OSError:
                pass  # disk full: the flock is the lock; the pid is only a courtesy for `recover`
        self._fd = fd
        self._shared = shared

    def _held(self, holders: list[tuple[int, bool]], shared: bool) -> LockHeld:
        writers = [pid for pid, exclusive in holders if exclusive]
        pids = ", ".join(str(p) for p in (writers or [p for p, _ in holders]))
        if writers or shared:
            what = "is mutating files in"
            hint = ("wait for it to finish; building now would link its mutated tree"
                    if shared else "wait for it to finish; two negative controls must not interleave")
        else:
            what = "is building in"
            hint = "wait for it to finish; prove would mutate files under its build"
        which = f" (pid {pids})" if pids else ""
        if "," in pids:  # several readers
            who, what = "other linkgate processes", what.replace("is ", "are ", 1)
        else:
            who = "another linkgate process"
        return LockHeld(f"{who}{which} {what} {self.root}", hint=hint)

    def release(self) -> None:
        if self._fd is not None:
            if not self._shared:
                os.ftruncate(self._fd, 0)  # no stale pid for the next reader
            os.close(self._fd)  # closing releases the flock
            self._fd = None

    def is_free(self) -> bool:
        import fcntl

        if not os.path.lexists(self.path):
            return True
        fd = open_file(self.root, LOCK, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        finally:
            os.close(fd)
        return True

    def holders(self) -> list[tuple[int, bool]]:
        """(pid, exclusive) of the processes holding the lock now."""
        if not os.path.lexists(self.path):
            return []
        fd = open_file(self.root, LOCK, os.O_RDONLY)
        try:
            return flock_holders(fd)
        finally:
            os.close(fd)


def flock_holders(fd: int) -> list[tuple[int, bool]]:
    """Who holds the flock on *fd*'s file (or directory), from /proc/locks (Linux);
    the pid written by an exclusive holder when /proc/locks cannot be read."""
    st = os.fstat(fd)
    me = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    found: list[tuple[int, bool]] = []
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                if "->" in parts:  # a waiter, not a holder
                    continue
                if len(parts) < 6 or parts[1] != "FLOCK":
                    continue
                if parts[5] == me:
                    pid = int(parts[4])
                    if pid != os.getpid():
                        found.append((pid, parts[3] == "WRITE"))
    except (OSError, ValueError):
        pass
    if not found:
        try:
            text = os.pread(fd, 64, 0).decode(errors="replace").strip()
        except OSError:  # a directory holds no pid
            text = ""
        if text.isdigit():
            found.append((int(text), True))
    return found

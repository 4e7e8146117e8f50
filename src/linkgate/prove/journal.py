"""Nothing lost: journal a file before mutating it, restore it byte for byte.

Order of events for one mutation:
  1. take the repository lock (``.linkgate/lock``, an flock held for the run);
  2. write the journal (original bytes, sha256, mode, mtime, and the cargo
     fingerprints the mutation can make stale) to a temporary file, fsync it,
     rename it into place, fsync the directory;
  3. replace the file atomically (temporary file + os.replace), so at every
     instant it holds either the original or the mutated bytes;
  4. restore the same way, invalidate those fingerprints, then delete the
     journal.
A crash or ``kill -9`` anywhere leaves either no journal (nothing mutated) or
a journal from which the next linkgate invocation restores.

mtime policy: restored files get the current time, not the original mtime.
Cargo decides staleness by mtime; putting the old mtime back would make the
mutated build look up to date. The original mtime is kept in the journal.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from linkgate import repofs
from linkgate.errors import Interrupted, RecoveryError
from linkgate.prove.lock import RepositoryLock
from linkgate.statedir import STATE_DIR, ensure as ensure_state_dir, open_file

if TYPE_CHECKING:  # loaded with a journal that names caches: a run that finds none never needs it
    from linkgate.prove.caches import CacheScope
JOURNAL = "journal.json"
_TMP_SUFFIX = ".linkgate-tmp"
# A journal holds one mutated file's original (base64): a source file, far below this.
_MAX_JOURNAL = 256 * 1024 * 1024


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tmp_for(path: Path) -> Path:
    return path.with_name(f".{path.name}{_TMP_SUFFIX}")


def write_bytes_atomic(path: Path, data: bytes, mode: int) -> None:
    """Replace *path* with *data* so that no reader ever sees a partial file."""
    tmp = _tmp_for(path)
    try:
        # A stale temporary (or one a repository committed, as a symlink to a
        # file outside) is removed, never written through: O_EXCL|O_NOFOLLOW.
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:  # disk full, read-only: *path* is as it was
        tmp.unlink(missing_ok=True)
        raise RecoveryError(f"cannot write {path}: [Errno {exc.errno}] {exc.strerror}; it was left as it was",
                            hint="free space on that file system and run again") from None
    _fsync_dir(path.parent)


@dataclass(frozen=True)
class Entry:
    """A file a control mutated: its original bytes and both digests, enough to restore it."""

    path: str  # relative to the repository root
    original: bytes
    original_sha256: str
    mutated_sha256: str
    mode: int
    mtime_ns: int
    # Cargo fingerprints the mutation can leave stale; whoever restores the
    # file invalidates them, so no later build reuses a mutated artefact.
    caches: CacheScope | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "original_b64": base64.b64encode(self.original).decode("ascii"),
            "original_sha256": self.original_sha256,
            "mutated_sha256": self.mutated_sha256,
            "mode": self.mode,
            "mtime_ns": self.mtime_ns,
            "caches": self.caches.to_json() if self.caches is not None else None,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Entry:
        original = base64.b64decode(d["original_b64"])
        if sha256(original) != d["original_sha256"]:
            raise RecoveryError(f"journal entry for {d['path']} is corrupt (hash mismatch)")
        caches = None
        if d.get("caches"):
            from linkgate.prove.caches import CacheScope

            caches = CacheScope.from_json(d["caches"])
        return Entry(
            d["path"], original, d["original_sha256"], d["mutated_sha256"], d["mode"], d["mtime_ns"], caches
        )


class Repository:
    """The state directory of one repository: its lock and its journal."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / STATE_DIR
        self.journal = self.state / JOURNAL
        self._lock = RepositoryLock(root)

    # -- lock (see linkgate.prove.lock) ----------------------------------------
    def lock(self, *, shared: bool = False) -> None:
        self._lock.acquire(shared=shared)

    def unlock(self) -> None:
        self._lock.release()

    def lock_is_free(self) -> bool:
        return self._lock.is_free()

    def holders(self) -> list[tuple[int, bool]]:
        return self._lock.holders()

    # -- journal ------------------------------------------------------------
    def write_journal(self, entries: list[Entry]) -> None:
        doc = {"version": 1, "pid": os.getpid(), "entries": [e.to_json() for e in entries]}
        tmp = self.journal.with_suffix(".tmp")
        try:
            ensure_state_dir(self.root)
            tmp.unlink(missing_ok=True)  # never written through: a fresh file, O_EXCL below
            fd = open_file(self.root, tmp.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.journal)
        except OSError as exc:  # before any mutation: nothing to restore
            tmp.unlink(missing_ok=True)
            raise RecoveryError(f"cannot write the journal {self.journal}: [Errno {exc.errno}] {exc.strerror}; "
                                "no file was changed", hint="free space on that file system and run again") from None
        _fsync_dir(self.state)

    def read_journal(self) -> list[Entry]:
        try:
            fd = open_file(self.root, JOURNAL, os.O_RDONLY)
        except FileNotFoundError:
            return []
        try:
            with os.fdopen(fd, "rb") as fh:
                doc = json.loads(fh.read(_MAX_JOURNAL + 1))
        except FileNotFoundError:
            return []
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecoveryError(
                f"journal {self.journal} is unreadable: {exc}",
                hint="restore the files by hand from git, then delete the journal",
            ) from None
        return [Entry.from_json(e) for e in doc.get("entries", [])]

    def clear_journal(self) -> None:
        self.journal.unlink(missing_ok=True)
        self.journal.with_suffix(".tmp").unlink(missing_ok=True)
        if self.state.exists():
            _fsync_dir(self.state)

    # -- mutate / restore ---------------------------------------------------
    def mutate(self, rel: str, mutated: bytes, caches: CacheScope | None = None) -> Entry:
        path = self._inside(rel)
        st = path.stat()
        original = repofs.read_bytes(rel, inside=self.root, limit=repofs.MAX_SOURCE)
        entry = Entry(
            rel, original, sha256(original), sha256(mutated), st.st_mode & 0o7777, st.st_mtime_ns, caches
        )
        self.write_journal([entry])
        write_bytes_atomic(path, mutated, entry.mode)
        return entry

    def _inside(self, rel: str) -> Path:
        """``root/rel`` when it is a regular file (or absent) inside the repository,
        not reached through a symlink: a control's file, or a journal's entry (a
        journal is a file in the tree, and a repository can commit one), never
        makes linkgate write outside the repository or through a link."""
        path = self.root / rel
        repofs.resolve(rel, inside=self.root)
        if os.path.realpath(path) != os.path.join(os.path.realpath(self.root), os.path.normpath(rel)):
            raise RecoveryError(f"{rel} is reached through a symlink; linkgate mutates and restores only "
                                "regular files inside the repository", hint="name the file itself, not a link to it")
        if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
            raise RecoveryError(f"{rel} is not a regular file; linkgate mutates and restores only regular files",
                                hint="name a source file")
        return path

    @contextmanager
    def locked(self, *, shared: bool = False) -> Iterator[Repository]:
        self.lock(shared=shared)
        try:
            yield self
        finally:
            self.unlock()

    @contextmanager
    def mutated(self, rel: str, data: bytes, caches: CacheScope | None = None) -> Iterator[Entry]:
        """Hold *rel* mutated for the body; journal, mutate and restore are each
        one step a signal cannot split, and the restore always runs."""
        entry: Entry | None = None
        try:
            # Inside the try: a signal blocked during the mutation is delivered
            # the moment the mask is lifted, and must still find the restore.
            with signals_deferred():
                entry = self.mutate(rel, data, caches)
            yield entry
        finally:
            with signals_deferred():
                self.restore([entry] if entry is not None else self.read_journal())

    def restore(self, entries: list[Entry], *, force: bool = False) -> list[str]:
        """Put every journalled file back; return what was restored. Idempotent."""
        restored = []
        for e in entries:
            path = self._inside(e.path)
            _tmp_for(path).unlink(missing_ok=True)
            current = path.read_bytes() if path.exists() else None
            if current is not None and sha256(current) == e.original_sha256:
                if (path.stat().st_mode & 0o7777) != e.mode:
                    os.chmod(path, e.mode)
                # Killed between restoring and invalidating, or before the
                # mutation landed: invalidating again costs one rerun at most.
                _invalidate(e)
                continue
            if current is not None and sha256(current) != e.mutated_sha256 and not force:
                raise RecoveryError(
                    f"{e.path} changed since linkgate mutated it; not overwriting your edit",
                    hint=f"compare with git, then run `linkgate recover --force` to restore the "
                    f"journalled original ({self.journal})",
                )
            write_bytes_atomic(path, e.original, e.mode)
            _invalidate(e)
            restored.append(e.path)
        self.clear_journal()
        return restored


def _invalidate(entry: Entry) -> None:
    """Make the fingerprints honest before the journal goes: the journal is the
    only record of which caches saw the mutated bytes."""
    if entry.caches is not None:
        from linkgate.prove.caches import invalidate

        invalidate(entry.caches)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Block SIGINT/SIGTERM while a restore runs, so it cannot be cut in half."""
    sigs = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def terminate_as_exception() -> Iterator[None]:
    """Turn SIGINT, SIGTERM and SIGHUP into Interrupted so ``finally`` blocks restore."""

    def handler(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def find_root_with_journal(start: Path) -> Path | None:
    here = start.resolve()
    for directory in (here, *here.parents):
        if (directory / STATE_DIR / JOURNAL).is_file():
            return directory
        if (directory / ".git").exists():
            return None
    return None


def recover(root: Path, *, force: bool = False, announce: bool = True, held_ok: bool = True) -> list[str]:
    """Restore what the journal records. With *held_ok* (start-up recovery) a journal whose
    owner is alive is left to it; without (`linkgate recover`), a held lock is LockHeld,
    raised by the lock itself, so no check-then-act gap can report intact files that a
    running prove holds mutated."""
    repo = Repository(root)
    if not repo.journal.exists():
        return []
    if held_ok and not repo.lock_is_free():
        return []  # its owner is alive and will restore itself
    repo.lock()  # LockHeld when another process took it meanwhile
    try:
        restored = repo.restore(repo.read_journal(), force=force)
    finally:
        repo.unlock()
    if announce:
        what = ", ".join(restored) if restored else "nothing (files were already intact)"
        sys.stderr.write(
            f"linkgate: an interrupted run left a journal in {repo.state}; restored: {what}\n"
        )
    return restored


def recover_at_startup() -> None:
    """Called before every command: cheap when there is no journal."""
    root = find_root_with_journal(Path.cwd())
    if root is not None:
        recover(root)

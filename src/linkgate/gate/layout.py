"""Where linkgate keeps its per-(gate, linker) target directories.

Cargo hashes the linker into every unit's fingerprint, so one target
directory shared by two linkers rebuilds everything on each switch; each
(gate, linker) pair therefore gets its own.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from linkgate import repofs, statedir
from linkgate.config import Config, Gate


def target_dir(config: Config, gate: Gate, linker: str, env: Mapping[str, str] | None = None) -> Path:
    """*env* is the environment linkgate runs in (default its own; the audit passes a CI step's)."""
    if gate.target_dir:
        base = Path(config.root, gate.target_dir)
        return base / linker if len(gate.linkers) > 1 else base
    # CARGO_TARGET_DIR moves cargo's target directory; linkgate's follows it,
    # so a CI job's persistent directory (`ci github` on a self-hosted runner)
    # keeps linkgate's builds warm too.
    moved = (os.environ if env is None else env).get("CARGO_TARGET_DIR")
    if moved:
        return Path(config.root, moved) / "linkgate" / gate.name / linker
    return config.root / "target" / "linkgate" / gate.name / linker


def hide_default_root(config: Config, tdir: Path) -> None:
    """``target/linkgate/`` gets its own ``.gitignore`` (``*``), as ``.linkgate/`` does: a
    repository that does not ignore ``target/`` (a command gate's) never shows it in git."""
    base = config.root / "target" / "linkgate"
    if base not in tdir.parents:
        return  # a target-dir or CARGO_TARGET_DIR the user chose: theirs to ignore
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only checkout: only hygiene is lost
    if not repofs.is_inside(os.path.realpath(base), os.path.realpath(config.root)):
        return  # `target` links to another disk: that directory is not the repository's to mark
    statedir.write_ignore(base / ".gitignore", hint=f"{base} is linkgate's build directory: remove the link "
                          "(a repository must not commit it), then run again")


def work_dir(config: Config, gate: Gate) -> Path:
    return Path(config.root, gate.working_directory) if gate.working_directory else config.root


# Inside the target directory: measure.is_cold ignores it.
TARGET_LOCK = ".linkgate-lock"


@contextmanager
def target_lock(tdir: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """One linkgate run at a time in a target directory. Cargo's own lock only
    covers one build: linkgate deletes artifacts to force the link, builds,
    then reads what was linked, and a second run in between would see fresh
    units and nothing relinked. The second run waits, then judges a build of
    its own. An unwritable directory gets no lock (cargo reports it)."""
    try:
        tdir.mkdir(parents=True, exist_ok=True)
    except OSError:
        yield
        return
    def say_waiting() -> None:
        if waiting is not None:
            waiting(f"waiting for another linkgate run in {tdir}")

    with exclusive_flock(tdir / TARGET_LOCK, create=True, waiting=say_waiting):
        yield


@contextmanager
def exclusive_flock(path: Path, *, create: bool, waiting: Callable[[], object]) -> Iterator[None]:
    """Hold an exclusive flock on *path* for the block, calling *waiting* once
    if another process holds it first. A file that cannot be opened (missing
    when not *create*, or unwritable) gives no lock: the caller goes on."""
    import fcntl

    try:
        # O_NOFOLLOW|O_NONBLOCK: a symlink or FIFO committed under the name is
        # neither followed nor waited on; only a regular file is locked.
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_CREAT if create else 0),
                     0o644)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            fd = -1
    except OSError:
        fd = -1
    if fd < 0:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)

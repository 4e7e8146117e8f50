"""What every adversarial case asserts, whatever its class.

A case runs one linkgate command in-process (``main(argv)``) on a repository in
a temporary directory, next to a sentinel directory outside it, and checks:
  - no internal error: no traceback, no "internal error", an exit code from the
    documented set (0 to 4, errors.py);
  - no file outside the repository touched: the sentinel directory, and the
    parent of the repository, hash the same before and after;
  - bounded work: each case (one linkgate command) runs under a 10 s wall-clock
    limit (a case may name a larger one for input that is large by design: the
    10,000-pattern filters, a million pattern decisions, take 30 s) and may grow the process's address space by at most 1 GiB
    (RLIMIT_AS, inherited by every program linkgate starts): past the time the
    case fails with ``CaseTooSlow``, past the memory linkgate's own allocation
    fails (MemoryError, an internal error the next check fails on). Each test
    also carries a pytest-timeout mark for its setup (a hang fails, it does not
    stall the suite), and ``peak_growth_mib`` reports how much the process's
    peak RSS rose (bench/adversarial.py reports time and memory per class).
The class-specific assertion (the right verdict) is the caller's.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from linkgate.cli import main

DOCUMENTED_CODES = {0, 1, 2, 3, 4}
CASE_SECONDS = 10
CASE_BYTES = 1024**3


class CaseTooSlow(BaseException):
    """A case ran past CASE_SECONDS (a BaseException: linkgate's own `except Exception` cannot eat it)."""


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


@contextmanager
def bounded(seconds: float | None = None) -> Iterator[None]:
    """*seconds* (CASE_SECONDS by default) of wall time and CASE_BYTES more address space for
    what runs inside."""
    seconds = CASE_SECONDS if seconds is None else seconds
    def too_slow(signum: int, frame: object) -> None:
        raise CaseTooSlow(f"the case ran past {seconds:g} s")

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + CASE_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    old = signal.signal(signal.SIGALRM, too_slow)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    peak_growth_mib: float


def tree_digest(root: Path, skip: Path | None = None) -> str:
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if skip is not None and (here == skip or skip in here.parents):
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            path = here / name
            h.update(str(path.relative_to(root)).encode())
            try:
                h.update(path.read_bytes() if not path.is_symlink() else os.readlink(path).encode())
            except OSError:
                h.update(b"?")
    return h.hexdigest()


def run(argv: list[str], cwd: Path, *, outside: Path, repo: Path, seconds: float | None = None) -> Outcome:
    """Run linkgate; assert the invariants; return what it said."""
    before = tree_digest(outside, skip=repo)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err), bounded(seconds):
            code = main(argv)
    finally:
        os.chdir(old)
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    text = err.getvalue()
    assert code in DOCUMENTED_CODES, (code, text[-2000:])
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]
    assert tree_digest(outside, skip=repo) == before, f"{argv}: a file outside the repository changed"
    return Outcome(code, out.getvalue(), text, growth)

"""What every adversarial case asserts, whatever its class.

A case runs one linkgate command in-process (``main(argv)``) on a repository in
a temporary directory, next to a sentinel directory outside it, and checks:
  - no internal error: no traceback, no "internal error", an exit code from the
    documented set (0 to 4, errors.py);
  - no file outside the repository touched: the sentinel directory, and the
    parent of the repository, hash the same before and after;
  - bounded work: each test carries a pytest-timeout mark (a hang fails, it
    does not stall the suite), and ``peak_growth_mib`` reports how much the
    process's peak RSS rose (bench/adversarial.py reports time and memory per
    class; tests do not assert timings).
The class-specific assertion (the right verdict) is the caller's.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from linkgate.cli import main

DOCUMENTED_CODES = {0, 1, 2, 3, 4}


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


def run(argv: list[str], cwd: Path, *, outside: Path, repo: Path) -> Outcome:
    """Run linkgate; assert the invariants; return what it said."""
    before = tree_digest(outside, skip=repo)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(old)
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    text = err.getvalue()
    assert code in DOCUMENTED_CODES, (code, text[-2000:])
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]
    assert tree_digest(outside, skip=repo) == before, f"{argv}: a file outside the repository changed"
    return Outcome(code, out.getvalue(), text, growth)

"""Real file-system faults for the tests: a tiny tmpfs that fills up (ENOSPC),
and one remounted read-only (EROFS).

Mounting needs root (the CI container runs as root) or password-less sudo (a
GitHub-hosted runner); a test that cannot mount fails, it does not skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount_cmd(*args: str) -> list[str]:
    if os.geteuid() == 0:
        return [*args]
    if shutil.which("sudo") is None:
        pytest.fail("these fault tests mount a tmpfs: run them as root or with password-less sudo")
    return ["sudo", "-n", *args]


def _run(*args: str) -> None:
    done = subprocess.run(_mount_cmd(*args), capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed: {done.stderr.strip()} (needs root or password-less sudo)")


@contextmanager
def tmpfs(path: Path, size_kib: int = 64) -> Iterator[Path]:
    """A tmpfs of *size_kib* KiB at *path*, unmounted afterwards."""
    path.mkdir(parents=True, exist_ok=True)
    _run("mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=1777", "tmpfs", str(path))
    try:
        yield path
    finally:
        subprocess.run(_mount_cmd("umount", "-l", str(path)), capture_output=True)


def remount_readonly(path: Path) -> None:
    _run("mount", "-o", "remount,ro", str(path))


def fill(path: Path) -> None:
    """Fill the file system holding *path* until ENOSPC (one file, kept)."""
    with open(path / ".filler", "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 1024)
        except OSError:
            pass

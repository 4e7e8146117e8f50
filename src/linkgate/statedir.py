"""The ``.linkgate/`` directory at the repository root: lock, journal, crash log.

It ignores itself, as pytest's ``.pytest_cache`` does, so that ``git add -A``
never commits a journal of someone's mutated file and ``git status`` (which the
dirty check of ``prove`` reads) stays clean.
"""

from __future__ import annotations

from pathlib import Path

STATE_DIR = ".linkgate"
_GITIGNORE = "# Created by linkgate automatically.\n*\n"


def ensure(root: Path) -> Path:
    """Create ``root/.linkgate`` with its own ``.gitignore``; return its path."""
    state = root / STATE_DIR
    state.mkdir(exist_ok=True)
    ignore = state / ".gitignore"
    if not ignore.exists():
        try:
            ignore.write_text(_GITIGNORE, encoding="utf-8")
        except OSError:
            pass  # a read-only checkout still gets its lock; only hygiene is lost
    return state

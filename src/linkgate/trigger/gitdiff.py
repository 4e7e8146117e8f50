"""Changed files exactly as dorny/paths-filter lists them from git.

paths-filter runs ``git diff --no-renames --name-status -z <base>...HEAD``
(three dots: against the merge base), so a rename is a deletion plus an
addition, and maps git's status letters to its own names; a letter it does
not know (T, a type change) gets no status, so change-type rules never match
it. When base and head share no history it lists every tracked file as added.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from linkgate import proc
from linkgate.errors import CommandFailed, UsageError

STATUS_NAMES = {"A": "added", "C": "copied", "D": "deleted", "M": "modified", "R": "renamed", "U": "unmerged"}


class Change(NamedTuple):
    """A NamedTuple, not a dataclass: should-run builds 10,000 of them at start-up."""

    path: str
    code: str  # git's letter
    status: str | None  # paths-filter's name, None for letters it does not map

    def to_dict(self) -> dict[str, str | None]:
        return {"path": self.path, "status": self.status, "git": self.code}


def parse_name_status(output: str) -> list[Change]:
    """Parse ``--name-status -z`` output: NUL-separated (status, path) pairs."""
    tokens = [t for t in output.split("\0") if t]
    changes = []
    for i in range(0, len(tokens) - 1, 2):
        code = tokens[i][:1]
        changes.append(Change(tokens[i + 1], code, STATUS_NAMES.get(code)))
    return changes


def changed_files(base: str, head: str = "HEAD", cwd: str | Path | None = None) -> list[Change]:
    argv = ["git", "diff", "--no-renames", "--name-status", "-z", f"{base}...{head}", "--"]
    done = proc.run(argv, cwd=cwd, check=False)
    if done.returncode == 0:
        return parse_name_status(done.stdout)
    if "no merge base" in done.stderr:
        listed = proc.run(["git", "ls-files", "-z"], cwd=cwd)
        return [Change(p, "A", "added") for p in listed.stdout.split("\0") if p]
    if "unknown revision" in done.stderr or "bad revision" in done.stderr or "ambiguous argument" in done.stderr:
        raise UsageError(
            f"git does not know {base!r} or {head!r}: {done.stderr.strip().splitlines()[0]}",
            hint="fetch the base branch first (e.g. git fetch origin main) and pass --base origin/main",
        )
    raise CommandFailed(argv, done.returncode, done.stdout, done.stderr)


def tracked_files(cwd: str | Path | None = None) -> list[str]:
    """Every file git tracks, relative to the repository root."""
    done = proc.run(["git", "ls-files", "-z", "--full-name"], cwd=cwd)
    return [p for p in done.stdout.split("\0") if p]

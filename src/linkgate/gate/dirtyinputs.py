"""Which of a build's inputs no commit holds: untracked, ignored or modified, as git sees them.

Four git calls whatever the number of inputs (the top level, the tracked files,
the changed ones, the ignore rules for the untracked candidates), plus one per
directory whose every file counts. A file in the gate's target dir or in
linkgate's state is build output, never an input of the tree.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.gate.buildinputs import BuildInputs
from linkgate.gate.stale import blind_input

# Build output and VCS data under a package: never part of what a commit holds.
_SKIP_PARTS = frozenset({".git", ".linkgate", "target"})


@dataclass(frozen=True)
class DirtyInput:
    """An input the build read that a clone of the commit would not have as it was."""

    path: str  # relative to the repository root
    why: str   # "untracked", "ignored" or "modified"

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "why": self.why}


def _git(top: Path, *args: str, stdin: str | None = None) -> str | None:
    from linkgate import proc
    from linkgate.errors import LinkgateError

    try:
        done = proc.run(["git", *args], cwd=top, check=False, stdin=stdin)
    except LinkgateError:
        return None
    # check-ignore exits 1 when nothing is ignored: an answer, not a failure.
    return done.stdout if done.returncode in (0, 1) else None


def _nul(text: str) -> list[str]:
    return [p for p in text.split("\0") if p]


def _changed(status: str) -> set[str]:
    """Paths of `git status --porcelain=v2 -z` entries (ordinary, renamed, unmerged)."""
    out: set[str] = set()
    entries = status.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        fields = {"1": 8, "2": 9, "u": 10}.get(entry[:1])
        if fields is None:
            continue
        parts = entry.split(" ", fields)
        if len(parts) > fields:
            out.add(parts[fields])
        if entry[:1] == "2":
            i += 1  # the rename's source path follows as its own entry
    return out


def dirty_inputs(root: Path, inputs: BuildInputs, skip: Sequence[Path]) -> tuple[DirtyInput, ...] | None:
    """The inputs (under the repository) that are untracked, ignored or modified; None when
    git cannot say (not a checkout, no git)."""
    top_out = _git(root, "rev-parse", "--show-toplevel")
    if not top_out or not top_out.strip():
        return None
    top = Path(top_out.strip())
    tracked_out = _git(top, "ls-files", "-z", "--recurse-submodules")
    status = _git(top, "status", "--porcelain=v2", "-z", "--untracked-files=no")
    if tracked_out is None or status is None:
        return None
    tracked, changed = set(_nul(tracked_out)), _changed(status)
    skipped = [os.path.realpath(s) for s in skip]

    def rel(path: str) -> str | None:
        real = os.path.realpath(path)
        if any(real == s or real.startswith(s + os.sep) for s in skipped):
            return None
        r = os.path.relpath(real, os.path.realpath(top))
        if r == "." or r.startswith(".." + os.sep) or r == ".." or _SKIP_PARTS & set(Path(r).parts):
            return None
        return Path(r).as_posix()

    found: dict[str, str] = {}
    candidates: list[str] = []  # untracked: ignored or not, git's rules say
    for path in inputs.files:
        r = rel(path)
        if r is None or not os.path.isfile(os.path.join(top, r)):
            continue
        if r in tracked:
            if r in changed:
                found[r] = "modified"
        elif r not in candidates:
            candidates.append(r)
    for tree in inputs.trees:
        base = rel(tree)
        if base is None:
            continue
        found.update({c: "modified" for c in changed if c == base or c.startswith(base + "/")})
        listed = _git(top, "ls-files", "-z", "--others", "--", f":(literal){base}")
        candidates += [p for p in _nul(listed or "") if rel(os.path.join(top, p)) and p not in candidates]
    for package in inputs.packages:
        base = rel(package)
        if base is None:
            continue
        listed = _git(top, "ls-files", "-z", "--others", "--exclude-standard", "--", f":(literal){base}")
        for p in _nul(listed or ""):
            # What the script could read that no record names: not a source rustc's dep-info
            # lists, a manifest, prose or a dotfile (gate/stale.py's rule for the same packages).
            if rel(os.path.join(top, p)) and blind_input(Path(p).name) and not _in_nested_package(top, base, p):
                found.setdefault(p, "untracked")
        found.update({c: "modified" for c in changed
                      if (c.startswith(base + "/") or base == ".") and not _in_nested_package(top, base, c)})
    candidates = [c for c in candidates if c not in found]
    if candidates:
        ignored = set(_nul(_git(top, "check-ignore", "-z", "--stdin", stdin="\0".join(candidates) + "\0") or ""))
        found.update({c: "ignored" if c in ignored else "untracked" for c in candidates})
    shown = {p: os.path.relpath(top / p, root) for p in found}
    return tuple(DirtyInput(Path(shown[p]).as_posix(), why) for p, why in sorted(found.items()))


def _in_nested_package(top: Path, base: str, path: str) -> bool:
    """Is *path* in another package below the package at *base* (its own build script, its own record)?"""
    parent = Path(path).parent
    stop = Path(base) if base != "." else Path("")
    while parent != stop and parent != Path("") and parent != Path("."):
        if (top / parent / "Cargo.toml").is_file():
            return True
        parent = parent.parent
    return False

"""Changed files exactly as dorny/paths-filter lists them from git.

paths-filter runs ``git diff --no-renames --name-status -z <base>...HEAD``
(three dots: against the merge base), so a rename is a deletion plus an
addition, and maps git's status letters to its own names; a letter it does
not know (T, a type change) gets no status, so change-type rules never match
it. When base and head share no history it lists every tracked file as added.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from linkgate import proc
from linkgate.errors import CommandFailed, UndecidedChange, UsageError

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


def changed_files(
    base: str, head: str = "HEAD", cwd: str | Path | None = None, *, merge_base: bool = True
) -> list[Change]:
    """``base...head`` (against the merge base) or, with ``merge_base=False``,
    ``base..head`` (the two trees directly, as paths-filter does for a push)."""
    dots = "..." if merge_base else ".."
    # --end-of-options: the revisions may come from an event payload (checked
    # by trigger.gitnames, and still never read as options).
    argv = ["git", "diff", "--no-renames", "--name-status", "-z", "--end-of-options", f"{base}{dots}{head}", "--"]
    done = proc.run(argv, cwd=cwd, check=False)
    if done.returncode == 0:
        return parse_name_status(done.stdout)
    if "no merge base" in done.stderr:
        return all_added(cwd)
    _not_a_repository(done.stderr, cwd)
    if "Could not access" in done.stderr:
        # --end-of-options hides the "not a git repository" message: outside a
        # repository git diff falls back to --no-index and looks for files.
        where = proc.run(["git", "rev-parse", "--git-dir"], cwd=cwd, check=False)
        _not_a_repository(where.stderr, cwd)
    if any(s in done.stderr for s in ("unknown revision", "bad revision", "ambiguous argument", "Invalid revision")):
        # One line, no hint block: this runs in CI logs, where the fix must be
        # readable at a glance.
        first = done.stderr.strip().splitlines()[0]
        raise UndecidedChange(
            f"git does not know {base!r} or {head!r} ({first}); fetch it first "
            "(actions/checkout with fetch-depth: 0, or git fetch origin main) or pass --base REF"
        )
    raise CommandFailed(argv, done.returncode, done.stdout, done.stderr)


def has_merge_base(base: str, head: str, cwd: str | Path | None = None) -> bool:
    """False when git finds no common ancestor (a shallow clone cut above it, or
    unrelated histories): then ``base...head`` counts every file as added."""
    done = proc.run(["git", "merge-base", "--end-of-options", base, head], cwd=cwd, check=False)
    return done.returncode != 1


def all_added(cwd: str | Path | None = None) -> list[Change]:
    """Every tracked file as added: paths-filter's answer when there is no base."""
    listed = proc.run(["git", "ls-files", "-z"], cwd=cwd, check=False)
    _not_a_repository(listed.stderr, cwd)
    return [Change(p, "A", "added") for p in listed.stdout.split("\0") if p]


def _not_a_repository(stderr: str, cwd: str | Path | None) -> None:
    # Outside a repository `git diff` falls back to --no-index and prints its
    # whole usage text (exit 129); say what is wrong in one line instead.
    if "Not a git repository" in stderr or "not a git repository" in stderr:
        where = Path(cwd or ".").resolve()
        raise UsageError(f"{where} is not inside a git repository; run linkgate in a checkout or pass --repo DIR")


def local_ref(branch: str, cwd: str | Path | None = None) -> str:
    """A ref git knows for *branch* here: an Actions checkout has ``origin/main``
    as a remote-tracking ref and often no local ``main``."""
    for ref in (f"refs/remotes/origin/{branch}", f"refs/heads/{branch}"):
        if proc.run(["git", "rev-parse", "--verify", "--quiet", "--end-of-options", ref], cwd=cwd,
                    check=False).returncode == 0:
            return ref.removeprefix("refs/remotes/").removeprefix("refs/heads/")
    return branch


def tracked_files(cwd: str | Path | None = None) -> list[str]:
    """Every file git tracks, relative to the repository root."""
    done = proc.run(["git", "ls-files", "-z", "--full-name"], cwd=cwd)
    return [p for p in done.stdout.split("\0") if p]


def ignored_files(top: Path, paths: Sequence[str]) -> set[str]:
    """The *paths* (relative to *top*, a directory of the repository) git ignores.

    A pull request cannot change them (a git-ignored ``Cargo.lock``). Nothing is
    known to be ignored outside git. See ``check_ignored``.
    """
    return check_ignored(top, paths)[0]


def check_ignored(top: Path, paths: Sequence[str]) -> tuple[set[str], list[str]]:
    """(the *paths* git ignores, those git refused to judge).

    One path inside a submodule makes ``git check-ignore`` stop with exit 128
    for all of them ("fatal: Pathspec ... is in submodule"), so each
    submodule's paths are asked of the submodule itself; a 128 for another
    reason (a path beyond a symbolic link) is asked again path by path.
    """
    if not paths:
        return set(), []
    staged = proc.run(["git", "ls-files", "-s", "-z"], cwd=top, check=False)
    if staged.returncode != 0:
        return set(), []  # not a repository
    submodules = sorted((line.split("\t", 1)[1] for line in staged.stdout.split("\0")
                         if line.startswith("160000 ") and "\t" in line), key=len, reverse=True)
    groups: dict[str, list[str]] = {}
    for path in paths:
        sub = next((s for s in submodules if path.startswith(s + "/")), "")
        groups.setdefault(sub, []).append(path[len(sub) + 1:] if sub else path)
    ignored: set[str] = set()
    unchecked: list[str] = []
    for sub, rels in groups.items():
        if sub and not (top / sub / ".git").exists():
            continue  # not checked out: git knows nothing of its files
        code, found = _check_ignore(top / sub, rels)
        if code == 128 and len(rels) > 1:
            found = set()
            for rel in rels:
                one_code, one = _check_ignore(top / sub, [rel])
                found |= one
                if one_code == 128:
                    unchecked.append(f"{sub}/{rel}" if sub else rel)
        elif code == 128:
            unchecked += [f"{sub}/{r}" if sub else r for r in rels]
        ignored.update(f"{sub}/{p}" if sub else p for p in found)
    return ignored, unchecked


def _check_ignore(cwd: Path, rels: Sequence[str]) -> tuple[int, set[str]]:
    # 0: some ignored, 1: none, 128: git refused (its answer is then empty)
    done = proc.run(["git", "check-ignore", "--stdin", "-z"], cwd=cwd, check=False, stdin="\0".join(rels) + "\0")
    return done.returncode, ({p for p in done.stdout.split("\0") if p} if done.returncode == 0 else set())

"""What git says about the repository that a generated job depends on.

One ``git ls-files --stage`` gives the submodules (gitlinks, mode 160000),
whether ``.gitmodules`` and a ``Cargo.lock`` are tracked; ``git check-ignore``
gives the files no pull request can change. Outside git every answer is
"not known", never a guess that would drop something from the job.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

_GITLINK = "160000"


@dataclass(frozen=True)
class GitIndex:
    in_git: bool
    submodules: tuple[str, ...] = ()   # gitlink paths, relative to the root
    gitmodules: bool = False           # .gitmodules is tracked
    lockfile: bool = False             # some Cargo.lock is tracked

    @property
    def checks_out_submodules(self) -> bool:
        """actions/checkout must fetch submodules: it needs the gitlinks and
        .gitmodules (their URLs); a gitlink without it makes the fetch fail."""
        return self.gitmodules and bool(self.submodules)

    def submodule_of(self, path: str) -> str | None:
        """The submodule *path* lies in (or is), if any."""
        for sub in self.submodules:
            if path == sub or path.startswith(sub + "/"):
                return sub
        return None


def read(root: Path) -> GitIndex:
    from linkgate import proc
    from linkgate.errors import LinkgateError

    try:
        done = proc.run(["git", "ls-files", "--stage", "-z"], cwd=root, check=False)
    except LinkgateError:
        return GitIndex(in_git=False)
    if done.returncode != 0:  # 128: not a repository
        return GitIndex(in_git=False)
    subs: list[str] = []
    paths: list[str] = []
    for entry in done.stdout.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        paths.append(path)
        if meta.split(" ", 1)[0] == _GITLINK:
            subs.append(path)
    return GitIndex(
        in_git=True,
        submodules=tuple(subs),
        gitmodules=".gitmodules" in paths,
        lockfile=any(p == "Cargo.lock" or p.endswith("/Cargo.lock") for p in paths),
    )


@dataclass(frozen=True)
class IgnoreCheck:
    ignored: frozenset[str]
    unchecked: tuple[str, ...]  # git refused to say (kept in the filter, named in a note)


def ignored(root: Path, paths: list[str], index: GitIndex) -> IgnoreCheck:
    """Which of *paths* git ignores. Paths inside a submodule are left out: for
    one such path git refuses the whole call (exit 128, "Pathspec ... is in
    submodule"), and the superproject cannot ignore them anyway."""
    from linkgate import proc
    from linkgate.errors import LinkgateError

    paths = [p for p in paths if index.submodule_of(p) is None]
    if not index.in_git or not paths:
        return IgnoreCheck(frozenset(), ())

    def check(batch: list[str]) -> tuple[int, set[str]]:
        try:
            done = proc.run(["git", "check-ignore", "--stdin", "-z"], cwd=root, check=False,
                            stdin="\0".join(batch) + "\0")
        except LinkgateError:
            return 128, set()
        return done.returncode, {p for p in done.stdout.split("\0") if p}

    code, found = check(paths)
    if code in (0, 1):  # 0: some ignored, 1: none
        return IgnoreCheck(frozenset(found), ())
    # 128 for one bad path (e.g. "is beyond a symbolic link") says nothing about
    # the others: ask path by path, and keep the ones git still refuses.
    found, unchecked = set(), []
    for p in paths:
        code, one = check([p])
        if code in (0, 1):
            found |= one
        else:
            unchecked.append(p)
    return IgnoreCheck(frozenset(found), tuple(unchecked))

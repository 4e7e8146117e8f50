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


# A branch name as git allows it and a workflow can carry (check-ref-format, no quotes).
_BRANCH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-")


def default_branch(root: Path) -> str:
    """The branch a new workflow guards on push: origin's HEAD, else the checked-out
    branch, else ``main``; a name with anything but letters, digits and ``._/-`` is not used."""
    from linkgate import proc
    from linkgate.errors import LinkgateError

    for argv, prefix in ((["git", "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], "origin/"),
                         (["git", "symbolic-ref", "--quiet", "--short", "HEAD"], "")):
        try:
            done = proc.run(argv, cwd=root, check=False)
        except LinkgateError:
            break
        name = done.stdout.strip()
        if done.returncode == 0 and name.startswith(prefix):
            name = name[len(prefix):]
            if name and set(name) <= _BRANCH_CHARS and not name.startswith("-"):
                return name
    return "main"


@dataclass(frozen=True)
class IgnoreCheck:
    ignored: frozenset[str]
    unchecked: tuple[str, ...]  # git refused to say (kept in the filter, named in a note)


def ignored(root: Path, paths: list[str], index: GitIndex) -> IgnoreCheck:
    """Which of *paths* git ignores. Paths inside a submodule are left out: a
    filter names the submodule itself (its gitlink), never a file inside it."""
    from linkgate.errors import LinkgateError
    from linkgate.trigger.gitdiff import check_ignored

    paths = [p for p in paths if index.submodule_of(p) is None]
    if not index.in_git or not paths:
        return IgnoreCheck(frozenset(), ())
    try:
        found, unchecked = check_ignored(root, paths)
    except LinkgateError:
        return IgnoreCheck(frozenset(), tuple(paths))
    return IgnoreCheck(frozenset(found), tuple(unchecked))

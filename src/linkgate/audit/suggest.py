"""The fewest filter patterns that cover a set of missed paths, checked against the tracked files.

A directory glob (``crates/core/**``) is preferred over a list of files: it
keeps covering a build script's inputs as they are added. A glob is only
offered for a directory that holds no other Cargo package (``crates/**``
would also trigger on every other crate) and that is not mostly unrelated
files: either it lies inside the package whose link is at stake, or at least
half of the files git tracks under it are on the causal surface. Otherwise
the paths are suggested one by one. Every pattern is matched with the
picomatch port (``linkgate.trigger.pathfilter``) against the tracked files:
it must match each missed path it stands for.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence

from linkgate.trigger.pathfilter import matches

# At least this share of a directory's tracked files must be on the surface for `dir/**`.
RELATED_SHARE = 0.5


def suggest(
    missed: Sequence[str],
    index: dict[str, list[str]],
    package_dir: str | None,
    surface: Iterable[str],
    other_packages: Iterable[str],
) -> tuple[str, ...]:
    """Patterns covering *missed*.

    *index* is ``directory_index(tracked files)``; *package_dir* is the build-script package's directory relative to the
    repository ("" for the root); *surface* every path on the surface (so a
    directory of build inputs counts as related); *other_packages* the
    directories of the other packages in the workspace.
    """
    related = set(surface) | set(missed)
    others = [d for d in other_packages if d and d != package_dir]
    grouped: dict[str, list[str]] = {}
    for path in missed:
        pattern = _glob_for(path, package_dir, others, related, index) or path
        grouped.setdefault(pattern, []).append(path)
    # The shallowest acceptable directory gives the fewest patterns; the group's
    # deepest common directory covers the same paths with fewer unrelated files.
    chosen: dict[str, list[str]] = {}
    for pattern, paths in grouped.items():
        if pattern.endswith("/**"):
            common = posixpath.commonpath([posixpath.dirname(p) for p in paths])
            if common != pattern[:-3] and _acceptable(common, package_dir, others, related, index):
                pattern = common + "/**"
        chosen.setdefault(pattern, []).extend(paths)
    out: list[str] = []
    for pattern in sorted(chosen, key=lambda p: (p.count("/"), p)):
        covered = chosen[pattern]
        if any(matches(p, path) for p in out for path in covered):
            continue
        if pattern.endswith("/**") and not all(matches(pattern, path) for path in covered):
            out += [p for p in covered if matches(p, p)]
        elif matches(pattern, covered[0]):
            out.append(pattern)
    return tuple(sorted(out))


def _glob_for(
    path: str,
    package_dir: str | None,
    others: list[str],
    related: set[str],
    index: dict[str, list[str]],
) -> str | None:
    parts = path.split("/")[:-1]
    for depth in range(1, len(parts) + 1):  # shallowest first: fewest patterns
        directory = "/".join(parts[:depth])
        if _acceptable(directory, package_dir, others, related, index):
            return directory + "/**"
    return None


def _acceptable(directory: str, package_dir: str | None, others: list[str], related: set[str],
                index: dict[str, list[str]]) -> bool:
    if not directory or any(o == directory or o.startswith(directory + "/") for o in others):
        return False
    inside = bool(package_dir) and (directory == package_dir or directory.startswith(f"{package_dir}/"))
    if package_dir and not inside and package_dir.startswith(directory + "/"):
        return False  # an ancestor of the package holds more than the package
    files = index.get(directory, [])
    return inside or bool(files and sum(f in related for f in files) >= RELATED_SHARE * len(files))


def directory_index(tracked: Sequence[str]) -> dict[str, list[str]]:
    """Tracked files under each directory, recursively."""
    out: dict[str, list[str]] = {}
    for f in tracked:
        directory = posixpath.dirname(f)
        while directory:
            out.setdefault(directory, []).append(f)
            directory = posixpath.dirname(directory)
    return out

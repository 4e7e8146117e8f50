"""Check a path filter against a gate's surface (``surface --check-filter``, audit).

A filter that misses a surface path lets a pull request change what the gate
links with no job linking it: the cusolver story in the seed project. A rule
that matches no file in the repository is usually a stale or misspelt path.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from linkgate.trigger.pathfilter import PathFilter
from linkgate.report import Finding
from linkgate.surface.built import Surface
from linkgate.surface.model import SurfacePath

MISSES = "filter-misses-surface"
DEAD_RULE = "filter-rule-matches-nothing"
OUTSIDE = "surface-outside-repository"
IGNORED = "surface-ignored-by-git"
UNKNOWN = "surface-path-unknown"


def check_filter(
    surface: Surface, path_filter: PathFilter, repo_files: Sequence[str], prefix: str = "",
    ignored: Collection[str] = (),
) -> list[Finding]:
    """Findings for *path_filter* against *surface*.

    *repo_files* are the repository's tracked files relative to its top
    level (what paths-filter sees); *prefix* is the configuration root
    relative to that top level (``""`` when they are the same directory);
    *ignored* are the surface paths (relative to the top level) git ignores:
    no pull request changes them, so no filter needs them, as in ``audit``.
    """
    return [f for _, f in _judge(surface, path_filter, repo_files, prefix, ignored)]


def missed(
    surface: Surface, path_filter: PathFilter, repo_files: Sequence[str], prefix: str = "",
    ignored: Collection[str] = (),
) -> list[SurfacePath]:
    """The surface paths *path_filter* misses: those ``check_filter`` reports as
    ``filter-misses-surface`` (errors and warnings)."""
    return [e for e, f in _judge(surface, path_filter, repo_files, prefix, ignored)
            if e is not None and f.rule == MISSES]


def _judge(
    surface: Surface, path_filter: PathFilter, repo_files: Sequence[str], prefix: str,
    ignored: Collection[str],
) -> list[tuple[SurfacePath | None, Finding]]:
    name = path_filter.name or surface.gate
    findings: list[tuple[SurfacePath | None, Finding]] = []
    for entry in surface.paths:
        if entry.outside:
            findings.append((entry, Finding(
                OUTSIDE, "note", f"{entry.path}: {entry.why}; outside the repository, no path filter sees it",
                hint="vendor or pin it inside the repository so a change shows in pull requests",
            )))
            continue
        if entry.config:
            continue  # should-run reads the gate's definition itself: no filter needs the file
        if entry.path.endswith("/**") or entry.path == "**":
            directory = prefix + entry.path[:-3] if entry.path != "**" else prefix.rstrip("/")
            under = [f for f in repo_files if f.startswith(directory + "/") or not directory]
            unmatched = [f for f in (under or [f"{directory}/any-file"]) if not path_filter.matches(f)]
            if unmatched:
                count = f" ({len(unmatched)} of {len(under)} tracked files, e.g. {unmatched[0]})" if under else ""
                findings.append((entry, _miss(entry.path + count, entry.why, name, entry.path, entry.possible)))
            continue
        if prefix + entry.path in ignored:
            if not path_filter.matches(prefix + entry.path):
                findings.append((entry, Finding(
                    IGNORED, "note", f"{entry.path}: {entry.why}; git ignores it, so no pull request changes it "
                    f"and filter {name} need not name it",
                )))
            continue
        if not path_filter.matches(prefix + entry.path):
            findings.append((entry, _miss(entry.path, entry.why, name, entry.path, entry.possible)))
    for where in surface.unknown:
        # Fail closed: a watched path linkgate cannot name may be one the filter misses.
        findings.append((None, Finding(
            UNKNOWN, "error", f"{where}: cargo watches a path computed at build time; linkgate cannot tell "
            f"whether filter {name} matches it",
            hint="write the path as a literal, or add it to the filter and check by hand",
        )))
    for rule in path_filter.rules_matching_nothing(repo_files):
        findings.append((None, Finding(
            DEAD_RULE, "warning", f"filter {name}: rule {rule} matches no file in the repository",
            hint="fix or remove the rule; paths are relative to the repository root",
        )))
    return findings


def _miss(shown: str, why: str, name: str, path: str, possible: bool = False) -> Finding:
    # A possible path comes from a part of the script the recorded build cannot vouch for.
    return Finding(
        MISSES, "warning" if possible else "error", f"{shown}: {why}; not matched by filter {name}",
        file=None if path.endswith("/**") else path,
        hint=f"add '{path}' to the filter {name}",
    )

"""Audit rules over classified invocations: feature sets never linked, links only on schedule,
shared target directories, timeouts, debug links of large graphs, unresolved parts.

``cargo check``, ``clippy`` and ``doc`` stop before the linker, so a feature
set CI only checks can fail to link on the first real build. Feature sets
are compared exactly and across packages: linking ``--all-features`` does
not prove that ``a,b`` alone links. The filter check lives in
``audit.surfacecheck``; ``audit.run`` calls both.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from linkgate import repofs
from linkgate.audit.classify import linker_of, target_dir
from linkgate.audit.grouping import Entry, Group, groups
from linkgate.audit.model import COMPILED_ONLY, AuditResult, Classified, RawFinding
from linkgate.cargo.features import FeatureSet

# A lockfile with this many packages makes a debug link slow and its
# debuginfo large; below it the dev profile is the cheap, right choice.
LARGE_LOCKFILE = 300


def feature_set_key(fs: FeatureSet) -> tuple[str, str, tuple[str, ...], bool, bool, tuple[str, ...]]:
    """A total order on feature sets: a symbolic set (cargo hack whose features are
    unknown) has ``symbolic=None`` compared with a string otherwise."""
    return (fs.scope, fs.symbolic or "", fs.features, fs.no_default, fs.all, fs.packages)


def rules(repo: Path, result: AuditResult) -> list[RawFinding]:
    """Every finding but the paths-filter check (``audit.surfacecheck``)."""
    return [
        *_invalid(result),
        *_never_linked(result.classified, unless(result, pr_only=False)),
        *_link_only_on_schedule(result.classified, unless(result, pr_only=True)),
        *_shared_target_dir(result.classified),
        *_no_timeout(result.classified),
        *_debug_link_on_large_target(repo, result.classified),
        *_unresolved(result),
    ]


def unless(result: AuditResult, pr_only: bool) -> tuple[str, ...]:
    """The unread or partly read steps that could link a set linkgate saw linked nowhere (on a
    trigger a pull request sees, with *pr_only*): any of them makes an absence unproven.
    What an unread program links cannot be known, so any set it could reach counts."""
    return tuple(dict.fromkeys(g.sentence() for g, pr in result.cargo_gaps if pr or not pr_only))


def _unless_text(found: tuple[str, ...]) -> str:
    if not found:
        return ""
    shown = ", ".join(found[:2]) + (f" or {len(found) - 2} more" if len(found) > 2 else "")
    return f", unless {shown} {'links' if len(found) == 1 else 'link'} it"


def by_feature_set(items: Iterable[Classified]) -> dict[FeatureSet, list[Classified]]:
    out: dict[FeatureSet, list[Classified]] = {}
    for item in items:
        for fs in item.feature_sets:
            out.setdefault(fs, []).append(item)
    return out


def _as_written_by(c: Classified, fs: FeatureSet) -> FeatureSet:
    """*fs* labelled as *c* wrote it: one command's sets over several packages share its label."""
    return next((own for own in c.feature_sets if own == fs), fs)


def _jobs(items: Iterable[Classified]) -> str:
    seen: dict[str, str] = {}
    for c in items:
        seen.setdefault(c.job_label, c.where)
    return ", ".join(f"{job} ({where})" for job, where in seen.items())


def _invalid(result: AuditResult) -> Iterable[RawFinding]:
    for u in result.unreadable:
        if u.refused:
            yield RawFinding("unresolved", f"workflow {u.rel}: {u.message}; not read, so its jobs were not audited",
                             u.rel, u.line, subject=f"workflow {u.rel}",
                             hint="linkgate reads only regular files inside the repository")
            continue
        yield RawFinding(
            "invalid-workflow", f"workflow is not valid: {u.message}; its jobs were not audited",
            u.rel, u.line, hint="fix the workflow (GitHub will refuse it too)",
        )


def _covered(fs: FeatureSet, linked: Iterable[FeatureSet]) -> bool:
    """Is every package of *fs* linked with its features by some set in *linked*?"""
    peers = [other for other in linked if replace(other, packages=()).covers(replace(fs, packages=()))]
    if any(not other.packages for other in peers) or (peers and not fs.packages):
        return True
    # A path dependency is linked with the set the build resolves for it (`dependency_sets`),
    # not with its dependent's set.
    return bool(fs.packages) and set(fs.packages) <= {p for other in peers for p in other.packages}


def _of(fs: FeatureSet) -> str:
    if not fs.packages:
        return ""
    if len(fs.packages) <= 3:
        return f" of {', '.join(fs.packages)}"
    return f" of {', '.join(fs.packages[:2])} and {len(fs.packages) - 2} more"


def _never_linked(items: list[Classified], could: tuple[str, ...] = ()) -> Iterable[RawFinding]:
    sets = by_feature_set(items)
    linked = [fs for fs, users in sets.items() if any(c.links for c in users)]
    linked += [fs for c in items if c.links for fs in c.dependency_sets]
    entries: list[Entry] = []
    for fs, users in sorted(sets.items(), key=lambda kv: feature_set_key(kv[0])):
        # A set of a project the job clones is that project's business, not this repository's.
        if fs.unknown or fs.scope or any(c.links for c in users) or _covered(fs, linked):
            continue
        compiled = [c for c in users if c.exercise in ("checked", "linted", COMPILED_ONLY)]
        if compiled:
            first = min(compiled, key=lambda c: (c.inv.file, c.inv.line))
            entries.append(Entry(_as_written_by(first, fs), tuple(compiled), first))
    for group in groups(entries):
        fs, first = group.entries[0].fs, group.entries[0].first
        wrote = fs.written or fs  # the flags as the command wrote them
        flags = f"--features {','.join(wrote.features)}" if wrote.features else ""
        flags += " --no-default-features" if wrote.no_default else ""
        flags = "--all-features" if wrote.all else flags
        flags = " ".join(f"-p {name}" for name in fs.packages) + " " + flags if 0 < len(fs.packages) <= 3 else flags
        sets_text, verb = _sets(group)
        yield RawFinding(
            "never-linked",
            f"{sets_text} {verb} compiled by {_jobs(c for e in group.entries for c in e.users)} but linked by no job"
            f"{_unless_text(could)}: cargo check and clippy never run the linker",
            first.inv.file, first.inv.line, subject=", ".join(e.fs.label for e in group.entries), unless=could,
            hint=f"link {'it' if verb == 'is' else 'them'} in CI, e.g. "
            f"`{' '.join(['cargo', 'test', '--no-run', *flags.split()])}`"
            ", or add a linkgate gate for it and run it there (`linkgate ci github GATE --write`)",
            sets=tuple(fs.qualified for e in group.entries for fs in e.sets), axis=group.axis,
        )


def _sets(group: Group) -> tuple[str, str]:
    """`feature set `a` of p` for one set; `feature sets `a`, `b` of p (matrix axis `f`: a, b)`."""
    fs = group.entries[0].fs
    if len(group.entries) == 1:
        return f"feature set `{fs.label}`{_of(fs)}", "is"
    labels = ", ".join(f"`{e.fs.label}`" for e in group.entries[:12])
    labels += f" and {len(group.entries) - 12} more" if len(group.entries) > 12 else ""
    packages = {p for e in group.entries for p in e.fs.packages}
    of = _of(fs) if all(e.fs.packages == fs.packages for e in group.entries) else \
        (f" of {', '.join(sorted(packages))}" if len(packages) <= 3 else f" of {len(packages)} packages")
    if not group.axis:
        return f"feature sets {labels}{of} (one command line)", "are"
    return (f"feature sets {labels}{of} (matrix axis `{group.axis}`: {', '.join(group.values)})", "are")


# How a trigger reads in a sentence when its name alone would mislead.
_EVENT_WORDS = {"push-tags": "push of tags", "push-branches": "push to branches other than the default"}


def _link_only_on_schedule(items: list[Classified], could: tuple[str, ...] = ()) -> Iterable[RawFinding]:
    linked = by_feature_set(c for c in items if c.links)
    seen = [fs for fs, users in linked.items() if any(c.trigger.pr_visible for c in users)]
    seen += [fs for c in items if c.links and c.trigger.pr_visible for fs in c.dependency_sets]
    entries: list[Entry] = []
    for fs, users in sorted(linked.items(), key=lambda kv: feature_set_key(kv[0])):
        if fs.unknown or fs.scope or any(c.trigger.pr_visible for c in users) or _covered(fs, seen):
            continue
        first = min(users, key=lambda c: (c.inv.file, c.inv.line))
        entries.append(Entry(_as_written_by(first, fs), tuple(users), first))
    for group in groups(entries):
        first = group.entries[0].first
        users = [c for e in group.entries for c in e.users]
        events = sorted({_EVENT_WORDS.get(e, e) for c in users for e in c.trigger.events}) or ["never"]
        sets_text, verb = _sets(group)
        yield RawFinding(
            "link-only-on-schedule",
            f"{sets_text} {verb} linked only by {_jobs(users)} (on: {', '.join(events)})"
            f"{_unless_text(could)}: a pull request can break {'its' if verb == 'is' else 'their'} link unseen",
            first.inv.file, first.inv.line, subject=", ".join(e.fs.label for e in group.entries), unless=could,
            hint="also link it on pull_request, path-filtered to its causal surface if it is slow",
            sets=tuple(fs.qualified for e in group.entries for fs in e.sets), axis=group.axis,
        )


def _shared_target_dir(items: list[Classified]) -> Iterable[RawFinding]:
    """Only self-hosted runners keep a target directory between jobs."""
    groups: dict[str, dict[tuple[str, str], Classified]] = {}
    for c in items:
        directory = target_dir(c)
        if c.links and c.inv.self_hosted and directory:
            groups.setdefault(directory, {}).setdefault((c.inv.workflow.rel, c.inv.job.id), c)
    for directory, jobs in sorted(groups.items()):
        builds = list(jobs.values())
        for a, b in zip(builds, builds[1:]):
            diffs = [
                f"{name} ({x} vs {y})"
                for name, x, y in (
                    ("profile", a.call.profile, b.call.profile),
                    ("features", _labels(a), _labels(b)),
                    ("linker", linker_of(a), linker_of(b)),
                )
                if x != y
            ]
            if diffs:
                yield RawFinding(
                    "shared-target-dir",
                    f"jobs {a.job_label} ({a.where}) and {b.job_label} ({b.where}) share target directory "
                    f"{directory} on self-hosted runners but differ in {', '.join(diffs)}: "
                    "they evict each other's builds (cargo hashes the linker into every unit's fingerprint)",
                    b.inv.file, b.inv.line, subject=directory,
                    hint="give each (profile, features, linker) its own CARGO_TARGET_DIR",
                )


def _no_timeout(items: list[Classified]) -> Iterable[RawFinding]:
    seen: set[tuple[str, str]] = set()
    for c in items:
        key = (c.inv.workflow.rel, c.inv.job.id)
        if not (c.links and c.inv.self_hosted) or key in seen:
            continue
        if c.inv.job.timeout_minutes or c.inv.step.timeout_minutes:
            continue
        seen.add(key)
        # Only the `self-hosted` label says so; any other label that is not one of GitHub's
        # standard images may also name a larger GitHub-hosted runner of the organization.
        labels = c.inv.runs_on
        what = ("a self-hosted runner" if any(t.strip().lower() == "self-hosted" for t in labels)
                else "not one of GitHub's standard runners (self-hosted, or a larger runner the organization named)")
        yield RawFinding(
            "no-timeout",
            f"job {c.job_label} links ({c.where}) on `{', '.join(labels) or '?'}`, {what}, "
            "without timeout-minutes: a hung link holds the runner for GitHub's default of 360 minutes",
            c.inv.workflow.rel, c.inv.job.line, subject=c.job_label,
            hint="set timeout-minutes on the job, a little above its slowest cold build",
        )


def _debug_link_on_large_target(repo: Path, items: list[Classified]) -> Iterable[RawFinding]:
    seen: set[tuple[str, str]] = set()
    for c in items:
        if not c.links or c.call.profile != "dev" or (c.job_label, c.inv.cwd) in seen:
            continue
        if c.inv.env.get("CARGO_PROFILE_DEV_DEBUG", "").lower() in ("0", "false", "none", "line-tables-only"):
            continue
        count = _lockfile_packages(repo, c.inv.cwd)
        if count < LARGE_LOCKFILE:
            continue
        seen.add((c.job_label, c.inv.cwd))
        yield RawFinding(
            "debug-link-on-large-target",
            f"{c.job_label} links a debug build of a {count}-package dependency graph ({c.where}): "
            "full debuginfo makes that link slow and large",
            c.inv.file, c.inv.line, subject=c.job_label,
            hint="CARGO_PROFILE_DEV_DEBUG=line-tables-only (or 0) keeps the link and drops most of its cost",
        )


def _unresolved(result: AuditResult) -> Iterable[RawFinding]:
    # The scan already keeps one note per (file, cause), and only where cargo
    # may hide; a script shared by several workflows is noted once.
    seen: set[tuple[str, int, str]] = set()
    for file, line, message in result.problems:
        if (file, line, message) not in seen:
            seen.add((file, line, message))
            subject = result.causes.get((file, line, message), message)
            yield RawFinding("unresolved", message, file, line, subject=subject)


def _labels(c: Classified) -> str:
    return "; ".join(fs.label for fs in c.feature_sets)


@functools.lru_cache(maxsize=256)
def _lockfile_packages(repo: Path, cwd: str) -> int:
    here = repo / cwd
    for directory in (here, *here.parents):
        lock = directory / "Cargo.lock"
        if repofs.is_file(lock):
            try:
                return repofs.read_text(lock, inside=repo, errors="replace").count("[[package]]")
            except OSError:
                return 0
        if directory == repo:
            break
    return 0

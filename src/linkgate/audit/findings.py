"""Classify every cargo invocation CI runs and find the feature sets it never links.

``cargo check``, ``clippy`` and ``doc`` stop before the linker, so a feature
set CI only checks can fail to link on the first real build. The audit reads
the workflows (``linkgate.workflows``), classifies each invocation, and turns
what it sees into findings; rendering lives in ``linkgate.commands.audit``.

Feature sets are compared exactly and across packages: linking
``--all-features`` does not prove that ``a,b`` alone links.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from linkgate.workflows.cargoargs import CargoCall, parse
from linkgate.workflows.features import FeatureSet, feature_sets
from linkgate.workflows.invocations import Invocation, scan_workflow
from linkgate.workflows.read import Unreadable, read_workflows
from linkgate.workflows.triggers import Trigger, trigger_for

# How each subcommand exercises a feature set. Anything absent compiles
# nothing that matters here (fmt, metadata, tree, ...).
EXERCISE = {
    "check": "checked", "doc": "checked", "rustdoc": "checked", "miri": "checked",
    "clippy": "linted",
    "build": "linked", "run": "linked", "install": "linked", "rustc": "linked", "zigbuild": "linked",
    "auditable build": "linked", "nextest archive": "linked", "nextest list": "linked",
    "llvm-cov build": "linked",
    "test": "tested", "bench": "tested", "nextest run": "tested", "llvm-cov": "tested",
    "llvm-cov test": "tested", "llvm-cov run": "tested", "llvm-cov nextest": "tested", "tarpaulin": "tested",
}
EXERCISE_ORDER = ("checked", "linted", "linked", "tested")

DEFAULT_SEVERITY: dict[str, str] = {
    "never-linked": "error",
    "link-only-on-schedule": "warning",
    "filter-misses-surface": "error",
    "shared-target-dir": "warning",
    "no-timeout": "warning",
    "debug-link-on-large-target": "note",
    "invalid-workflow": "error",
    "unresolved": "note",
}
# A lockfile with this many packages makes a debug link slow and its
# debuginfo large; below it the dev profile is the cheap, right choice.
LARGE_LOCKFILE = 300


@dataclass(frozen=True)
class Classified:
    inv: Invocation
    call: CargoCall
    exercise: str | None
    feature_sets: tuple[FeatureSet, ...]
    trigger: Trigger

    @property
    def links(self) -> bool:
        return self.exercise in ("linked", "tested")

    @property
    def where(self) -> str:
        return f"{self.inv.file}:{self.inv.line}"

    @property
    def job_label(self) -> str:
        stem = posixpath.splitext(posixpath.basename(self.inv.workflow.rel))[0]
        return f"{stem}/{self.inv.job.id}"


@dataclass(frozen=True)
class RawFinding:
    rule: str
    message: str
    file: str | None
    line: int | None
    subject: str = ""
    hint: str | None = None


@dataclass
class AuditResult:
    classified: list[Classified] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)
    workflows: list[str] = field(default_factory=list)
    findings: list[RawFinding] = field(default_factory=list)
    skipped_checks: list[str] = field(default_factory=list)
    causes: dict[tuple[str, int, str], str] = field(default_factory=dict)


def classify(repo: Path, inv: Invocation, triggers: dict[tuple[str, str, int], Trigger] | None = None) -> Classified | None:
    call = parse(inv.argv)
    if call is None:
        return None
    exercise = "linked" if call.subcommand == "test" and call.no_run else EXERCISE.get(call.subcommand)
    # One trigger per step, however many matrix combinations and commands it has.
    key = (inv.workflow.rel, inv.job.id, inv.step.index)
    cache = triggers if triggers is not None else {}
    if key not in cache:
        cache[key] = trigger_for(repo, inv.workflow, inv.job, inv.step)
    return Classified(inv, call, exercise, feature_sets(repo, inv.cwd, call), cache[key])


def run_audit(repo: Path) -> AuditResult:
    result = AuditResult()
    workflows, result.unreadable = read_workflows(repo)
    result.workflows = sorted([wf.rel for wf in workflows] + [u.rel for u in result.unreadable])
    triggers: dict[tuple[str, str, int], Trigger] = {}
    for wf in workflows:
        scan = scan_workflow(repo, wf)
        result.problems.extend(scan.problems)
        result.causes.update(scan.causes)
        for inv in scan.invocations:
            classified = classify(repo, inv, triggers)
            if classified is not None:
                result.classified.append(classified)
    result.findings = [
        *_invalid(result),
        *_never_linked(result.classified),
        *_link_only_on_schedule(result.classified),
        *_filter_misses_surface(repo, result),
        *_shared_target_dir(result.classified),
        *_no_timeout(result.classified),
        *_debug_link_on_large_target(repo, result.classified),
        *_unresolved(result),
    ]
    return result


def by_feature_set(items: Iterable[Classified]) -> dict[FeatureSet, list[Classified]]:
    out: dict[FeatureSet, list[Classified]] = {}
    for item in items:
        for fs in item.feature_sets:
            out.setdefault(fs, []).append(item)
    return out


def _jobs(items: Iterable[Classified]) -> str:
    seen: dict[str, str] = {}
    for c in items:
        seen.setdefault(c.job_label, c.where)
    return ", ".join(f"{job} ({where})" for job, where in seen.items())


def _invalid(result: AuditResult) -> Iterable[RawFinding]:
    for u in result.unreadable:
        yield RawFinding(
            "invalid-workflow", f"workflow is not valid YAML: {u.message}; its jobs were not audited",
            u.rel, u.line, hint="fix the YAML (GitHub will refuse this workflow too)",
        )


def _never_linked(items: list[Classified]) -> Iterable[RawFinding]:
    sets = by_feature_set(items)
    for fs, users in sorted(sets.items()):
        if fs.unknown or any(c.links for c in users):
            continue
        compiled = [c for c in users if c.exercise in ("checked", "linted")]
        if not compiled:
            continue
        first = min(compiled, key=lambda c: (c.inv.file, c.inv.line))
        flags = f"--features {','.join(fs.features)}" if fs.features else ""
        flags += " --no-default-features" if fs.no_default else ""
        flags = "--all-features" if fs.all else flags
        yield RawFinding(
            "never-linked",
            f"feature set `{fs.label}` is compiled by {_jobs(compiled)} but linked by no job: "
            "cargo check and clippy never run the linker",
            first.inv.file, first.inv.line, subject=fs.label,
            hint=f"link it in CI, e.g. `cargo test --no-run {flags}`".replace("  ", " ").rstrip()
            + ", or add a linkgate gate for it",
        )


def _link_only_on_schedule(items: list[Classified]) -> Iterable[RawFinding]:
    for fs, users in sorted(by_feature_set(c for c in items if c.links).items()):
        if fs.unknown or any(c.trigger.pr_visible for c in users):
            continue
        first = min(users, key=lambda c: (c.inv.file, c.inv.line))
        events = sorted({e for c in users for e in c.trigger.events}) or ["never"]
        yield RawFinding(
            "link-only-on-schedule",
            f"feature set `{fs.label}` is linked only by {_jobs(users)} (on: {', '.join(events)}): "
            "a pull request can break its link unseen",
            first.inv.file, first.inv.line, subject=fs.label,
            hint="also link it on pull_request, path-filtered to its causal surface if it is slow",
        )


def _filter_misses_surface(repo: Path, result: AuditResult) -> Iterable[RawFinding]:
    """Paths filters on link jobs, checked against the static causal surface."""
    filtered = [c for c in result.classified if c.links and c.trigger.paths_filter is not None]
    if not filtered:
        return []
    # Imported here: it runs cargo metadata, which audits without filters never need.
    from linkgate.audit import surfacecheck

    return surfacecheck.misses(repo, filtered)


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
        yield RawFinding(
            "no-timeout",
            f"self-hosted job {c.job_label} links ({c.where}) without timeout-minutes: "
            "a hung link holds the runner for GitHub's default of 360 minutes",
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


def target_dir(c: Classified) -> str | None:
    env = c.inv.env
    value = c.call.target_dir or env.get("CARGO_TARGET_DIR") or env.get("CARGO_BUILD_TARGET_DIR")
    if not value:
        return None
    return value if value.startswith(("/", "$", "~")) else posixpath.normpath(posixpath.join(c.inv.cwd, value))


_LINKER_FLAG = re.compile(r"-fuse-ld=([\w.-]+)|linker=(\S+)")


def linker_of(c: Classified) -> str:
    """The linker a job selects through CARGO_TARGET_<triple>_LINKER or RUSTFLAGS."""
    env: Mapping[str, str] = c.inv.env
    for key, value in sorted(env.items()):
        if key.startswith("CARGO_TARGET_") and key.endswith("_LINKER"):
            return value
    for key in ("RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS"):
        m = _LINKER_FLAG.search(env.get(key, ""))
        if m:
            return m.group(1) or m.group(2)
    return "default"


@functools.lru_cache(maxsize=256)
def _lockfile_packages(repo: Path, cwd: str) -> int:
    here = repo / cwd
    for directory in (here, *here.parents):
        lock = directory / "Cargo.lock"
        if lock.is_file():
            return lock.read_text(encoding="utf-8", errors="replace").count("[[package]]")
        if directory == repo:
            break
    return 0

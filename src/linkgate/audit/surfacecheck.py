"""``filter-misses-surface``: paths filters on link jobs against the static causal surface.

A link job behind a dorny/paths-filter output only runs when a changed path
matches the filter. If a build script that emits ``rustc-link-lib`` (or a
file it names in ``rerun-if-changed``) is not matched, a pull request can
change what the job links while the job is skipped. The audit builds
nothing, so the surface is the static one (``linkgate.surface.static``): local
build scripts' literal ``cargo:`` directives, plus the files every build
reads. The filter is matched with ``linkgate.trigger.pathfilter``, as paths-filter
matches it.

Several filters gate a job as its ``if:`` combines them (``||`` a union, ``&&``
an intersection; ``Trigger.runs_when_only``), and the workflow's own
``on.<event>.paths`` skips it too. A path is missed when a pull request
changing only that path would not run the job. One finding per (filters of
the job, build-script package), at the line of the first filter that does
not let the path through, listing every missed path and the fewest patterns
that cover them (``audit.suggest``); the manifests,
lockfile and toolchain files every build reads are one warning per filter
(``filter-misses-manifest``). Only files git tracks count: a pull request
cannot change a git-ignored ``Cargo.lock``.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from linkgate.audit.model import Classified, RawFinding

if TYPE_CHECKING:
    from linkgate.cargo.graph import Graph
    from linkgate.surface.built import Surface
    from linkgate.workflows.triggers import PathsFilter, Trigger

RULE = "filter-misses-surface"
MANIFEST_RULE = "filter-misses-manifest"
# Never walked when git cannot list the tracked files: build output and VCS data.
_UNTRACKED_DIRS = {".git", "target", "node_modules"}
# Paths named in a one-line message; --verbose and JSON `paths` list them all.
SHOWN = 2


@dataclass(frozen=True)
class _Build:
    """What decides the packages a link job builds, hence its surface."""

    cwd: str
    manifest: str
    packages: tuple[str, ...]
    workspace: bool
    features: tuple[str, ...]
    no_default_features: bool
    all_features: bool

    def cargo_args(self) -> tuple[str, ...]:
        args = ["--manifest-path", self.manifest]
        for name in self.packages:
            args += ["--package", name]
        if self.workspace:
            args.append("--workspace")
        if self.features:
            args += ["--features", ",".join(self.features)]
        if self.no_default_features:
            args.append("--no-default-features")
        if self.all_features:
            args.append("--all-features")
        return tuple(args)


@dataclass
class _Miss:
    """Missed paths of one job's filters for one build-script package (None: files every build reads)."""

    trigger: Trigger
    package: str | None
    package_dir: str | None
    paths: dict[str, str] = field(default_factory=dict)  # path -> why it is on the surface
    blamed: list[PathsFilter] = field(default_factory=list)  # the filters that did not let a missed path through
    users: list[Classified] = field(default_factory=list)
    surface: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)


def misses(repo: Path, classified: Sequence[Classified], notes: list[str]) -> list[RawFinding]:
    """Grouped findings for every filter that misses part of its link's surface.

    How the workspace was read when cargo could not resolve it is appended
    to *notes*, once."""
    from linkgate.audit.workspace import Loader

    repo = repo.resolve()
    groups: dict[tuple[Trigger, _Build], list[Classified]] = {}
    problems: dict[tuple[str, int, str], RawFinding] = {}
    for c in classified:
        trigger = c.trigger
        if not trigger.filters:
            continue
        unread = next((f for f in trigger.filters if f.rules is None), None)
        if unread is not None:
            problems.setdefault((unread.file, unread.line, unread.filter), RawFinding(
                "unresolved", f"rules of paths filter {unread.filter} cannot be read; "
                f"its link job {c.job_label} was not checked against the causal surface",
                unread.file, unread.line, subject=unread.filter,
            ))
            continue
        build = _build_of(repo, c)
        first = trigger.filters[0]
        if build is None:
            problems.setdefault((first.file, first.line, c.inv.cwd), RawFinding(
                "unresolved", f"no Cargo.toml for `{' '.join(c.inv.argv)}` in {c.inv.cwd or '.'}; "
                f"filter {first.filter} was not checked against the causal surface",
                c.inv.file, c.inv.line, subject=first.filter,
            ))
            continue
        groups.setdefault((_filter_key(trigger), build), []).append(c)
    if not groups:
        return list(problems.values())
    files = _repo_files(repo)
    known = set(files)
    loader = Loader(repo)
    graphs: dict[_Build, Graph | str] = {}
    found: dict[tuple[Trigger, str | None], _Miss] = {}
    for (trigger, build), users in groups.items():
        if build not in graphs:
            graphs[build] = loader.load(build.cwd, build.cargo_args())
        graph = graphs[build]
        if isinstance(graph, str):
            first_user = users[0]
            name = trigger.filters[0].filter
            problems.setdefault((first_user.inv.file, first_user.inv.line, graph), RawFinding(
                "unresolved", f"{graph}; filter {name} was not checked against the causal surface",
                first_user.inv.file, first_user.inv.line, subject=name,
            ))
            continue
        surface = _surface(repo, build, graph)
        dirs = _package_dirs(repo, graph)
        _collect(surface, trigger, files, known, dirs, users, found)
    notes.extend(n for n in loader.notes if n not in notes)
    from linkgate.audit.suggest import directory_index

    index = directory_index(files)
    return [_finding(m, index) for m in _merged(found.values()) if m.paths] + list(problems.values())


def _merged(items: Iterable[_Miss]) -> list[_Miss]:
    """Jobs behind the same filters that miss the same paths (the same filter under
    different extra conditions) share one finding."""
    out: dict[tuple[tuple[PathsFilter, ...], str | None, frozenset[str]], _Miss] = {}
    for miss in items:
        key = (miss.trigger.filters, miss.package, frozenset(miss.paths))
        kept = out.get(key)
        if kept is None:
            out[key] = miss
            continue
        kept.users += [c for c in miss.users if c not in kept.users]
        kept.blamed += [f for f in miss.blamed if f not in kept.blamed]
    return list(out.values())


def _filter_key(trigger: Trigger) -> Trigger:
    """Jobs gated by the same filters under the same conditions share their findings."""
    from dataclasses import replace

    return replace(trigger, events=(), paths_filter=None, native_paths=(), condition=None)


def _collect(surface: Surface, trigger: Trigger, files: Sequence[str], known: set[str],
             dirs: dict[str, str], users: list[Classified], found: dict[tuple[Trigger, str | None], _Miss]) -> None:
    verdicts: dict[str, bool | None] = {}
    for entry in surface.paths:
        # Paths outside the repository are `surface --check-filter`'s business:
        # the audit reports only what a pull request can change unseen.
        if entry.outside:
            continue
        key = (trigger, entry.package)
        miss = found.get(key)
        if miss is None:
            miss = found[key] = _Miss(trigger, entry.package, dirs.get(entry.package or ""))
        miss.others.update(d for name, d in dirs.items() if name != entry.package)
        for c in users:
            if c not in miss.users:
                miss.users.append(c)
        for path in _expand(entry.path, files, known):
            miss.surface.add(path)
            if path not in verdicts:
                verdicts[path] = trigger.runs_when_only(path)
            if verdicts[path] is False:
                miss.paths.setdefault(path, entry.why)
                for f in trigger.filters:
                    if not f.lets_run(path) and f not in miss.blamed:
                        miss.blamed.append(f)


def _expand(path: str, files: Sequence[str], known: set[str]) -> list[str]:
    """The tracked files a surface path stands for; none when git does not track it."""
    if path == "**":
        return list(files)
    if path.endswith("/**"):
        prefix = path[:-2]
        return [f for f in files if f.startswith(prefix)]
    return [path] if path in known else []


def _finding(miss: _Miss, index: dict[str, list[str]]) -> RawFinding:
    from linkgate.audit.suggest import suggest

    blamed = sorted(miss.blamed, key=lambda f: (f.file, f.line)) or list(miss.trigger.filters)
    pf = blamed[0]
    names = " and ".join(f.filter for f in blamed)
    label = f"filter {names}" if len(blamed) == 1 else f"filters {names}"
    verb = "misses" if len(blamed) == 1 else "miss"
    paths = _ordered(miss)
    patterns = suggest(paths, index, miss.package_dir, miss.surface, miss.others)
    shown = ", ".join(paths[:SHOWN]) + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")
    jobs = ", ".join(dict.fromkeys(f"{c.job_label} ({c.where})" for c in miss.users))
    if miss.package is None:
        rule = MANIFEST_RULE
        message = (f"{label} {verb} {len(paths)} manifest, lockfile or toolchain file(s) "
                   f"every build reads: {shown}; it gates the link in {jobs}")
    else:
        rule = RULE
        message = (f"{label} {verb} {len(paths)} path(s) that change what package {miss.package} "
                   f"links (its build script or the inputs that rerun it): {shown}; it gates the link in {jobs}")
    if pf.kind != "paths-filter":
        # FACTS: a workflow skipped by on.<event>.paths never reports its checks.
        message += ("; a path filter on the trigger skips the whole workflow, so a required check stays pending "
                    "(filter inside the workflow, with a job if:, for a required link gate)")
    hint = (f"add {', '.join(repr(p) for p in patterns)} to {label}" if patterns
            else f"add the missed paths (--verbose lists them) to {label}")
    return RawFinding(rule, message, pf.file, pf.line, subject=f"{names}: {miss.package or 'manifests'}",
                      hint=hint, paths=tuple(paths), suggest=patterns)


def _ordered(miss: _Miss) -> list[str]:
    """The build script first, then inputs outside the package (the surprising ones), then the rest."""
    def rank(path: str) -> tuple[int, str]:
        why = miss.paths[path]
        inside = bool(miss.package_dir) and path.startswith(f"{miss.package_dir}/")
        return (0 if why.startswith("build script") else 1 if not inside else 2, path)

    return sorted(miss.paths, key=rank)


def _package_dirs(repo: Path, graph: Graph) -> dict[str, str]:
    """Local package name -> its directory relative to the repository."""
    out: dict[str, str] = {}
    for pkg in graph.packages.values():
        if not pkg.local:
            continue
        try:
            rel = Path(os.path.normpath(pkg.manifest_dir)).relative_to(repo).as_posix()
        except ValueError:
            continue
        out[pkg.name] = "" if rel == "." else rel
    return out


def _build_of(repo: Path, c: Classified) -> _Build | None:
    call = c.call
    manifest: Path | None
    if call.manifest_path:
        manifest = repo / posixpath.normpath(posixpath.join(c.inv.cwd, call.manifest_path))
    else:
        from linkgate.cargo.manifests import nearest

        manifest = nearest(repo, repo / c.inv.cwd)
    if manifest is None or not manifest.is_file():
        return None
    # cargo hack runs every feature of the package: the union graph covers them all.
    all_features = call.all_features or call.hack is not None
    features = tuple(f for f in call.features if "$" not in f and "{" not in f)
    return _Build(
        c.inv.cwd, str(manifest), call.packages, call.workspace,
        () if all_features else tuple(sorted(features)),
        call.no_default_features and not all_features, all_features,
    )


def _surface(repo: Path, build: _Build, graph: Graph) -> Surface:
    from linkgate.config import Config, Gate
    from linkgate.surface import static as staticscan

    gate = Gate(name="audit", cargo=build.cargo_args(), working_directory=build.cwd)
    config = Config(path=repo / "linkgate.toml", root=repo, gates=(gate,))
    return staticscan.static(config, gate, graph)


def _repo_files(repo: Path) -> list[str]:
    """What paths-filter matches against: git's tracked files, else the tree on disk."""
    from linkgate import proc
    from linkgate.errors import LinkgateError

    try:
        done = proc.run(["git", "ls-files", "-z", "--full-name"], cwd=repo, check=False)
    except LinkgateError:
        done = None
    if done is not None and done.returncode == 0 and done.stdout:
        return [p for p in done.stdout.split("\0") if p]
    files = []
    for directory, dirs, names in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if d not in _UNTRACKED_DIRS)
        rel = Path(directory).relative_to(repo).as_posix()
        files += [n if rel == "." else f"{rel}/{n}" for n in sorted(names)]
    return files

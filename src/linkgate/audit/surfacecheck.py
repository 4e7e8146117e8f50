"""``filter-misses-surface``: paths filters on link jobs against the static causal surface.

A link job behind a dorny/paths-filter output only runs when a changed path
matches the filter. If a build script that emits ``rustc-link-lib`` (or a
file it names in ``rerun-if-changed``) is not matched, a pull request can
change what the job links while the job is skipped. The audit builds
nothing, so the surface is the static one (``linkgate.surface.static``): local
build scripts' literal ``cargo:`` directives, plus the files every build
reads. The filter is matched with ``linkgate.trigger.pathfilter``, as paths-filter
matches it.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linkgate.audit.findings import Classified, RawFinding
    from linkgate.surface.built import Surface
    from linkgate.workflows.triggers import PathsFilter

RULE = "filter-misses-surface"
# Never walked when git cannot list the tracked files: build output and VCS data.
_UNTRACKED_DIRS = {".git", "target", "node_modules"}


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


def misses(repo: Path, classified: Sequence[Classified]) -> list[RawFinding]:
    """One finding per (filter, surface path) the filter would not trigger on."""
    from linkgate.audit.findings import RawFinding

    repo = repo.resolve()
    groups: dict[tuple[PathsFilter, _Build], list[Classified]] = {}
    notes: dict[tuple[str, int, str], RawFinding] = {}
    for c in classified:
        pf = c.trigger.paths_filter
        if pf is None:
            continue
        if pf.rules is None:
            notes.setdefault((pf.file, pf.line, pf.filter), RawFinding(
                "unresolved", f"rules of paths filter {pf.filter} cannot be read; "
                f"its link job {c.job_label} was not checked against the causal surface",
                pf.file, pf.line, subject=pf.filter,
            ))
            continue
        build = _build_of(repo, c)
        if build is None:
            notes.setdefault((pf.file, pf.line, c.inv.cwd), RawFinding(
                "unresolved", f"no Cargo.toml for `{' '.join(c.inv.argv)}` in {c.inv.cwd}; "
                f"filter {pf.filter} was not checked against the causal surface",
                c.inv.file, c.inv.line, subject=pf.filter,
            ))
            continue
        groups.setdefault((pf, build), []).append(c)
    if not groups:
        return list(notes.values())
    files = _repo_files(repo)
    found: dict[tuple[str, int, str, str], tuple[RawFinding, list[Classified]]] = {}
    surfaces: dict[_Build, Surface | str] = {}
    for (pf, build), users in groups.items():
        if build not in surfaces:
            surfaces[build] = _surface(repo, build)
        surface = surfaces[build]
        if isinstance(surface, str):
            first = users[0]
            notes.setdefault((first.inv.file, first.inv.line, surface), RawFinding(
                "unresolved", f"{surface}; filter {pf.filter} was not checked against the causal surface",
                first.inv.file, first.inv.line, subject=pf.filter,
            ))
            continue
        for path, message, hint in _missed(surface, pf, files):
            key = (pf.file, pf.line, pf.filter, path)
            if key not in found:
                found[key] = (RawFinding(RULE, message, pf.file, pf.line, subject=f"{pf.filter}: {path}", hint=hint), [])
            found[key][1].extend(users)
    out = [_with_jobs(f, users) for f, users in found.values()]
    return out + list(notes.values())


def _missed(surface: Surface, pf: PathsFilter, files: Sequence[str]) -> Iterable[tuple[str, str, str | None]]:
    from linkgate.surface.filtercheck import MISSES, check_filter
    from linkgate.trigger.pathfilter import PathFilter

    path_filter = PathFilter(pf.rules or (), pf.quantifier, name=pf.filter)
    for f in check_filter(surface, path_filter, files):
        # Dead rules and paths outside the repository are `surface --check-filter`'s
        # business; the audit reports only what a pull request can change unseen.
        if f.rule == MISSES:
            # The message starts with the surface path (and, for a directory, a count).
            yield f.message.split(": ", 1)[0].split(" (", 1)[0], f.message, f.hint


def _with_jobs(finding: RawFinding, users: Sequence[Classified]) -> RawFinding:
    from dataclasses import replace

    jobs = dict.fromkeys(f"{c.job_label} ({c.where})" for c in users)
    return replace(finding, message=f"{finding.message}, which gates the link in {', '.join(jobs)}")


def _build_of(repo: Path, c: Classified) -> _Build | None:
    call = c.call
    manifest: Path | None
    if call.manifest_path:
        manifest = repo / posixpath.normpath(posixpath.join(c.inv.cwd, call.manifest_path))
    else:
        manifest = _nearest_manifest(repo, repo / c.inv.cwd)
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


def _nearest_manifest(repo: Path, here: Path) -> Path | None:
    """Cargo searches upwards for Cargo.toml; the audit stops at the repository."""
    for directory in (here, *here.parents):
        if (directory / "Cargo.toml").is_file():
            return directory / "Cargo.toml"
        if directory == repo:
            break
    return None


def _surface(repo: Path, build: _Build) -> Surface | str:
    """The static surface, or why it cannot be computed (cargo metadata failed)."""
    from linkgate.surface import static as staticscan
    from linkgate.cargo import graph as cargo_graph
    from linkgate.config import Config, Gate
    from linkgate.errors import LinkgateError

    gate = Gate(name="audit", cargo=build.cargo_args(), working_directory=build.cwd)
    config = Config(path=repo / "linkgate.toml", root=repo, gates=(gate,))
    try:
        graph = cargo_graph.load(repo / build.cwd, build.cargo_args())
    except LinkgateError as exc:
        first = (exc.message.strip().splitlines() or ["failed"])[0]
        return f"cargo metadata in {build.cwd} failed: {first}"
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

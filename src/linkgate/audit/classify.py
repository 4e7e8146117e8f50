"""Classify one cargo invocation: what it exercises, which feature sets, when it runs.

``cargo build`` and ``cargo run`` link only what they build: a package's
binaries and linked library crate types (cdylib, dylib, staticlib,
proc-macro). ``cargo build -p pure`` of a library-only package archives an
rlib and runs no linker, exactly like ``cargo check`` as far as linking
goes. Selecting tests, benches or examples always links. The package
selection follows cargo: ``-p``, ``--workspace`` (minus ``--exclude``),
``--manifest-path``, else the package of the nearest manifest, else the
virtual workspace's default members. When a manifest cannot be read, the
invocation keeps its subcommand's classification (it is taken as written).
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from linkgate import repofs
from linkgate.cargo import manifests
from linkgate.audit.model import COMPILED_ONLY, EXERCISE, Classified
from linkgate.cargo.cargoargs import CargoCall, installs_crate, parse
from linkgate.cargo.features import UNKNOWN_DIRECTORY, FeatureSet, dependency_sets, feature_sets, per_package
from linkgate.workflows.invocations import Invocation
from linkgate.workflows.shell.interp import CD_UNKNOWN
from linkgate.workflows.triggers import Trigger, trigger_for

# Subcommands whose link depends on the targets of the selected packages.
_TARGET_DEPENDENT = {"build", "run", "zigbuild", "auditable build", "rustc"}
_LINKING_TARGETS = ("--tests", "--benches", "--examples", "--all-targets", "--test ", "--bench ", "--example ", "--bins", "--bin ")

# (workflow, job, step, the caller chain's jobs): a reusable workflow's step runs on each caller's events.
TriggerCache = dict[tuple[str, str, int, tuple[tuple[str, str], ...]], Trigger]


def classify(repo: Path, inv: Invocation, triggers: TriggerCache | None = None) -> Classified | None:
    found = _classify(repo, inv, triggers)
    if found is not None and found.call.subcommand == "docs-rs":
        # cargo-docs-rs builds the docs with the features [package.metadata.docs.rs] names,
        # which linkgate does not read: a set it cannot name, so no finding rests on it.
        found = replace(found, feature_sets=tuple(dict.fromkeys(
            FeatureSet((), symbolic="the features of [package.metadata.docs.rs]", packages=fs.packages)
            for fs in found.feature_sets)), dependency_sets=())
    return found


def _classify(repo: Path, inv: Invocation, triggers: TriggerCache | None) -> Classified | None:
    call = parse(inv.argv)
    if call is None:
        return None
    exercise = _exercise(call)
    selected = selected_manifests(repo, inv.cwd, call)
    if exercise == "linked" and call.subcommand in _TARGET_DEPENDENT and not _selects_linking_targets(call):
        if selected and not any(m.linkable for m in selected):
            exercise = COMPILED_ONLY
    # One trigger per step, however many matrix combinations and commands it has.
    key = (inv.workflow.rel, inv.job.id, inv.step.index, tuple(c.key for c in inv.callers))
    cache = triggers if triggers is not None else {}
    if key not in cache:
        cache[key] = trigger_for(repo, inv.workflow, inv.job, inv.step, inv.callers)
    sets = feature_sets(repo, inv.cwd, call, _package_manifest(repo, call, selected))
    outside = _outside_checkout(repo, inv.cwd, call, inv.unknown)
    # Several packages: one label for all, the command's as written (`--no-default-features`).
    label = sets[0].written or sets[0] if len(sets) == 1 and not call.hack else None
    own = per_package(repo, inv.cwd, call, selected, label if len(selected or ()) > 1 else None) \
        if selected and not outside else None
    if own is not None and selected:
        # One set per selected package, as cargo enables the flags on each: `-p a --features
        # cuda` and `-p b --features cuda` are different sets to cargo.
        sets = own
        deps: tuple[FeatureSet, ...] = ()
        if exercise in ("linked", "tested"):
            by_name = {m.name: m for m in selected if m.name}
            dev = not (call.subcommand in _TARGET_DEPENDENT and not _selects_linking_targets(call))
            builds = [[(by_name[fs.packages[0]], fs)] for fs in own] if call.hack else \
                [[(by_name[fs.packages[0]], fs) for fs in own]]
            deps = tuple(dict.fromkeys(d for b in builds for d in dependency_sets(b, dev, repo)))
        return Classified(inv, call, exercise, sets, cache[key], deps)
    if outside:
        # `git clone x && cd x && cargo test --features f`: x's package and features, not ours.
        selected = None
        exercise = _exercise(call)
        sets = tuple(dict.fromkeys(replace(fs, scope=outside) for fs in sets))
    if call.all_features and selected and not any(m.all_features or m.default for m in selected):
        # With no [features] table, --all-features enables nothing: it is the default set.
        sets = tuple(dict.fromkeys(FeatureSet(fs.features, fs.no_default, False, fs.symbolic) for fs in sets))
    if selected:
        names = tuple(sorted({m.name for m in selected if m.name}))
        sets = tuple(dict.fromkeys(replace(fs, packages=names) for fs in sets))
    return Classified(inv, call, exercise, sets, cache[key])


def _package_manifest(repo: Path, call: CargoCall, selected: list[manifests.Manifest] | None) -> str | None:
    """The manifest whose features the call's feature flags name: the one package it selects
    (`-p zz-sys` from the workspace root, or the package directory it runs in); "" when
    `-p` names packages linkgate could not resolve, or several; None to read the cwd's."""
    if selected is not None and len(selected) == 1:
        try:
            return selected[0].path.relative_to(repo).as_posix()
        except ValueError:
            return ""
    return "" if call.packages else None


def _exercise(call: CargoCall) -> str | None:
    if call.subcommand == "test" and call.no_run:
        return "linked"
    if installs_crate(call) or (call.subcommand == "package" and "--no-verify" in call.args):
        return None  # a crates.io tool; a package not built
    if call.subcommand in ("bundle", "wix") and "--no-build" in call.args:
        return None  # packs a binary built before
    own = call.args[:call.args.index("--")] if "--" in call.args else call.args
    if any(w in ("--version", "-V", "--help", "-h") for w in own[1:]):
        return None  # `cargo wix --version`, `cargo nextest run --help`: prints and builds nothing
    return EXERCISE.get(call.subcommand)


def _outside_checkout(repo: Path, cwd: str, call: CargoCall, unknown: tuple[str, ...] = ()) -> str:
    """The working directory when it is not in the checkout (made or cloned by the job), else "";
    UNKNOWN_DIRECTORY after a `cd` linkgate could not compute (`cd $HOME/the_repo`)."""
    if CD_UNKNOWN in unknown and not call.manifest_path:
        return UNKNOWN_DIRECTORY
    if call.manifest_path or not cwd or cwd == "." or "$" in cwd or "{" in cwd:
        return ""
    if cwd.startswith("/"):
        # An absolute directory is not the checkout (`cargo init /tmp/x && cd /tmp/x && cargo
        # build`): its packages are that project's, never credited to this repository's. The
        # checkout's own absolute names (a container's /github/workspace, the runner's work
        # directory) may hold the repository: those are left unscoped.
        if cwd.startswith(_CHECKOUT_PATHS):
            return ""
        return posixpath.normpath(cwd)
    directory = posixpath.normpath(cwd)
    if directory.startswith(".."):
        return ""
    return "" if repofs.is_dir(repo / directory) else directory


_CHECKOUT_PATHS = ("/github/workspace", "/__w/", "/home/runner/work/", "/Users/runner/work/", "/workspace")


def _selects_linking_targets(call: CargoCall) -> bool:
    return any(t == flag.strip() or t.startswith(flag) for t in call.targets for flag in _LINKING_TARGETS)


def selected_manifests(repo: Path, cwd: str, call: CargoCall) -> list[manifests.Manifest] | None:
    """The manifests of the packages *call* builds; None when that cannot be known."""
    if any("$" in p or "{" in p for p in (*call.packages, call.manifest_path or "", cwd)):
        return None
    directory = Path(os.path.normpath(repo / cwd))
    try:
        if call.manifest_path:
            start = Path(os.path.normpath(directory / call.manifest_path))
        else:
            found = manifests.nearest(repo, directory)
            if found is None:
                return None
            start = found
        if not start.is_file():
            return None
        here = manifests.read(start)
        root = manifests.read(manifests.find_workspace_root(start, repo))
        members = list(_members(root))
        if call.packages:
            known = _known(here, root)
            names = [manifests.spec_name(p) for p in call.packages]
            if any(n not in known for n in names):
                return None
            return [known[n] for n in names]
        if call.workspace:
            return [m for m in members if m.name not in call.exclude] or None
        if here.name is not None:
            return [here]
        if root.default_members is not None:
            return [manifests.read(d / "Cargo.toml") for d in manifests.member_dirs(root, root.default_members)
                    if d != root.dir] or None
        return [m for m in members if m.name] or None
    except (manifests.ManifestError, OSError):
        # OSError: a path no file system takes (a name past NAME_MAX): nothing it names is known.
        return None


# Once per workspace (and manifest), not once per cargo invocation: a CI with a
# job per crate of a 1,000-crate workspace read every member for every job.
@functools.lru_cache(maxsize=64)
def _members(root: manifests.Manifest) -> tuple[manifests.Manifest, ...]:
    return tuple(manifests.read(d / "Cargo.toml") for d in manifests.member_dirs(root))


@functools.lru_cache(maxsize=256)
def _known(here: manifests.Manifest, root: manifests.Manifest) -> Mapping[str, manifests.Manifest]:
    items = [here, *_members(root)]
    known = {m.name: m for m in items if m.name}
    known.update(_path_dep_names(items))
    return known


def _path_dep_names(items: list[manifests.Manifest]) -> Mapping[str, manifests.Manifest]:
    out: dict[str, manifests.Manifest] = {}
    for m in items:
        for dep in m.path_deps:
            try:
                info = manifests.read(dep / "Cargo.toml")
            except manifests.ManifestError:
                continue
            if info.name:
                out.setdefault(info.name, info)
    return out


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

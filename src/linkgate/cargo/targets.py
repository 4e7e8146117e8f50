"""The workspace's linkable targets, and the smallest one that exercises a package's link recipe.

Read from ``cargo metadata --no-deps``, which needs no registry: a workspace's
own build scripts, targets and path dependencies are all there (the same
fallback ``cargo.graph`` takes when the full resolve fails offline).

Which targets a build script's directives reach (cargo's documentation of
build scripts; FACTS.md, "Build scripts"): ``rustc-link-lib`` travels inside
the rlib to every crate that links it, so a dependent's test or binary
exercises it; ``rustc-link-arg`` applies only to the emitting package's own
linkable targets, and ``rustc-link-arg-bins``/``-tests``/``-examples`` only to
that kind among them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("test", "bin", "example")  # preference order: --no-run links a test without running it

# Which of the package's own target kinds a directive reaches; "lib" is the
# library's unit-test harness, a test target like any other to cargo.
_OWN_KINDS: Mapping[str, frozenset[str]] = {
    "rustc-link-arg-bins": frozenset({"bin"}),
    "rustc-link-arg-bin": frozenset({"bin"}),
    "rustc-link-arg-tests": frozenset({"test", "lib"}),
    "rustc-link-arg-examples": frozenset({"example"}),
    "rustc-link-arg-benches": frozenset(),
    "rustc-link-arg-cdylib": frozenset(),
    "rustc-cdylib-link-arg": frozenset(),
}
_ALL_OWN = frozenset({*KINDS, "lib"})
# Directives that reach dependents: rustc bundles or names the library in the rlib.
_TRAVELS = frozenset({"rustc-link-lib", "rustc-link-search", "rustc-flags"})


@dataclass(frozen=True)
class Target:
    package: str
    name: str
    kind: str  # "test" | "bin" | "example" | "lib" (the library's unit-test harness)
    src_path: Path
    required_features: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        try:
            return self.src_path.stat().st_size
        except OSError:
            return 1 << 62  # unreadable: last among its kind, never chosen over a readable one


@dataclass(frozen=True)
class Member:
    name: str
    manifest_dir: Path
    targets: tuple[Target, ...]
    normal_deps: tuple[str, ...]  # member names, [dependencies]
    dev_deps: tuple[str, ...]     # member names, [dev-dependencies]


@dataclass(frozen=True)
class Workspace:
    root: Path
    members: tuple[Member, ...]

    def member(self, name: str) -> Member:
        return next(m for m in self.members if m.name == name)


@dataclass(frozen=True)
class Choice:
    target: Target
    rule: str  # "own" | "dependent" | "lib-harness"

    def cargo_args(self, name_package: bool) -> list[str]:
        """The gate's cargo command line; ``-p`` when the workspace has several members."""
        t = self.target
        pkg = ["-p", t.package] if name_package else []
        features = ["--features", ",".join(t.required_features)] if t.required_features else []
        if t.kind == "lib":
            return ["test", *pkg, "--release", "--lib", *features, "--no-run"]
        if t.kind == "test":
            return ["test", *pkg, "--release", "--test", t.name, *features, "--no-run"]
        return ["build", *pkg, "--release", f"--{t.kind}", t.name, *features]


def from_metadata(meta: Mapping[str, Any]) -> Workspace:
    """The members of a ``cargo metadata`` document (``--no-deps`` or full)."""
    member_ids = set(meta.get("workspace_members") or ())
    raw = [p for p in meta.get("packages") or () if p.get("id") in member_ids]
    by_dir = {Path(p["manifest_path"]).parent.resolve(): p["name"] for p in raw}
    members = []
    for p in raw:
        targets: list[Target] = []
        for t in p.get("targets") or ():
            kinds = t.get("kind") or []
            kind = next((k for k in KINDS if k in kinds), None)
            if kind == "example" and "bin" not in (t.get("crate_types") or ["bin"]):
                kind = None  # a library example links nothing of its own
            if kind is None and {"lib", "rlib", "dylib", "cdylib", "staticlib"} & set(kinds) and t.get("test", True):
                kind = "lib"
            if kind is not None:
                targets.append(Target(p["name"], t["name"], kind, Path(t["src_path"]),
                                      tuple(t.get("required-features") or ())))
        normal: list[str] = []
        dev: list[str] = []
        for d in p.get("dependencies") or ():
            dep = by_dir.get(Path(d["path"]).resolve()) if d.get("path") else None
            if dep is None or dep == p["name"]:
                continue
            if d.get("kind") is None:
                normal.append(dep)
            elif d.get("kind") == "dev":
                dev.append(dep)  # a build-dependency links into the build script, not the target
        members.append(Member(p["name"], Path(p["manifest_path"]).parent, tuple(targets),
                              tuple(dict.fromkeys(normal)), tuple(dict.fromkeys(dev))))
    return Workspace(Path(meta["workspace_root"]), tuple(sorted(members, key=lambda m: m.name)))


def reach(keys: Iterable[str], helpers: bool) -> tuple[frozenset[str], bool]:
    """(own target kinds the directives reach, whether they reach dependents).
    A helper crate (cc, cmake, pkg-config, cxx) prints ``rustc-link-lib``."""
    own: set[str] = set()
    dependents = helpers
    for key in keys:
        own |= _OWN_KINDS.get(key, _ALL_OWN)
        dependents |= key in _TRAVELS
    if helpers:
        own |= _ALL_OWN
    return frozenset(own), dependents


def _smallest(targets: Iterable[Target]) -> Target | None:
    ranked = sorted(targets, key=lambda t: (KINDS.index(t.kind), t.size, t.package, t.name))
    return ranked[0] if ranked else None


def _links(ws: Workspace, start: str, via_dev: bool) -> set[str]:
    """Members whose code a target of *start* links: normal dependencies, transitively
    (and *start*'s own dev-dependencies for tests and examples)."""
    first = ws.member(start)
    stack = list(first.normal_deps) + (list(first.dev_deps) if via_dev else [])
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(ws.member(name).normal_deps)
    return seen


def choose(ws: Workspace, package: str, own_kinds: frozenset[str], dependents: bool) -> Choice | None:
    """The smallest target that exercises *package*'s link directives (docs/commands/init.md)."""
    mine = ws.member(package)
    own = _smallest(t for t in mine.targets if t.kind in KINDS and t.kind in own_kinds)
    if own is not None:
        return Choice(own, "own")
    if dependents:
        found: list[Target] = []
        for other in ws.members:
            if other.name == package:
                continue
            for t in other.targets:
                if t.kind in KINDS and package in _links(ws, other.name, via_dev=t.kind != "bin"):
                    found.append(t)
        dep = _smallest(found)
        if dep is not None:
            return Choice(dep, "dependent")
    lib = next((t for t in mine.targets if t.kind == "lib"), None)
    if lib is not None and "lib" in own_kinds:
        return Choice(lib, "lib-harness")
    return None

"""Read a Cargo workspace from its manifests alone: members, path dependencies, targets, features.

linkgate must work where ``cargo metadata`` cannot (no registry cached, no
cargo at all: a pre-commit hook offline, a fresh container). Everything the
causal surface and the audit need about the workspace's own packages is in their ``Cargo.toml`` files:
``[workspace] members`` globs minus ``exclude``, ``default-members``,
``path`` dependencies, ``[features]``, and the targets, which cargo
auto-discovers (``src/main.rs``, ``src/bin/*.rs``, ``src/bin/*/main.rs``)
unless ``autobins = false``; explicit ``[[bin]]`` entries always count.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs

# Library crate types the linker produces; an rlib is only archived.
# A proc-macro is a shared object linked by the host's linker, so building one links too.
LINKED_CRATE_TYPES = frozenset({"cdylib", "dylib", "staticlib", "bin", "proc-macro"})
_DEP_TABLES = ("dependencies", "build-dependencies", "dev-dependencies")


@dataclass(frozen=True)
class PathDep:
    """A ``path`` dependency as the features see it: its key (the name features use),
    whether it is optional, the features it asks for, and default-features."""

    name: str
    dir: Path
    optional: bool
    features: tuple[str, ...]
    default_features: bool
    kind: str = "dependencies"  # or build-dependencies, dev-dependencies
    target: bool = False  # in a [target.*] table: built only on the targets it names


@dataclass(frozen=True)
class InheritedDep:
    """A ``KEY = { workspace = true, ... }`` dependency: what the member adds to the workspace's
    ``[workspace.dependencies]`` entry (``features`` are added to the workspace's; ``optional``
    is the member's; ``default-features = true`` re-enables what the workspace turned off)."""

    name: str
    optional: bool
    features: tuple[str, ...]
    default_features: bool | None
    kind: str = "dependencies"
    target: bool = False


@dataclass(frozen=True)
class Manifest:
    path: Path
    name: str | None  # None for a virtual manifest
    features: tuple[str, ...]  # every feature but `default`
    default: tuple[str, ...]
    linkable: bool  # has a bin, cdylib, dylib, staticlib or proc-macro target
    path_deps: tuple[Path, ...]  # manifest directories of path dependencies
    members: tuple[str, ...]  # `[workspace] members` patterns, when it is a workspace root
    exclude: tuple[str, ...]
    default_members: tuple[str, ...] | None
    is_workspace: bool
    deps: tuple[PathDep, ...] = ()
    feature_table: tuple[tuple[str, tuple[str, ...]], ...] = ()  # every feature, `default` included
    # Optional dependencies' implicit features (the dependency's key, as Cargo.toml spells
    # it): one per optional dependency that no feature names as `dep:KEY`.
    implicit_features: tuple[str, ...] = ()
    inherited: tuple[InheritedDep, ...] = ()
    # A workspace root's `[workspace.dependencies]` entries that are path dependencies.
    workspace_deps: tuple[PathDep, ...] = ()

    @property
    def all_features(self) -> tuple[str, ...]:
        """Every feature cargo knows for the package but `default`: what `--all-features` turns on."""
        return tuple(sorted({*self.features, *self.implicit_features}))

    @property
    def full_feature_table(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The feature table as `cargo metadata` lists it: implicit features as `KEY = ["dep:KEY"]`."""
        implicit = tuple((k, (f"dep:{k}",)) for k in self.implicit_features)
        return tuple(sorted(self.feature_table + implicit))

    @property
    def dir(self) -> Path:
        return self.path.parent


class ManifestError(ValueError):
    """A Cargo.toml that cannot be read; the message names the file."""


def read(path: Path) -> Manifest:
    path = Path(os.path.normpath(path))
    try:
        st = path.stat()
        stamp = (st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = (-1, -1)  # _read says why it cannot be read
    return _read(path, stamp)


# Keyed on size and mtime too, so an edited manifest is read again. Large enough
# for a workspace of thousands of members: an audit reads every member once per
# cargo invocation, and a cache smaller than the workspace re-parsed them all each time.
@functools.lru_cache(maxsize=16384)
def _read(path: Path, stamp: tuple[int, int]) -> Manifest:
    try:
        data = tomllib.loads(repofs.read_text(path, inside=None))
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path} is not valid TOML: {exc}") from exc
    package = _table(data.get("package"))
    workspace = data.get("workspace")
    ws = _table(workspace)
    features = _table(data.get("features"))
    default = features.get("default", [])
    name = package.get("name") if package else None
    return Manifest(
        path=path,
        name=name if isinstance(name, str) else None,
        features=tuple(sorted(k for k in features if k != "default")),
        default=tuple(str(d) for d in default) if isinstance(default, list) else (),
        linkable=bool(package) and _linkable(path.parent, data, package),
        path_deps=tuple(_path_deps(path.parent, data)),
        members=_strings(ws.get("members")),
        exclude=_strings(ws.get("exclude")),
        default_members=_strings(ws["default-members"]) if "default-members" in ws else None,
        is_workspace=isinstance(workspace, dict),
        deps=tuple(_path_dep_specs(path.parent, data)),
        feature_table=tuple((k, _strings(v)) for k, v in sorted(features.items())),
        implicit_features=_implicit_features(data, features),
        inherited=tuple(_inherited_specs(data)),
        workspace_deps=tuple(_workspace_path_deps(path.parent, ws)),
    )


# Cargo refuses an optional dev-dependency, so only these tables make features.
_OPTIONAL_TABLES = ("dependencies", "build-dependencies")


def _implicit_features(data: Mapping[str, Any], features: Mapping[str, Any]) -> tuple[str, ...]:
    """Cargo's implicit feature per optional dependency (any target table), named by the
    dependency's key; none for a dependency some feature names as ``dep:KEY`` (cargo 1.60+)."""
    named = {e[4:] for v in features.values() if isinstance(v, list) for e in v
             if isinstance(e, str) and e.startswith("dep:")}
    tables: list[Mapping[str, Any]] = [data]
    tables += [_table(t) for t in _table(data.get("target")).values()]
    optional = {str(name) for table in tables for kind in _OPTIONAL_TABLES
                for name, spec in _table(table.get(kind)).items()
                if isinstance(spec, dict) and spec.get("optional") is True}
    return tuple(sorted(optional - named - {k for k in features if k != "default"}))


def _linkable(directory: Path, data: Mapping[str, Any], package: Mapping[str, Any]) -> bool:
    lib = _table(data.get("lib"))
    kinds = lib.get("crate-type") or lib.get("crate_type") or []
    if lib.get("proc-macro") is True or any(k in LINKED_CRATE_TYPES for k in kinds if isinstance(k, str)):
        return True
    if isinstance(data.get("bin"), list) and data["bin"]:
        return True
    if package.get("autobins") is False:
        return False
    src = directory / "src"
    if (src / "main.rs").is_file():
        return True
    bins = src / "bin"
    if bins.is_dir():
        for entry in bins.iterdir():
            if (entry.suffix == ".rs" and entry.is_file()) or (entry / "main.rs").is_file():
                return True
    return False


# Library crate types rustc writes as an archive of its own: a `static`
# native library (unless `-bundle`) goes into it, not onto its link line.
_ARCHIVED_CRATE_TYPES = ("lib", "rlib", "staticlib")


def archived_library(manifest_dir: Path) -> tuple[str, str] | None:
    """(crate name, "rlib" or "staticlib") of the package's library when rustc
    archives it, else None (no library, or only a cdylib, dylib or proc-macro,
    whose own link line carries the package's native libraries)."""
    path = manifest_dir / "Cargo.toml"
    try:
        raw = tomllib.loads(repofs.read_text(path, inside=None))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"cannot read {path}: {exc}") from exc
    package = _table(raw.get("package"))
    lib = _table(raw.get("lib"))
    has_lib = isinstance(lib.get("path"), str) or (
        package.get("autolib") is not False and (manifest_dir / "src" / "lib.rs").is_file()
    )
    if not has_lib or lib.get("proc-macro") is True:
        return None
    kinds = [k for k in (lib.get("crate-type") or lib.get("crate_type") or ["lib"]) if isinstance(k, str)]
    archived = [k for k in kinds if k in _ARCHIVED_CRATE_TYPES]
    if not archived:
        return None
    name = lib.get("name")
    crate = name if isinstance(name, str) else str(package.get("name") or manifest_dir.name).replace("-", "_")
    return crate, "staticlib" if archived == ["staticlib"] else "rlib"


def _path_deps(directory: Path, data: Mapping[str, Any]) -> Iterator[Path]:
    tables: list[Mapping[str, Any]] = [data]
    tables += [_table(t) for t in _table(data.get("target")).values()]
    for table in tables:
        for kind in _DEP_TABLES:
            for spec in _table(table.get(kind)).values():
                if isinstance(spec, dict) and isinstance(spec.get("path"), str):
                    yield Path(os.path.normpath(directory / spec["path"]))


def _path_dep_specs(directory: Path, data: Mapping[str, Any]) -> Iterator[PathDep]:
    tables: list[tuple[Mapping[str, Any], bool]] = [(data, False)]
    tables += [(_table(t), True) for t in _table(data.get("target")).values()]
    for table, target in tables:
        for kind in _DEP_TABLES:
            for name, spec in _table(table.get(kind)).items():
                if isinstance(spec, dict) and isinstance(spec.get("path"), str):
                    default = spec.get("default-features", spec.get("default_features", True))
                    yield PathDep(str(name), Path(os.path.normpath(directory / spec["path"])),
                                  spec.get("optional") is True, _strings(spec.get("features")), default is not False,
                                  kind, target)


def _inherited_specs(data: Mapping[str, Any]) -> Iterator[InheritedDep]:
    tables: list[tuple[Mapping[str, Any], bool]] = [(data, False)]
    tables += [(_table(t), True) for t in _table(data.get("target")).values()]
    for table, target in tables:
        for kind in _DEP_TABLES:
            for name, spec in _table(table.get(kind)).items():
                if isinstance(spec, dict) and spec.get("workspace") is True:
                    default = spec.get("default-features", spec.get("default_features"))
                    yield InheritedDep(str(name), spec.get("optional") is True, _strings(spec.get("features")),
                                       default if isinstance(default, bool) else None, kind, target)


def _workspace_path_deps(directory: Path, ws: Mapping[str, Any]) -> Iterator[PathDep]:
    for name, spec in _table(ws.get("dependencies")).items():
        if isinstance(spec, dict) and isinstance(spec.get("path"), str):
            default = spec.get("default-features", spec.get("default_features", True))
            yield PathDep(str(name), Path(os.path.normpath(directory / spec["path"])), False,
                          _strings(spec.get("features")), default is not False)


def inherit(member: Manifest, root: Manifest) -> tuple[PathDep, ...]:
    """*member*'s ``workspace = true`` dependencies that are path dependencies of *root*'s
    ``[workspace.dependencies]``, as cargo merges them: the workspace's features plus the
    member's, the member's ``optional``, and default features on unless the workspace turned
    them off and the member did not turn them back on."""
    entries = {d.name: d for d in root.workspace_deps}
    out = []
    for dep in member.inherited:
        ws = entries.get(dep.name)
        if ws is None:
            continue
        default = ws.default_features or dep.default_features is True
        out.append(PathDep(dep.name, ws.dir, dep.optional, tuple(dict.fromkeys((*ws.features, *dep.features))),
                           default, dep.kind, dep.target))
    return tuple(out)


def find_workspace_root(manifest: Path, stop: Path) -> Path:
    """The manifest of the workspace *manifest* belongs to: itself, or the nearest
    ancestor with a ``[workspace]`` table (cargo's search), not above *stop*."""
    here = read(manifest)
    if here.is_workspace:
        return here.path
    for directory in manifest.parent.parents:
        candidate = directory / "Cargo.toml"
        if candidate.is_file():
            try:
                if read(candidate).is_workspace:
                    return candidate
            except ManifestError:
                pass
        if directory == stop or stop not in directory.parents:
            break
    return manifest


def spec_name(spec: str) -> str:
    """The package name in a ``-p`` value: ``name@1.2.3`` and ``name:1.2.3`` are package id specs."""
    return re.split(r"[@:]", spec, maxsplit=1)[0]


def nearest(repo: Path, here: Path) -> Path | None:
    """The Cargo.toml cargo finds from *here* (searching upwards), not above the repository."""
    here = Path(os.path.normpath(here))
    if here != repo and repo not in here.parents:
        return None
    for directory in (here, *here.parents):
        if (directory / "Cargo.toml").is_file():
            return directory / "Cargo.toml"
        if directory == repo:
            break
    return None


def member_dirs(root: Manifest, patterns: tuple[str, ...] | None = None) -> list[Path]:
    """Member directories from glob patterns, as cargo expands ``members``."""
    out: list[Path] = []
    seen: set[Path] = set()  # not `in out`: a list scan per member is quadratic in the members
    if root.name is not None:
        out.append(root.dir)
        seen.add(root.dir)
    excluded = {Path(os.path.normpath(root.dir / e)) for e in root.exclude}
    for pattern in root.members if patterns is None else patterns:
        matches = sorted(root.dir.glob(pattern)) if any(c in pattern for c in "*?[") else [root.dir / pattern]
        for match in matches:
            path = Path(os.path.normpath(match))
            if path not in excluded and path not in seen and (path / "Cargo.toml").is_file():
                out.append(path)
                seen.add(path)
    return out


def _table(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

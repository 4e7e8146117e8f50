"""The feature sets a cargo command compiles, normalised for comparison.

A set is the sorted ``--features`` plus ``--no-default-features`` and
``--all-features``, compared as cargo enables them: a feature the default set
already turns on adds nothing (``cuda,webui`` is ``cuda`` when ``webui`` is
default), ``--all-features`` is every feature cargo knows for the package
(its ``[features]`` table and each optional dependency's implicit feature, the
dependency's key, unless a feature names it as ``dep:KEY``), the manifest is
the one package the command selects (``-p zz-sys`` from the workspace root is
``zz-sys/Cargo.toml``, as is ``cargo test`` run in ``zz-sys/``), and the
packages the command selects are part of the set (``-p a --features cuda`` is
not ``-p b --features cuda``). The label keeps what the
command wrote. ``cargo hack --each-feature`` / ``--feature-powerset``
compile many sets; they are expanded from the package's ``[features]``
table, following cargo-hack's documented behaviour (default features,
``--no-default-features``, then each feature, or each combination, on top of
``--no-default-features``). When the manifest cannot be read, or a powerset
would exceed 2**8 sets, the hack run stays one symbolic set.
"""

from __future__ import annotations

import functools
import itertools
import posixpath
from dataclasses import dataclass, field, replace
from pathlib import Path

from linkgate import repofs
from linkgate.cargo import manifests
from linkgate.cargo.cargoargs import CargoCall
from linkgate.cargo.manifests import Manifest
from linkgate.errors import RefusedFile

POWERSET_LIMIT = 8
CARGO_C = ("cbuild", "cinstall", "ctest")  # lu-zero/cargo-c's subcommands


# The scope of a command run after `cd` to a directory linkgate cannot compute: whose packages
# it builds is not known, so its sets are neither this repository's findings nor its links.
UNKNOWN_DIRECTORY = "\0unknown"


@dataclass(frozen=True, order=True)
class FeatureSet:
    features: tuple[str, ...]
    no_default: bool = False
    all: bool = False
    symbolic: str | None = None
    # A directory the repository does not hold (a project CI clones, then builds):
    # its features are another package's, never to be mixed with this repository's.
    scope: str = ""
    # The packages the command selects, when known (empty: not known).
    packages: tuple[str, ...] = ()
    # The set as the command wrote it, when the comparison form differs (`cuda,webui`, `--all-features`).
    written: FeatureSet | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        if self.scope == UNKNOWN_DIRECTORY:
            return f"{self._base} in an unknown directory"
        return f"{self._base} in {self.scope}/ (not in the repository)" if self.scope else self._base

    @property
    def qualified(self) -> str:
        """The set as cargo sees it, with the packages it applies to when known: `core: cuda`
        (for `-p core --features cuda,webui` when webui is a default feature)."""
        label = FeatureSet(self.features, self.no_default, self.all, self.symbolic, self.scope).label
        return f"{','.join(self.packages)}: {label}" if self.packages else label

    def covers(self, other: FeatureSet) -> bool:
        """Does linking this set link *other*: the same features, on the packages of *other* (or unknown ones)?"""
        same = (self.features, self.no_default, self.all, self.symbolic, self.scope) == \
            (other.features, other.no_default, other.all, other.symbolic, other.scope)
        return same and (not self.packages or not other.packages or set(other.packages) <= set(self.packages))

    @property
    def _base(self) -> str:
        if self.written is not None:
            return self.written._base
        if self.symbolic:
            return self.symbolic
        if self.all:
            return "all features"
        text = ",".join(self.features) or ("no default features" if self.no_default else "default")
        return f"{text} (no default)" if self.no_default and self.features else text

    @property
    def unknown(self) -> bool:
        """True when the set holds an expression or variable linkgate could not resolve."""
        return self.symbolic is not None or any("$" in f or "{" in f for f in self.features)


def feature_sets(repo: Path, cwd: str, call: CargoCall, package: str | None = None) -> tuple[FeatureSet, ...]:
    """*package*: the manifest (relative to *repo*) of the one package the call selects, as
    the caller resolved ``-p``, ``--manifest-path`` and the working directory; "" when it
    cannot be known; None to take the manifest in *cwd* (or ``--manifest-path``)."""
    if package is None:
        # --manifest-path is relative to the working directory, as cargo reads it.
        package = posixpath.normpath(posixpath.join(cwd, call.manifest_path or "Cargo.toml"))
    manifest = _manifest_features(repo, package)
    # With an empty `default`, --no-default-features changes nothing: one set, not two.
    trivial_default = manifest is not None and empty_default(manifest, repo)

    if call.subcommand in CARGO_C and manifest is not None and "capi" in manifest.all_features \
            and "capi" not in call.features:
        # cargo-c turns on the package's `capi` feature itself.
        call = replace(call, features=tuple(sorted((*call.features, "capi"))))

    def make(features: tuple[str, ...], no_default: bool) -> FeatureSet:
        written = FeatureSet(features, no_default and not trivial_default, call.all_features)
        return _as_cargo_sees(written, manifest)

    if not call.hack:
        return (make(call.features, call.no_default_features),)
    # cargo-hack expands the [features] table; optional dependencies only with --optional-deps.
    names = _hack_features(manifest, call.args) if manifest is not None else None
    if names is None or (call.hack == "feature-powerset" and len(names) > POWERSET_LIMIT):
        return (FeatureSet((), symbolic=f"{call.hack} (features unknown)"),)
    sets = [make((), False), make((), True)]
    if call.hack == "each-feature":
        sets += [make((n,), True) for n in names]
    else:
        for size in range(1, len(names) + 1):
            sets += [make(c, True) for c in itertools.combinations(names, size)]
    return tuple(dict.fromkeys(sets))


def per_package(repo: Path, cwd: str, call: CargoCall, selected: list[Manifest],
                label: FeatureSet | None = None) -> tuple[FeatureSet, ...] | None:
    """One set per selected package, as cargo enables the call's flags on each (resolver 2):
    a plain ``--features`` name applies to each selected package that has it, ``pkg/feat`` to
    *pkg* alone (when *pkg* is a selected package; else it names a dependency's feature and
    is kept), a name no selected package has is kept as written (cargo refuses it; the set
    says what the command wrote). ``--all-features`` of a package without features is its
    default set. Each set keeps its package (``packages=(name,)``) and is labelled as the
    command wrote it, *label* when given (one label for every package of a command; a
    package lacking the features named is compared as its default set, still labelled as
    written). None when a selected package's manifest is outside *repo*."""
    names = {m.name for m in selected if m.name}
    have = {f for m in selected for f in m.all_features}
    out: list[FeatureSet] = []
    for m in selected:
        if m.name is None:
            continue
        try:
            rel = m.path.relative_to(repo).as_posix()
        except ValueError:
            return None
        own = package_features(call.features, m, names, have)
        trivial_default = empty_default(m, repo)
        wrote = label or FeatureSet(call.features, call.no_default_features and not trivial_default, call.all_features)
        for fs in feature_sets(repo, cwd, replace(call, features=own), rel):
            if fs.all and not m.all_features:
                # With no [features] table, --all-features enables nothing: it is the default
                # set (labelled so when no selected package has features).
                fs = FeatureSet(fs.features, fs.no_default, False, fs.symbolic, written=wrote if have else None)
            elif (label is not None or own != call.features) and not call.hack and not fs.unknown:
                # Labelled as the command wrote it; compared as what it enables on this package.
                fs = replace(fs, written=None if _same(fs, wrote) else wrote)
            out.append(replace(fs, packages=(m.name,)))
    return tuple(dict.fromkeys(out)) or None


def dependency_sets(built: list[tuple[Manifest, FeatureSet]], dev: bool,
                   repo: Path | None = None) -> tuple[FeatureSet, ...]:
    """The sets a build of *built* (each selected package with its resolved set) links its local
    path dependencies with, as cargo's resolver 2 resolves them: a dependency's default set
    unless ``default-features = false``, plus its ``features = [...]`` and each ``D/x`` or
    ``D?/x`` an enabled feature forwards, unified over every dependent in the build; an
    optional dependency only when a feature enables it (``dep:D``, its implicit feature, or
    ``D/x``); dev-dependencies of the selected packages only when *dev* (tests, benches or
    examples are built). Build-dependencies are resolved apart (resolver 2 builds them for the
    host, unified only with other build-time edges) and linked into the build script, so they
    and what they depend on are credited with their own host set. A dependency reached through
    a ``[target.*]`` table (built on some targets only), or below one, or whose manifest cannot
    be read, gets no set: what it links is not known. The selected packages keep their own
    sets (a selected package reached as a build-dependency gets its host set too)."""
    if any(fs.unknown for _, fs in built):
        return ()
    Node = tuple[Path, bool]  # (package directory, built for the host: a build-dependency)
    found: dict[Path, Manifest] = {m.dir: m for m, _ in built}
    roots = set(found)
    enabled: dict[Node, set[str]] = {}
    for m, fs in built:
        enabled[(m.dir, False)] = _enables(m, set(fs.features), not fs.no_default)
    requests: dict[Node, tuple[bool, frozenset[str]]] = {}
    uncertain: set[Node] = set()
    changed = True
    while changed:
        changed = False
        for here in list(enabled):
            on = enabled[here]
            directory, host = here
            for d in all_deps(found[directory], repo):
                if d.kind == "dev-dependencies" and not (dev and directory in roots and not host):
                    continue
                node = (d.dir, host or d.kind == "build-dependencies")
                forwarded = {e.split("/", 1)[1] for e in on if "/" in e and e.split("/", 1)[0].rstrip("?") == d.name}
                if d.optional and f"dep:{d.name}" not in on and d.name not in on and not any(
                        e.startswith(f"{d.name}/") for e in on):
                    continue
                if node in enabled and node not in requests:
                    continue  # a selected package: its own set
                if d.target or here in uncertain:
                    uncertain.add(node)
                if d.dir not in found:
                    try:
                        found[d.dir] = manifests.read(d.dir / "Cargo.toml")
                    except manifests.ManifestError:
                        uncertain.add(node)
                        continue
                old = requests.get(node, (False, frozenset()))
                new = (old[0] or d.default_features, old[1] | set(d.features) | forwarded)
                if new != old or node not in enabled:
                    requests[node] = new
                    enabled[node] = _enables(found[d.dir], set(new[1]), new[0])
                    changed = True
    out: list[FeatureSet] = []
    for node, (default, feats) in sorted(requests.items()):
        m = found[node[0]]
        if node in uncertain or m.name is None:
            continue
        fs = _as_cargo_sees(FeatureSet(tuple(sorted(feats)), not default and not empty_default(m, repo), False), m)
        out.append(FeatureSet(fs.features, fs.no_default, fs.all, fs.symbolic, packages=(m.name,)))
    return tuple(dict.fromkeys(out))


def _enables(m: Manifest, features: set[str], default: bool) -> set[str]:
    """The features (and their `dep:`/`D/x` entries) *features* and the default set turn on in *m*."""
    table = dict(m.full_feature_table)
    seen: set[str] = set()
    todo = [*features, *(["default"] if default else [])]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for e in table.get(f, ()):
            if "/" in e or e.startswith("dep:"):
                seen.add(e)
            else:
                todo.append(e)
    return seen


@functools.lru_cache(maxsize=4096)
def all_deps(m: Manifest, repo: Path | None) -> tuple[manifests.PathDep, ...]:
    """*m*'s path dependencies, its ``workspace = true`` ones included (resolved through the
    workspace root cargo finds above it, not above *repo*); without *repo*, its own only."""
    if not m.inherited or repo is None:
        return m.deps
    try:
        root = manifests.read(manifests.find_workspace_root(m.path, repo))
    except manifests.ManifestError:
        return m.deps
    return m.deps + manifests.inherit(m, root)


def empty_default(m: Manifest, repo: Path | None = None, depth: int = 0) -> bool:
    """Does *m*'s default set enable nothing: no `default`, `default = []`, or a default that
    only turns on `dep/default` of path dependencies whose own default enables nothing
    (`default = ["boring/default"]` when boring has `default = []`)? Then
    --no-default-features compiles the same code as the default set."""
    if not m.default:
        return True
    if depth > 8:
        return False
    deps = {d.name: d for d in all_deps(m, repo)}
    for e in _enables(m, set(), True):
        if e == "default":
            continue
        dep, slash, feat = e.partition("/")
        d = deps.get(dep)
        if not slash or feat != "default" or d is None or d.optional:
            return False
        try:
            if not empty_default(manifests.read(d.dir / "Cargo.toml"), repo, depth + 1):
                return False
        except manifests.ManifestError:
            return False
    return True


def _same(a: FeatureSet, b: FeatureSet) -> bool:
    return (a.features, a.no_default, a.all, a.symbolic) == (b.features, b.no_default, b.all, b.symbolic)


def package_features(features: tuple[str, ...], m: Manifest, names: set[str], have: set[str]) -> tuple[str, ...]:
    """The ``--features`` entries cargo enables on *m* when the call selects the packages
    *names*, whose features together are *have*."""
    out: list[str] = []
    for f in features:
        pkg, slash, feat = f.partition("/")
        if slash and pkg.rstrip("?") in names:
            if pkg.rstrip("?") == m.name:
                out.append(feat)
        elif slash or f in m.all_features or f not in have:
            out.append(f)
    return tuple(sorted(set(out)))


def _hack_features(manifest: Manifest, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The features cargo-hack expands: the [features] table, plus with ``--optional-deps``
    every optional dependency's implicit feature (``--optional-deps=a,b``: those); None when
    the option's value is a separate word linkgate cannot tell from a subcommand or path."""
    extra: tuple[str, ...] = ()
    for i, word in enumerate(args):
        if word == "--":
            break
        if word.startswith("--optional-deps="):
            wanted = {w for w in word.split("=", 1)[1].replace(",", " ").split() if w}
            extra = tuple(f for f in manifest.implicit_features if f in wanted)
        elif word == "--optional-deps":
            following = args[i + 1] if i + 1 < len(args) else "-"
            if not following.startswith("-"):
                return None
            extra = manifest.implicit_features
    return tuple(sorted({*manifest.features, *extra}))


def _as_cargo_sees(fs: FeatureSet, manifest: Manifest | None) -> FeatureSet:
    """*fs* in its comparison form (features the default set enables dropped, --all-features
    as the feature table), labelled as written."""
    if manifest is None or fs.unknown:
        return fs
    names, table = manifest.all_features, manifest.full_feature_table
    if fs.no_default and not fs.all:
        kept = _minimal(fs.features, dict(table))
        return fs if kept == fs.features else FeatureSet(kept, True, False, written=fs)
    enabled = _closure(dict(table), {"default"})
    if fs.all:
        if not names:
            return fs
        # Every feature, the default ones included: what is left beyond the default set.
        return FeatureSet(_minimal(tuple(n for n in names if n not in enabled), dict(table)), False, False, written=fs)
    kept = _minimal(tuple(f for f in fs.features if f not in enabled), dict(table))
    return fs if kept == fs.features else FeatureSet(kept, False, False, written=fs)


def _minimal(features: tuple[str, ...], table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """*features* without those another of them turns on (`pa_v14,pa_v15` is `pa_v15` when
    pa_v15 = ["pa_v14"]): the same set cargo enables, in one form."""
    kept = list(features)
    for f in sorted(features):
        rest = set(kept) - {f}
        if f in kept and f in table and f in _closure(table, rest):
            kept.remove(f)
    return tuple(kept)


def _closure(table: dict[str, tuple[str, ...]], start: set[str]) -> set[str]:
    """What *start* turns on: this package's features, and the `dep/feature` entries they
    name (so `--features pyo3/extension-module` adds nothing when a default feature names
    it); a weak `dep?/feature` is not the same as `dep/feature` and is left out."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        f = todo.pop()
        if f in seen or f not in table:
            continue
        seen.add(f)
        for e in table[f]:
            if "/" in e and "?/" not in e and not e.startswith("dep:"):
                seen.add(e)
            elif "/" not in e and not e.startswith("dep:"):
                todo.append(e)
    return seen


def _manifest_features(repo: Path, manifest: str) -> Manifest | None:
    """The package manifest whose features a call names (its implicit optional-dependency
    features are in ``all_features``); None for a virtual manifest, or one outside the
    repository (an absolute path, or one above it). Read through ``manifests.read``,
    cached on the file's size and mtime."""
    if not manifest or manifest.startswith(("/", "..")):
        return None
    try:
        repofs.resolve(manifest, inside=repo)  # a symlinked manifest that leads outside is not read
        info = manifests.read(repo / manifest)
    except (manifests.ManifestError, RefusedFile):
        return None
    if info.name is None:
        return None
    return info

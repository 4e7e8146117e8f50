"""The feature sets a cargo command compiles, normalised for comparison.

A set is the sorted ``--features`` plus ``--no-default-features`` and
``--all-features``. ``cargo hack --each-feature`` / ``--feature-powerset``
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
import tomllib
from dataclasses import dataclass
from pathlib import Path

from linkgate.cargo.cargoargs import CargoCall

POWERSET_LIMIT = 8


@dataclass(frozen=True, order=True)
class FeatureSet:
    features: tuple[str, ...]
    no_default: bool = False
    all: bool = False
    symbolic: str | None = None
    # A directory the repository does not hold (a project CI clones, then builds):
    # its features are another package's, never to be mixed with this repository's.
    scope: str = ""

    @property
    def label(self) -> str:
        return f"{self._base} in {self.scope}/ (not in the repository)" if self.scope else self._base

    @property
    def _base(self) -> str:
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


def feature_sets(repo: Path, cwd: str, call: CargoCall) -> tuple[FeatureSet, ...]:
    manifest = _manifest_features(repo, posixpath.normpath(call.manifest_path or posixpath.join(cwd, "Cargo.toml")))
    # With an empty `default`, --no-default-features changes nothing: one set, not two.
    trivial_default = manifest is not None and not manifest[1]

    def make(features: tuple[str, ...], no_default: bool) -> FeatureSet:
        return FeatureSet(features, no_default and not trivial_default, call.all_features)

    if not call.hack:
        return (make(call.features, call.no_default_features),)
    names = manifest[0] if manifest is not None else None
    if names is None or (call.hack == "feature-powerset" and len(names) > POWERSET_LIMIT):
        return (FeatureSet((), symbolic=f"{call.hack} (features unknown)"),)
    sets = [make((), False), make((), True)]
    if call.hack == "each-feature":
        sets += [make((n,), True) for n in names]
    else:
        for size in range(1, len(names) + 1):
            sets += [make(c, True) for c in itertools.combinations(names, size)]
    return tuple(dict.fromkeys(sets))


@functools.lru_cache(maxsize=256)
def _manifest_features(repo: Path, manifest: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(feature names but default, members of default) of a package manifest."""
    try:
        data = tomllib.loads((repo / manifest).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if "package" not in data:
        return None
    features = data.get("features")
    if not isinstance(features, dict):
        return (), ()
    default = features.get("default", [])
    names = tuple(sorted(name for name in features if name != "default"))
    return names, tuple(default) if isinstance(default, list) else ()

"""Path dependencies' feature sets, checked against cargo's feature resolver (`cargo tree`).

`cargo metadata`'s resolve.nodes[].features comes from the dependency resolver, which
activates an optional dependency a weak `dep?/feat` names; `cargo tree` prints what the
feature resolver builds, so it is the oracle (it agrees with metadata everywhere else)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from linkgate.cargo import manifests
from linkgate.cargo.cargoargs import parse
from linkgate.cargo.features import _enables, dependency_sets, per_package


def crate(root: Path, rel: str, body: str) -> None:
    (root / rel / "src").mkdir(parents=True, exist_ok=True)
    (root / rel / "src" / "lib.rs").write_text("")
    name = rel.rsplit("/", 1)[-1]
    (root / rel / "Cargo.toml").write_text(f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n{body}')


@pytest.fixture
def graph(tmp_path: Path) -> Path:
    # The libraries live outside app's directory, so they are not workspace members:
    # cargo metadata requests no features of its own for them.
    crate(tmp_path, "libs/lib1", '[features]\ndefault = ["a"]\na = []\nb = []\n')
    crate(tmp_path, "libs/lib4", '[features]\ndefault = []\nq = []\nr = []\n')
    crate(tmp_path, "libs/lib3", '[features]\nz = []\nu = []\n')
    crate(tmp_path, "libs/lib2", '[dependencies]\nlib4 = { path = "../lib4" }\n'
          '[features]\ndefault = ["d"]\nd = []\nc = ["lib4/q"]\n')
    crate(tmp_path, "libs/lib5", '[features]\ndefault = ["e"]\ne = []\n')
    crate(tmp_path, "app", '[dependencies]\nlib1 = { path = "../libs/lib1" }\n'
          'lib2 = { path = "../libs/lib2", default-features = false, features = ["c"] }\n'
          'lib3 = { path = "../libs/lib3", optional = true }\n'
          'lib4 = { path = "../libs/lib4", features = ["r"] }\n'
          '[dev-dependencies]\nlib5 = { path = "../libs/lib5", default-features = false }\n'
          '[features]\ndefault = []\nx = ["lib1/b"]\ny = ["dep:lib3", "lib3/u"]\nw = ["lib3?/z"]\n')
    return tmp_path


def oracle(app: Path, flags: list[str]) -> dict[str, set[str]]:
    out = subprocess.run(["cargo", "tree", "--offline", "--prefix", "none", "--format", "{p}|{f}",
                          "-e", "normal,dev", *flags],
                         cwd=app, check=True, capture_output=True, text=True).stdout
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        package, _, feats = line.partition("|")
        name = package.split()[0]
        if name != "app":
            found[name] = {f for f in feats.strip().split(",") if f}
    return found


def metadata(app: Path, flags: list[str]) -> dict[str, set[str]]:
    out = subprocess.run(["cargo", "metadata", "--format-version", "1", "--offline", *flags],
                         cwd=app, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    names = {p["id"]: p["name"] for p in data["packages"]}
    return {names[n["id"]]: set(n["features"]) for n in data["resolve"]["nodes"] if names[n["id"]] != "app"}


def ours(repo: Path, flags: list[str]) -> dict[str, set[str]]:
    app = manifests.read(repo / "app" / "Cargo.toml")
    call = parse(["cargo", "test", *flags])
    assert call is not None
    own = per_package(repo, "app", call, [app])
    assert own is not None
    out: dict[str, set[str]] = {}
    for fs in dependency_sets([(app, own[0])], dev=True):
        m = manifests.read(repo / "libs" / fs.packages[0] / "Cargo.toml")
        on = _enables(m, set(fs.features), not fs.no_default)
        table = dict(m.full_feature_table)
        out[fs.packages[0]] = {f for f in on if f in table}
    return out


@pytest.mark.parametrize("flags", [[], ["--features", "x"], ["--features", "y"], ["--features", "w"],
                                   ["--features", "w,y"], ["--all-features"], ["--no-default-features"]])
def test_dependency_sets_match_cargo_metadata(graph: Path, flags: list[str]) -> None:
    assert ours(graph, flags) == oracle(graph / "app", flags)


def test_metadata_differs_only_for_a_weak_dependency_feature(graph: Path) -> None:
    # --features w names `lib3?/z` alone: cargo builds no lib3, metadata's resolve lists it.
    assert "lib3" not in ours(graph, ["--features", "w"]) and "lib3" in metadata(graph / "app", ["--features", "w"])
    assert ours(graph, ["--features", "x"]) == metadata(graph / "app", ["--features", "x"])

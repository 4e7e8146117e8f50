"""Which target `init` links for a package's link recipe, from cargo metadata's shape."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from linkgate.cargo import targets


def pkg(root: Path, name: str, tgts: list[tuple[str, str, int]], deps: list[tuple[str, str | None]] = (),
        features: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A package in `cargo metadata` form; each target is (kind, name, source size)."""
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for kind, tname, size in tgts:
        src = d / f"{kind}-{tname}.rs"
        src.write_text("x" * size)
        t: dict[str, Any] = {"kind": [kind], "crate_types": ["lib" if kind == "lib" else "bin"], "name": tname,
                             "src_path": str(src), "test": True}
        if features and tname in features:
            t["required-features"] = features[tname]
        out.append(t)
    return {"id": f"path+file://{d}#{name}@0.1.0", "name": name, "manifest_path": str(d / "Cargo.toml"),
            "targets": out,
            "dependencies": [{"name": n, "path": str(root / n), "kind": k} for n, k in deps]}


def ws(root: Path, *packages: dict[str, Any]) -> targets.Workspace:
    return targets.from_metadata({"workspace_root": str(root), "packages": list(packages),
                                  "workspace_members": [p["id"] for p in packages]})


def test_own_test_first_and_the_smallest(tmp_path: Path) -> None:
    w = ws(tmp_path, pkg(tmp_path, "app", [("bin", "app", 10), ("test", "big", 900), ("test", "small", 50)]))
    own, deps = targets.reach(["rustc-link-arg"], helpers=False)
    choice = targets.choose(w, "app", own, deps)
    assert choice is not None and choice.rule == "own"
    assert choice.cargo_args(name_package=False) == ["test", "--release", "--test", "small", "--no-run"]


def test_link_arg_bins_only_reaches_binaries(tmp_path: Path) -> None:
    w = ws(tmp_path, pkg(tmp_path, "app", [("bin", "srv", 500), ("test", "t", 5), ("example", "e", 1)]))
    own, _ = targets.reach(["rustc-link-arg-bins"], helpers=False)
    choice = targets.choose(w, "app", own, False)
    assert choice is not None
    assert choice.cargo_args(name_package=True) == ["build", "-p", "app", "--release", "--bin", "srv"]


def test_link_lib_travels_to_dependents_through_a_chain(tmp_path: Path) -> None:
    w = ws(tmp_path,
           pkg(tmp_path, "zsys", [("lib", "zsys", 10)]),
           pkg(tmp_path, "mid", [("lib", "mid", 10)], [("zsys", None)]),
           pkg(tmp_path, "app", [("test", "calls", 20), ("bin", "app", 5)], [("mid", None)]),
           pkg(tmp_path, "tool", [("test", "tiny", 1)], [("zsys", "build")]))  # a build-dependency links nothing
    own, deps = targets.reach(["rustc-link-lib", "rustc-link-search"], helpers=False)
    choice = targets.choose(w, "zsys", own, deps)
    assert choice is not None and choice.rule == "dependent"
    assert choice.cargo_args(name_package=True) == ["test", "-p", "app", "--release", "--test", "calls", "--no-run"]


def test_dev_dependency_reaches_tests_not_binaries(tmp_path: Path) -> None:
    w = ws(tmp_path,
           pkg(tmp_path, "zsys", [("lib", "zsys", 10)]),
           pkg(tmp_path, "app", [("bin", "app", 1)], [("zsys", "dev")]))
    own, deps = targets.reach([], helpers=True)  # cc::Build: a helper prints rustc-link-lib
    choice = targets.choose(w, "zsys", own, deps)
    assert choice is not None and choice.rule == "lib-harness"
    assert choice.cargo_args(name_package=True) == ["test", "-p", "zsys", "--release", "--lib", "--no-run"]


def test_link_arg_does_not_travel(tmp_path: Path) -> None:
    """rustc-link-arg applies to the emitting package's own targets only (FACTS.md)."""
    w = ws(tmp_path,
           pkg(tmp_path, "shim", [("lib", "shim", 10)]),
           pkg(tmp_path, "app", [("test", "calls", 1)], [("shim", None)]))
    own, deps = targets.reach(["rustc-link-arg"], helpers=False)
    assert deps is False
    choice = targets.choose(w, "shim", own, deps)
    assert choice is not None and choice.rule == "lib-harness"


def test_required_features_are_enabled(tmp_path: Path) -> None:
    w = ws(tmp_path, pkg(tmp_path, "app", [("test", "gpu", 5)], features={"gpu": ["cuda", "xla"]}))
    own, deps = targets.reach(["rustc-link-lib"], helpers=False)
    choice = targets.choose(w, "app", own, deps)
    assert choice is not None
    assert choice.cargo_args(name_package=False) == [
        "test", "--release", "--test", "gpu", "--features", "cuda,xla", "--no-run"]


def test_nothing_links_it(tmp_path: Path) -> None:
    w = ws(tmp_path, pkg(tmp_path, "stub", [("bench", "b", 1)]))
    own, deps = targets.reach(["rustc-link-lib"], helpers=False)
    assert targets.choose(w, "stub", own, deps) is None

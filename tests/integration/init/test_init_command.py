"""`linkgate init` on real workspaces, then `linkgate run` with what it wrote: real cargo, real linkers.

The demo workspace (a build.rs that archives C with `cc`/`ar` and names the
archives with rustc-link-arg) and the cc-style -sys fixture (tests/fixtures/ccsys:
zsys compiles vendored C and prints rustc-link-lib; app's test links it).
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from lgtest import git_repo, sha

from linkgate.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"


def workspace(tmp_path: Path, source: Path) -> Path:
    root = tmp_path / source.name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("target", ".linkgate", "linkgate.toml"))
    (root / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(root)
    return root


def init(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.chdir(root)
    return main(["init", *args])


def run_json(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    monkeypatch.chdir(root)
    capsys.readouterr()  # what init printed
    rc = main(["run", "-q", "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def every_key_commented(text: str) -> None:
    """Each key of a gate has its own comment line right above it."""
    lines = text.splitlines()
    keys = [i for i, ln in enumerate(lines) if re.match(r"^[a-z-]+ = ", ln)]
    assert keys
    for i in keys:
        assert lines[i - 1].startswith("#"), f"no comment above {lines[i]!r}"


def test_demo_init_then_run_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, DEMO)
    assert init(root, monkeypatch) == 0
    assert "next: linkgate run" in capsys.readouterr().out
    text = (root / "linkgate.toml").read_text()
    every_key_commented(text)
    (gate,) = tomllib.loads(text)["gate"]
    assert gate["name"] == "nativelink"
    assert gate["cargo"] == ["test", "--release", "--test", "link_smoke", "--no-run"]
    assert gate["linkers"] == ["default", "bfd"]
    assert gate["why"].startswith("link_smoke is the smallest integration test of package nativelink")
    assert "build.rs" in gate["why"]
    # Manifests, lockfile (cargo metadata wrote it), this file, the build script and its C sources.
    assert set(gate["paths"]) == {"build.rs", "native/**", "Cargo.toml", "Cargo.lock", "linkgate.toml"}

    rc, doc = run_json(root, monkeypatch, capsys)
    assert rc == 0
    assert [(r["linker"], r["verdict"]) for r in doc["results"]] == [("default", "linked"), ("bfd", "linked")]
    assert all(any(a["target"] == "link_smoke" for a in r["linked"]) for r in doc["results"])


def test_ccsys_init_links_the_dependents_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, FIXTURES / "ccsys")
    assert init(root, monkeypatch) == 0
    text = (root / "linkgate.toml").read_text()
    every_key_commented(text)
    (gate,) = tomllib.loads(text)["gate"]
    # zsys has only a library; rustc-link-lib travels in its rlib to app, whose test calls the C code.
    assert gate["name"] == "zsys"
    assert gate["cargo"] == ["test", "-p", "app", "--release", "--test", "calls", "--no-run"]
    assert "(app) that links zsys" in gate["why"]
    assert "rustc-link-lib=static=zlite" in gate["why"]
    assert {"zsys/build.rs", "zsys/vendor/zlite/**", "zsys/Cargo.toml", "app/Cargo.toml",
            "Cargo.toml", "linkgate.toml"} <= set(gate["paths"])

    rc, doc = run_json(root, monkeypatch, capsys)
    assert rc == 0
    assert {r["verdict"] for r in doc["results"]} == {"linked"}
    assert {a["target"] for r in doc["results"] for a in r["linked"]} == {"calls"}


def test_refuses_to_overwrite_unless_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, DEMO)
    mine = '[[gate]]\nname = "mine"\ncargo = ["build"]\n'
    (root / "linkgate.toml").write_text(mine)
    before = sha(root / "linkgate.toml")
    assert init(root, monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.count("linkgate: error:") == 1
    assert "already holds a linkgate configuration" in err and "--force" in err
    assert sha(root / "linkgate.toml") == before
    assert not [p for p in root.iterdir() if p.name.startswith(".linkgate-init") or p.name.startswith(".linkgate.toml")]

    assert init(root, monkeypatch, "--force") == 0
    assert tomllib.loads((root / "linkgate.toml").read_text())["gate"][0]["name"] == "nativelink"


def test_refuses_a_configuration_in_cargo_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, DEMO)
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text() + '\n[workspace.metadata.linkgate]\ngate = []\n')
    assert init(root, monkeypatch) == 2
    assert "Cargo.toml already holds a linkgate configuration" in capsys.readouterr().err
    assert not (root / "linkgate.toml").exists()


def test_nothing_links_natively(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "plain"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "plain"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "src" / "main.rs").write_text("fn main() {}\n")
    # A build script that only sets a cfg links nothing either.
    (root / "build.rs").write_text('fn main() { println!("cargo:rustc-cfg=plain"); }\n')
    git_repo(root)
    assert init(root, monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.count("linkgate: error:") == 1
    assert "no link recipe of its own" in err
    # Not "nothing links natively": a registry -sys dependency may, and the hint says what to do then.
    assert "nothing links natively" not in err and "-sys" in err
    assert not (root / "linkgate.toml").exists()


def test_helper_crates_count_as_linking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """cc::Build, cmake, cxx_build and pkg-config print rustc-link-lib for the script
    (tests/fixtures/buildshapes: nothing there builds, cargo metadata runs for real)."""
    root = workspace(tmp_path, FIXTURES / "buildshapes")
    assert init(root, monkeypatch) == 0
    gates = {g["name"]: g for g in tomllib.loads((root / "linkgate.toml").read_text())["gate"]}
    assert set(gates) == {"ccbuild", "cmakebuild", "cxxbridge", "globbed", "pkgprobe", "splitscript"}
    # Library-only packages with no dependent: the library's unit-test harness links the recipe.
    assert gates["ccbuild"]["cargo"] == ["test", "-p", "ccbuild", "--release", "--lib", "--no-run"]
    assert "cc::Build::compile" in gates["ccbuild"]["why"]
    assert "cmake" in gates["cmakebuild"]["why"]
    assert "ccbuild/native/**" in gates["ccbuild"]["paths"] or any(
        p.startswith("ccbuild/native/") for p in gates["ccbuild"]["paths"])

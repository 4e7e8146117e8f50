"""The audit without a registry: `cargo metadata --no-deps`, or no cargo at all (tomllib)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "runtime"


def audit(repo: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = repo.parent / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    return rc, json.loads(out.read_text())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURE, dest)
    return dest


def surface(doc: dict) -> list[tuple[str, str, list[str]]]:  # type: ignore[type-arg]
    return [(f["rule"], f["subject"], f["suggest"]) for f in doc["findings"] if f["rule"].startswith("filter-")]


def test_without_cargo_the_manifests_are_read_with_tomllib(repo: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("compares against cargo's answer")
    _, with_cargo = audit(repo)
    bare = tmp_path / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))  # no cargo, no git: the tree on disk is what is matched
    rc, doc = audit(repo)
    assert rc == 1
    assert surface(doc) == surface(with_cargo)
    assert surface(doc)[0] == ("filter-misses-surface", "link: runtime-core", ["crates/core/**", "mlx/**", "patches/**"])
    assert doc["notes"] == ["cargo is not installed: read the workspace manifests in . (the repository root) with tomllib"]


def test_with_cargo_offline_the_fallback_is_no_deps_and_said_once(repo: Path) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    wf = repo / ".github/workflows/ci.yml"
    # A second link job behind the same filter, in another directory of the same workspace.
    wf.write_text(wf.read_text() + (
        "  link2:\n    needs: changes\n    if: needs.changes.outputs.link == 'true'\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: cargo test --no-run\n        working-directory: crates/core\n"
    ))
    _, doc = audit(repo)
    assert len(doc["notes"]) == 1 and "--no-deps" in doc["notes"][0]
    assert [s for _, s, _ in surface(doc)] == ["link: runtime-core", "link: manifests"]


def test_unreadable_manifest_names_its_directory(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".github/workflows").mkdir(parents=True)
    (repo / "native").mkdir()
    (repo / "native/Cargo.toml").write_text("[package\nname = 'x'\n")
    (repo / ".github/workflows/ci.yml").write_text(
        "on: pull_request\njobs:\n  changes:\n    runs-on: ubuntu-latest\n"
        "    outputs:\n      n: ${{ steps.f.outputs.n }}\n    steps:\n"
        "      - uses: dorny/paths-filter@v3\n        id: f\n        with:\n          filters: |\n            n:\n"
        "              - 'native/src/**'\n"
        "  link:\n    needs: changes\n    if: needs.changes.outputs.n == 'true'\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: cargo test --no-run\n        working-directory: native\n"
    )
    _, doc = audit(repo)
    [note] = [f for f in doc["findings"] if f["rule"] == "unresolved"]
    assert note["message"].startswith("cannot read the workspace in native: native/Cargo.toml is not valid TOML")
    assert note["message"].endswith("filter n was not checked against the causal surface")
    assert os.sep + "tmp" not in note["message"].split("(cargo metadata")[0]


@pytest.mark.parametrize("with_cargo", [True, False])
def test_path_dependency_outside_the_members_is_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         with_cargo: bool) -> None:
    """A vendored -sys crate reached only as a path dependency of a member, behind a registry
    dependency that cannot resolve: its build script is still on the surface."""
    if with_cargo and shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    repo = tmp_path / "repo"
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["app"]\n',
        "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
                          'zsys = { path = "../vendor/zsys" }\nhalf = "2"\n',
        "app/src/main.rs": "fn main() {}\n",
        "vendor/zsys/Cargo.toml": '[package]\nname = "zsys"\nversion = "0.1.0"\nedition = "2021"\nlinks = "z"\n',
        "vendor/zsys/build.rs": 'fn main() {\n    println!("cargo:rerun-if-changed=src/zlib.c");\n'
                                '    println!("cargo:rustc-link-lib=static=z");\n}\n',
        "vendor/zsys/src/lib.rs": "",
        "vendor/zsys/src/zlib.c": "int z;\n",
        ".github/workflows/ci.yml": (
            "on: pull_request\njobs:\n  changes:\n    runs-on: ubuntu-latest\n"
            "    outputs:\n      app: ${{ steps.f.outputs.app }}\n    steps:\n"
            "      - uses: dorny/paths-filter@v3\n        id: f\n        with:\n          filters: |\n            app:\n"
            "              - 'app/**'\n"
            "  link:\n    needs: changes\n    if: needs.changes.outputs.app == 'true'\n    runs-on: ubuntu-latest\n"
            "    steps:\n      - run: cargo build -p app\n"
        ),
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    if not with_cargo:
        (tmp_path / "bin").mkdir()
        monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    _, doc = audit(repo)
    [f] = [f for f in doc["findings"] if f["rule"] == "filter-misses-surface"]
    assert (f["subject"], f["paths"], f["suggest"]) == (
        "app: zsys", ["vendor/zsys/build.rs", "vendor/zsys/src/zlib.c"], ["vendor/zsys/**"]
    )
    assert len(doc["notes"]) == 1


@pytest.mark.parametrize("with_cargo", [True, False])
def test_optional_path_dependencies_count_only_when_a_feature_turns_them_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_cargo: bool) -> None:
    """Without a registry the fallback follows an optional dependency only when the job's
    features activate it: `dep:gpu`, `metal/full` (x/feat), `vk` (implicit feature); `trace?/on`
    (weak) and a job without those features build none of them."""
    if with_cargo and shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    repo = tmp_path / "repo"

    def sys_crate(name: str, extra: str = "") -> dict[str, str]:
        return {
            f"vendor/{name}/Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n{extra}',
            f"vendor/{name}/build.rs": f'fn main() {{\n    println!("cargo:rustc-link-lib=static={name}");\n}}\n',
            f"vendor/{name}/src/lib.rs": "",
        }

    jobs = {"plain": "cargo build", "cuda": "cargo build --features cuda", "metal": "cargo build -F metal-full",
            "vk": "cargo build --features vk", "traced": "cargo build --features traced"}
    files = {
        "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
                      'half = "2"\ngpu = { path = "vendor/gpu", optional = true }\n'
                      'metal = { path = "vendor/metal", optional = true }\n'
                      'vk = { path = "vendor/vk", optional = true }\n'
                      'trace = { path = "vendor/trace", optional = true }\n\n'
                      '[features]\ncuda = ["dep:gpu"]\nmetal-full = ["metal/full"]\ntraced = ["trace?/on"]\n',
        "src/main.rs": "fn main() {}\n",
        **sys_crate("gpu"), **sys_crate("metal", "\n[features]\nfull = []\n"), **sys_crate("vk"),
        **sys_crate("trace", "\n[features]\non = []\n"),
        ".github/workflows/ci.yml": (
            "on: pull_request\njobs:\n  changes:\n    runs-on: ubuntu-latest\n"
            "    outputs:\n      app: ${{ steps.f.outputs.app }}\n    steps:\n"
            "      - uses: dorny/paths-filter@v3\n        id: f\n        with:\n          filters: |\n            app:\n"
            "              - 'src/**'\n              - 'Cargo.*'\n"
            + "".join(f"  {job}:\n    needs: changes\n    if: needs.changes.outputs.app == 'true'\n"
                      f"    runs-on: ubuntu-latest\n    steps:\n      - run: {command}\n"
                      for job, command in jobs.items())
        ),
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    if not with_cargo:
        (tmp_path / "bin").mkdir()
        monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    _, doc = audit(repo)
    found = sorted((f["subject"], f["message"].split("gates the link in ")[1])
                   for f in doc["findings"] if f["rule"] == "filter-misses-surface")
    assert found == [
        ("app: gpu", "ci/cuda (.github/workflows/ci.yml:26)"),
        ("app: metal", "ci/metal (.github/workflows/ci.yml:32)"),
        ("app: vk", "ci/vk (.github/workflows/ci.yml:38)"),
    ]

"""Feature names in the audit follow Cargo.toml exactly: optional dependencies' implicit features.

A real workspace in tmp_path: `zz-sys`, a cc-style -sys crate (its build script
compiles C with cc and ar), with a `[features]` table, an optional path
dependency `zng-sys` (an implicit feature, spelled with its hyphen), an optional
renamed dependency named only as `dep:hidden` (no implicit feature) and an
optional build-dependency `tool`. cargo metadata is the oracle for the feature names.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.audit.run import run_audit
from linkgate.cargo import manifests

ZZ_SYS = """\
[package]
name = "zz-sys"
version = "0.1.0"
edition = "2021"
links = "zz"

[dependencies]
zng-sys = { path = "../zng-sys", optional = true }
hidden = { path = "../other", package = "other", optional = true }

[build-dependencies]
tool = { path = "../tool", optional = true }

[features]
gpu = []
secret = ["dep:hidden"]
"""
BUILD_RS = """\
use std::process::Command;
fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    assert!(Command::new("cc").args(["-c", "-fPIC", "native/zz.c", "-o"]).arg(format!("{out}/zz.o")).status().unwrap().success());
    assert!(Command::new("ar").arg("crs").arg(format!("{out}/libzz.a")).arg(format!("{out}/zz.o")).status().unwrap().success());
    println!("cargo:rerun-if-changed=native");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static=zz");
}
"""
PR = "on: pull_request\njobs:\n"


def job(name: str, run: str, directory: str | None = None) -> str:
    wd = f"        working-directory: {directory}\n" if directory else ""
    return f"  {name}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {run}\n{wd}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for d in ("zz-sys/src", "zz-sys/native", "zz-sys/tests", "zng-sys/src", "other/src", "tool/src"):
        (root / d).mkdir(parents=True)
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["zz-sys", "zng-sys", "other", "tool"]\nresolver = "2"\n')
    (root / "zz-sys/Cargo.toml").write_text(ZZ_SYS)
    (root / "zz-sys/build.rs").write_text(BUILD_RS)
    (root / "zz-sys/native/zz.c").write_text("int zz_one(void) { return 1; }\n")
    (root / "zz-sys/src/lib.rs").write_text('extern "C" {\n    pub fn zz_one() -> i32;\n}\n')
    (root / "zz-sys/tests/one.rs").write_text("#[test]\nfn one() {\n    assert_eq!(unsafe { zz_sys::zz_one() }, 1);\n}\n")
    for name in ("zng-sys", "other", "tool"):
        (root / name / "Cargo.toml").write_text(f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n')
        (root / name / "src/lib.rs").write_text("")
    (root / ".gitignore").write_text("target/\n")
    git_repo(root)
    return root


def test_the_features_are_the_ones_cargo_knows(repo):
    meta = json.loads(subprocess.run(["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
                                     cwd=repo, check=True, capture_output=True, text=True).stdout)
    (zz,) = [p for p in meta["packages"] if p["name"] == "zz-sys"]
    info = manifests.read(repo / "zz-sys/Cargo.toml")
    assert info.all_features == tuple(sorted(k for k in zz["features"] if k != "default"))
    assert info.all_features == ("gpu", "secret", "tool", "zng-sys")
    assert dict(info.full_feature_table) == {k: tuple(v) for k, v in zz["features"].items()}
    # And cargo takes them: --all-features links with the optional dependencies on.
    done = subprocess.run(["cargo", "test", "-q", "--offline", "--all-features", "--no-run"],
                          cwd=repo / "zz-sys", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _audit(repo: Path, jobs: str) -> list[tuple[str, str]]:
    (repo / ".github/workflows").mkdir(parents=True, exist_ok=True)
    (repo / ".github/workflows/ci.yml").write_text(PR + jobs)
    return [(f.rule, f.subject) for f in run_audit(repo).findings if f.rule == "never-linked"]


def test_all_features_from_the_root_and_from_the_package_directory_are_one_set(repo):
    assert _audit(repo, job("c", "cargo clippy -p zz-sys --all-features")
                  + job("t", "cargo test --all-features", "zz-sys")) == []


def test_all_features_includes_the_implicit_features_of_optional_dependencies(repo):
    # Every feature spelled out is --all-features: linked, no error.
    assert _audit(repo, job("c", "cargo check -p zz-sys --features gpu,secret,tool,zng-sys")
                  + job("t", "cargo test -p zz-sys --all-features")) == []
    # Only the [features] table is not: all features are checked and never linked.
    assert _audit(repo, job("c", "cargo check -p zz-sys --all-features")
                  + job("t", "cargo test -p zz-sys --features gpu,secret")) == [("never-linked", "all features")]


def test_cargo_hack_expands_optional_dependencies_only_when_asked(repo):
    from linkgate.audit.run import run_audit

    def sets(run: str) -> list[str]:
        (repo / ".github/workflows").mkdir(parents=True, exist_ok=True)
        (repo / ".github/workflows/ci.yml").write_text(PR + job("h", run))
        (c,) = run_audit(repo).classified
        return sorted({fs.label for fs in c.feature_sets})

    assert sets("cargo hack check -p zz-sys --each-feature") == ["default", "gpu", "secret"]
    assert sets("cargo hack check -p zz-sys --each-feature --optional-deps") == [
        "default", "gpu", "secret", "tool", "zng-sys"]
    assert sets("cargo hack check -p zz-sys --each-feature --optional-deps=zng-sys") == [
        "default", "gpu", "secret", "zng-sys"]

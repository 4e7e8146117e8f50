"""Every stanza `coverage --suggest` writes loads, its features spelled as Cargo.toml spells them.

A cc-style -sys crate in tmp_path whose build script picks its archive by
feature: an optional dependency `zng-sys` (tested as CARGO_FEATURE_ZNG_SYS),
a `[features]` entry `static-z` (as `cfg!(feature = "static-z")`), and a
CARGO_FEATURE_HIDDEN test for an optional dependency named only as
`dep:hidden`, which has no feature: cargo never takes that branch. Real cargo
(metadata, and a build per branch), cc and ar.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate import config as config_mod
from linkgate.cli import main

MANIFEST = """\
[package]
name = "zz-sys"
version = "0.1.0"
edition = "2021"
links = "zz"

[dependencies]
zng-sys = { path = "zng-sys", optional = true }
hidden = { path = "hidden", optional = true }

[features]
static-z = []
private = ["dep:hidden"]

[workspace]
members = [".", "zng-sys", "hidden"]
"""
BUILD_RS = """\
use std::env;
use std::process::Command;

fn archive(src: &str, lib: &str) {
    let out = env::var("OUT_DIR").unwrap();
    let obj = format!("{out}/{lib}.o");
    assert!(Command::new("cc").args(["-c", "-fPIC", src, "-o", &obj]).status().unwrap().success());
    assert!(Command::new("ar").arg("crs").arg(format!("{out}/lib{lib}.a")).arg(&obj).status().unwrap().success());
    println!("cargo:rustc-link-search=native={out}");
}

fn main() {
    if env::var_os("CARGO_FEATURE_ZNG_SYS").is_some() {
        archive("native/ng.c", "zzng");
        println!("cargo:rustc-link-lib=static=zzng");
    } else if cfg!(feature = "static-z") {
        archive("native/z.c", "zzstatic");
        println!("cargo:rustc-link-lib=static=zzstatic");
    } else if env::var("CARGO_FEATURE_HIDDEN").is_ok() {
        println!("cargo:rustc-link-lib=static=zzhidden");
    } else {
        archive("native/plain.c", "zzplain");
        println!("cargo:rustc-link-lib=static=zzplain");
    }
}
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "zz-sys"
    for d in ("src", "tests", "native", "zng-sys/src", "hidden/src"):
        (root / d).mkdir(parents=True)
    (root / "Cargo.toml").write_text(MANIFEST)
    (root / "build.rs").write_text(BUILD_RS)
    for stem in ("ng", "z", "plain"):
        (root / f"native/{stem}.c").write_text(f"int zz_flavour(void) {{ return {len(stem)}; }}\n")
    (root / "src/lib.rs").write_text('extern "C" {\n    pub fn zz_flavour() -> i32;\n}\n')
    (root / "tests/link.rs").write_text("#[test]\nfn links() {\n    assert!(unsafe { zz_sys::zz_flavour() } > 0);\n}\n")
    for name in ("zng-sys", "hidden"):
        (root / name / "Cargo.toml").write_text(f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n')
        (root / name / "src/lib.rs").write_text("")
    (root / "linkgate.toml").write_text('[[gate]]\nname = "zz"\ncargo = ["test", "--no-run"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def test_every_suggestion_loads_with_the_features_cargo_knows(repo, capsys):
    assert main(["coverage", "--suggest", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    got = {s["name"]: (s["when-features"], s["unless-features"]) for s in doc["suggestions"]}
    assert got["zng-sys"] == (["zng-sys"], [])
    assert got["static-z"] == (["static-z"], ["zng-sys"])
    unusable = {s["name"]: s.get("unusable") for s in doc["suggestions"]}
    assert (unusable["zng-sys"], unusable["static-z"]) == (None, None)
    (hidden,) = [v for k, v in unusable.items() if k.startswith("hidden")]
    assert "has no feature 'hidden'" in (hidden or "")
    # The names are cargo's own: each one it accepts, and it links that branch.
    for feature in ("zng-sys", "static-z"):
        done = subprocess.run(["cargo", "test", "-q", "--offline", "--no-run", "--features", feature],
                              cwd=repo, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    refused = subprocess.run(["cargo", "build", "-q", "--offline", "--features", "hidden"],
                             cwd=repo, capture_output=True, text=True)
    assert refused.returncode != 0 and "hidden" in refused.stderr

    # Every stanza as written loads.
    assert main(["coverage", "--suggest"]) == 0
    stanzas = capsys.readouterr().out
    assert '# not a recipe: package zz-sys has no feature' in stanzas
    config = repo / "linkgate.toml"
    config.write_text(config.read_text() + "\n" + stanzas)
    cfg = config_mod.load(config)
    assert {r.name: r.when_features for r in cfg.recipes} == {
        "zng-sys": ("zng-sys",), "static-z": ("static-z",),
        **{r.name: r.when_features for r in cfg.recipes if r.name.startswith("without")}}
    assert "hidden" not in {f for r in cfg.recipes for f in r.when_features}


def test_a_recipe_naming_an_optional_dependency_named_as_dep_is_refused(repo):
    config = repo / "linkgate.toml"
    config.write_text(config.read_text() + '\n[[recipe]]\nname = "h"\nwhen-features = ["hidden"]\n'
                      'file = "build.rs"\nline = 20\n')
    with pytest.raises(config_mod.ConfigError) as err:
        config_mod.load(config)
    assert "has no feature 'hidden'" in str(err.value.render())

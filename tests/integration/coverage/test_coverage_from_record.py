"""Coverage says what the build scripts really printed, not what the gate's conditions predict.

A package `calc` has three link branches: feature `fast-math` (-lm), an `else if`
that compares $CALC_MODE's value (-ldl), and a plain `else` (-lpthread).
`app` forwards `fast-math` under another name (`turbo = ["calc/fast-math"]`). Real
cargo and SQLite; system libraries only, so every branch links.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

BUILD_RS = """\
fn main() {
    println!("cargo:rerun-if-env-changed=CALC_MODE");
    if std::env::var("CARGO_FEATURE_FAST_MATH").is_ok() {
        println!("cargo:rustc-link-lib=dylib=m");
    } else if std::env::var("CALC_MODE").map(|v| v == "dl").unwrap_or(false) {
        println!("cargo:rustc-link-lib=dylib=dl");
    } else {
        println!("cargo:rustc-link-lib=dylib=pthread");
    }
}
"""

CONFIG = """\
[[gate]]
name = "turbo"
cargo = ["build", "-p", "app", "--features", "turbo"]

[[gate]]
name = "mode"
cargo = ["build", "-p", "app"]
env = { CALC_MODE = "other" }

[[recipe]]
name = "fast"
when-features = ["fast-math"]
file = "calc/build.rs"
line = 3

[[recipe]]
name = "dl"
when-env = ["CALC_MODE"]
file = "calc/build.rs"
line = 5

[[recipe]]
name = "plain"
unless-env = ["CALC_MODE"]
file = "calc/build.rs"
line = 7
"""


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ws"
    (root / "calc/src").mkdir(parents=True)
    (root / "app/src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["calc", "app"]\nresolver = "2"\n')
    (root / "calc/Cargo.toml").write_text(
        '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\nfast-math = []\n')
    (root / "calc/build.rs").write_text(BUILD_RS)
    (root / "calc/src/lib.rs").write_text("pub fn one() -> i32 { 1 }\n")
    (root / "app/Cargo.toml").write_text(
        '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\ncalc = { path = "../calc" }\n\n[features]\nturbo = ["calc/fast-math"]\n')
    (root / "app/src/main.rs").write_text("fn main() { println!(\"{}\", calc::one()); }\n")
    (root / "linkgate.toml").write_text(CONFIG)
    (root / ".gitignore").write_text("target/\nCargo.lock\n.linkgate/\n")
    git_repo(root)
    monkeypatch.delenv("CALC_MODE", raising=False)
    monkeypatch.chdir(root)
    return root


def test_coverage_follows_what_the_scripts_printed(ws, capsys):
    assert main(["run", "-q", "--format", "json"]) == 0
    results = {r["gate"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    # turbo: recipe `fast` printed -lm although the gate never names feature `fast-math`.
    assert results["turbo"]["recipes"] == ["fast"]
    # mode: $CALC_MODE is set (the `dl` recipe predicts itself active), but its value
    # is not "dl": the script printed the `else` branch's -lpthread.
    assert results["mode"]["recipes"] == ["plain"]
    assert main(["coverage", "--format", "json"]) in (0, 1)
    status = {r["name"]: r["status"] for r in json.loads(capsys.readouterr().out)["recipes"]}
    assert status == {"fast": "covered", "dl": "never-linked", "plain": "covered"}


def test_suggest_spells_features_as_cargo_toml_does(ws, capsys):
    assert main(["coverage", "--suggest", "--format", "json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    features = [s["when-features"] for s in doc["suggestions"] if s["when-features"]]
    # CARGO_FEATURE_FAST_MATH in the script; `fast-math` in Cargo.toml, which is what a recipe must say.
    assert features == [["fast-math"]], doc["suggestions"]


def test_unless_features_reads_an_else_after_a_feature_branch(ws, capsys):
    """The `else` arm after `if CARGO_FEATURE_FAST_MATH`: --suggest writes unless-features,
    and a gate that enables the feature does not predict it."""
    assert main(["coverage", "--suggest", "--format", "json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    plain = next(s for s in doc["suggestions"] if s["line"] == 7)
    assert plain["unless-features"] == ["fast-math"]
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('unless-env = ["CALC_MODE"]', 'unless-features = ["fast-math"]')
                   .replace('"--features", "turbo"', '"--features", "calc/fast-math"'))
    assert main(["coverage", "--format", "json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    plain = next(r for r in doc["recipes"] if r["name"] == "plain")
    # `mode` (no feature) can select it; `turbo` enables fast-math, so it predicts the other arm.
    assert plain["selectable_by"] == ["mode"]


def test_a_feature_the_package_lacks_is_a_config_error(ws, capsys):
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('when-features = ["fast-math"]', 'when-features = ["fast_math"]'))
    assert main(["coverage"]) == 2
    err = capsys.readouterr().err
    assert "linkgate.toml:" in err and "recipe.fast.when-features" in err
    assert "package calc (calc/build.rs) has no feature 'fast_math'" in err
    assert "Cargo.toml spells it 'fast-math'" in err

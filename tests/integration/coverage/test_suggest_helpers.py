"""`coverage --suggest` on a build script that picks its link line through helper crates
(bzip2-sys's shape: pkg-config's library unless feature `static` or a Windows target, else
cc's static archive), with no literal `cargo:rustc-link-*` println: it says what it read
and what it cannot read, and how to write the recipe by hand. Nothing is built: --suggest
reads `cargo metadata` and the script's text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.cli import main

BUILD_RS = """\
use std::env;

fn main() {
    let mut cfg = cc::Build::new();
    let target = env::var("TARGET").unwrap();
    if target.contains("windows") {
        cfg.define("_WIN32", None);
    } else if !cfg!(feature = "static") {
        if pkg_config::Config::new().probe("bzip2").is_ok() {
            return;
        }
    }
    cfg.file("bzip2-1.0.8/bzlib.c").compile("libbz2.a");
    println!("cargo:root={}", env::var("OUT_DIR").unwrap());
}
"""


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bz-sys").mkdir()
    (tmp_path / "bz-sys" / "src").mkdir()
    (tmp_path / "bz-sys" / "src" / "lib.rs").write_text("")
    (tmp_path / "bz-sys" / "build.rs").write_text(BUILD_RS)
    # cc and pkg-config are not dependencies: the script is read, never compiled.
    (tmp_path / "bz-sys" / "Cargo.toml").write_text(
        '[package]\nname = "bz-sys"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n\n'
        "[features]\nstatic = []\n")
    (tmp_path / "linkgate.toml").write_text(
        '[[gate]]\nname = "bz-link"\ncargo = ["test", "--features", "static", "--no-run"]\n'
        'working-directory = "bz-sys"\n')
    (tmp_path / ".git").mkdir()  # the repository root, for the configuration's paths
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_literal_directive_is_said_as_such_with_the_helpers_it_cannot_read(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coverage", "--suggest"]) == 0
    out = capsys.readouterr().out
    assert "selects link directives" not in out
    assert ("no recipe proposed: found no literal `cargo:rustc-link-*` println under an env, target or feature "
            "condition in the build scripts the gates build (bz-sys/build.rs)") in " ".join(out.split())
    assert ("link directives printed by helper crates (cc, cmake, pkg-config, vcpkg) are not read; "
            "bz-sys/build.rs calls cc, pkg-config: write those recipes by hand as [[recipe]] stanzas") \
        in " ".join(out.split())
    assert "as in docs/commands/coverage.md" in " ".join(out.split())
    # The page the message sends the reader to exists and shows a [[recipe]] stanza.
    page = Path(__file__).resolve().parents[3] / "docs" / "commands" / "coverage.md"
    assert "[[recipe]]" in page.read_text()


def test_markdown_and_json_say_it_too(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--suggest", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("no recipe proposed: found no literal `cargo:rustc-link-*` println")
    assert "```toml" not in md
    assert main(["coverage", "--suggest", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["suggestions"] == []
    assert [(s["file"], s["helpers"]) for s in doc["scripts"]] == [("bz-sys/build.rs", ["cc", "pkg-config"])]

"""An undefined symbol called from Rust is annotated at the calling line in every profile.

A release, LTO or codegen-units = 1 link carries no line table, so the linker names
only the object and function; the annotation must still point at src/main.rs:8, not at
the build script's unrelated `-ltop` directive (real cargo, GNU ld and rust-lld).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

BUILD_RS = """use std::process::Command;
fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    let ok = Command::new("cc").args(["-c", "-fPIC", "native/top.c", "-o"]).arg(format!("{out}/top.o")).status();
    assert!(ok.unwrap().success());
    assert!(Command::new("ar").arg("crs").arg(format!("{out}/libtop.a")).arg(format!("{out}/top.o")).status().unwrap().success());
    println!("cargo:rustc-link-lib=static=top");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rerun-if-changed=native");
}
"""
MAIN_RS = """extern "C" {
    fn top_fn() -> i32;
    fn gone_fn() -> i32;
}

fn main() {
    let a = unsafe { top_fn() };
    let b = unsafe { gone_fn() };
    println!("{}", a + b);
}
"""
PROFILES = {
    "debug": ("[]", ""),
    "release": ('["--release"]', ""),
    "release-lto": ('["--release"]', "[profile.release]\nlto = true\n"),
    "release-cgu1": ('["--release"]', "[profile.release]\ncodegen-units = 1\n"),
}


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_annotation_at_the_calling_rust_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], profile: str) -> None:
    flags, manifest_extra = PROFILES[profile]
    (tmp_path / "src").mkdir()
    (tmp_path / "native").mkdir()
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "natapp"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                         + manifest_extra)
    (tmp_path / "build.rs").write_text(BUILD_RS)
    (tmp_path / "native" / "top.c").write_text("int top_fn(void) { return 1; }\n")
    (tmp_path / "src" / "main.rs").write_text(MAIN_RS)
    (tmp_path / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    (tmp_path / "linkgate.toml").write_text(
        f'[[gate]]\nname = "rel"\ncargo = ["build", *{flags}]\nlinkers = ["bfd", "default"]\n'
        .replace("*[]", "").replace('*["--release"]', '"--release"').replace(", ]", "]"))
    git_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "-q", "-f", "github"]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 2, errors
    for line in errors:
        assert line.startswith("::error file=src/main.rs,line=8,title=linkgate undefined-symbol::"), line

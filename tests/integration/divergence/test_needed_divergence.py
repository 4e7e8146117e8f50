"""`--as-needed` decides NEEDED differently by linker: a `needed` divergence.

zref's C object defines `used` and, in its own section (-ffunction-sections),
`unused`, which calls zlib's `zlibVersion`; the build script links `dylib=z`.
rustc links with --gc-sections and --as-needed: rust-lld drops libz.so.1 (its
only reference is in a section it collected), GNU ld keeps it (measured here
with each linker). Real cargo, gcc, rust-lld, GNU ld and the system's libz.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

BUILD = r'''use std::process::Command;
fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    let obj = format!("{out}/zref.o");
    assert!(Command::new("gcc").args(["-c", "-fPIC", "-O2", "-ffunction-sections", "zref.c", "-o", &obj])
        .status().unwrap().success());
    assert!(Command::new("ar").args(["crs", &format!("{out}/libzref.a"), &obj]).status().unwrap().success());
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static=zref");
    println!("cargo:rustc-link-lib=dylib=z");
}
'''


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "zref"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "build.rs").write_text(BUILD)
    (root / "zref.c").write_text("const char *zlibVersion(void);\nint used(void) { return 42; }\n"
                                 "const char *unused(void) { return zlibVersion(); }\n")
    (root / "src" / "main.rs").write_text('extern "C" { fn used() -> i32; }\n'
                                          'fn main() { println!("{}", unsafe { used() }); }\n')
    (root / "linkgate.toml").write_text('[[gate]]\nname = "zref"\ncargo = ["build"]\nlinkers = ["default", "bfd"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def test_libz_needed_under_bfd_only_is_reported(ws, capsys):
    assert main(["run", "-q", "--no-history", "--format", "json"]) == 0
    default, bfd = json.loads(capsys.readouterr().out)["results"]
    assert default["divergence"] == []
    (d,) = [d for d in bfd["divergence"] if d["kind"] == "needed"]
    assert d["only_other"] == ["libz.so.1"] and d["only_first"] == [] and d["linkers"] == ["default", "bfd"]
    # zlibVersion is left to the loader under bfd and absent under rust-lld: a reference
    # one linker collected, not a symbol resolved two ways.
    assert not [d for d in bfd["divergence"] if d["kind"] == "dynamic-undefined"]

"""One library linked half static, half shared into one binary: a mixed-linkage warning.

`zstat` links zlib's archive (`static=z`, bundled into its rlib) for crc32,
`zdyn` links the shared libz (`dylib=z`) for zlibVersion. Real cargo, rust-lld
and the system's libz.a and libz.so.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main


def _crate(root: Path, name: str, build: str, lib: str, deps: str = "") -> None:
    (root / name / "src").mkdir(parents=True)
    (root / name / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{deps}')
    if build:
        (root / name / "build.rs").write_text(build)
    (root / name / "src" / ("main.rs" if name == "app" else "lib.rs")).write_text(lib)


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    libdir = Path(subprocess.run(["cc", "-print-file-name=libz.a"], capture_output=True, text=True,
                                 check=True).stdout.strip()).parent
    root = tmp_path / "ws"
    root.mkdir()
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["zstat", "zdyn", "app"]\nresolver = "2"\n')
    _crate(root, "zstat",
           f'fn main() {{\n    println!("cargo:rustc-link-search=native={libdir}");\n'
           '    println!("cargo:rustc-link-lib=static=z");\n}\n',
           'extern "C" { fn crc32(crc: u64, buf: *const u8, len: u32) -> u64; }\n'
           "pub fn crc(b: &[u8]) -> u64 { unsafe { crc32(0, b.as_ptr(), b.len() as u32) } }\n")
    _crate(root, "zdyn", 'fn main() {\n    println!("cargo:rustc-link-lib=dylib=z");\n}\n',
           'extern "C" { fn zlibVersion() -> *const u8; }\n'
           "pub fn version() -> usize { unsafe { zlibVersion() as usize } }\n")
    _crate(root, "app", "", 'fn main() { println!("{} {}", zstat::crc(b"x"), zdyn::version()); }\n',
           'zstat = { path = "../zstat" }\nzdyn = { path = "../zdyn" }\n')
    (root / "linkgate.toml").write_text('[[gate]]\nname = "app"\ncargo = ["build", "-p", "app"]\nlinkers = ["default", "bfd"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def test_a_library_linked_static_and_shared_is_a_warning(ws, capsys):
    assert main(["run", "-q", "--no-history", "--format", "json"]) == 0
    for res in json.loads(capsys.readouterr().out)["results"]:
        assert res["verdict"] == "linked"
        (d,) = [d for d in res["diagnostics"] if d["kind"] == "mixed-linkage"]
        assert d["level"] == "warning" and d["library"] == "z"
        assert "bundled into zstat's rlib by `static=z`" in d["message"] and "libz.so" in d["message"]
        assert any(w.startswith("mixed-linkage: libz is linked into app") for w in res["warnings"]), res["warnings"]


def test_one_kind_everywhere_is_no_warning(ws, capsys):
    build = ws / "zstat/build.rs"
    build.write_text(build.read_text().replace("static=z", "dylib=z"))
    assert main(["run", "-q", "--no-history", "--format", "json"]) == 0
    for res in json.loads(capsys.readouterr().out)["results"]:
        assert res["verdict"] == "linked" and res["diagnostics"] == [], res["diagnostics"]

"""GitHub annotations point where the fix goes: the Rust line that references an
undefined symbol (when the linker names it), the build-script line of a directive."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

MAIN = """\
extern "C" { fn missing_c_fn(x: i32) -> i32; }

fn call(x: i32) -> i32 { unsafe { missing_c_fn(x) } }

fn main() { println!("{}", call(std::env::args().count() as i32)); }
"""
BUILD = """\
fn main() {
    // The library this crate believes it links.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-lib=nosuchlib");
}
"""


def crate(root: Path, linkers: str, build: bool) -> None:
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "src" / "main.rs").write_text(MAIN if not build else "fn main() {}\n")
    if build:
        (root / "build.rs").write_text(BUILD)
    (root / "linkgate.toml").write_text(f'[[gate]]\nname = "app-link"\ncargo = ["build"]\nlinkers = {linkers}\n')
    (root / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(root)


def annotations(out: str) -> dict[str, str]:
    """linker (from the message) -> the annotation's file/line properties."""
    found = {}
    for m in re.finditer(r"^::error (?P<props>[^:]*)::app-link \[(?P<linker>\w+)\]", out, re.M):
        found[m["linker"]] = m["props"]
    return found


@pytest.fixture
def actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    root = tmp_path / "ws"
    monkeypatch.chdir(tmp_path)
    return root


def test_undefined_symbol_points_at_the_rust_line(actions: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    crate(actions, '["default", "bfd", "gold", "mold"]', build=False)
    monkeypatch.chdir(actions)
    assert main(["run", "-q", "--no-history"]) == 1
    out = capsys.readouterr().out
    found = annotations(out)
    # rust-lld, GNU ld and gold name the source line (a dev build has debug info).
    for linker in ("default", "bfd", "gold"):
        assert found[linker].startswith("file=src/main.rs,line=3"), (linker, found)
    # mold names only the codegen unit: the line is the call read from the package's sources
    # (diagnose/rustref.py: the call of missing_c_fn inside `call`, the function mold names).
    assert found["mold"].startswith("file=src/main.rs,line=3"), found
    assert "at src/main.rs:3" in out


def test_a_directive_problem_points_at_the_build_script_line(actions: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    crate(actions, '["default", "bfd"]', build=True)
    monkeypatch.chdir(actions)
    assert main(["run", "-q", "--no-history"]) == 1
    found = annotations(capsys.readouterr().out)
    assert set(found) == {"default", "bfd"}
    for props in found.values():
        assert props.startswith("file=build.rs,line=4"), found

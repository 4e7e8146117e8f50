"""`dirty` is what the build read: an untracked, ignored or modified input makes the run dirty.

A cc-style -sys crate whose build script compiles every ``native/extra/*.c``
(read_dir, as real scripts glob) with real cc and ar; one of the C files is
untracked, so a fresh clone of the commit fails with ``undefined symbol:
extra_func``. Real git, cargo, rust-lld and SQLite in tmp_path.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main
from linkgate.history.store import History

BUILD_RS = """\
use std::process::Command;

fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    RERUN
    let mut objects = Vec::new();
    let mut sources: Vec<_> = std::fs::read_dir("native/extra").unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |e| e == "c"))
        .collect();
    sources.sort();
    for src in sources {
        let obj = format!("{out}/{}.o", src.file_stem().unwrap().to_str().unwrap());
        assert!(Command::new("cc").args(["-c", "-fPIC"]).arg(&src).args(["-o", &obj]).status().unwrap().success());
        objects.push(obj);
    }
    let lib = format!("{out}/libextra.a");
    let _ = std::fs::remove_file(&lib);
    assert!(Command::new("ar").arg("crs").arg(&lib).args(&objects).status().unwrap().success());
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static=extra");
}
"""
RERUN = {
    "watches-the-directory": 'println!("cargo:rerun-if-changed=native");',
    "cc-style-blind": 'println!("cargo:rerun-if-env-changed=CC");',
    "no-rerun-lines": "",
}


def _repo(root: Path, rerun: str) -> None:
    (root / "esys/src").mkdir(parents=True)
    (root / "esys/native/extra").mkdir(parents=True)
    (root / "eapp/src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["esys", "eapp"]\nresolver = "2"\n')
    (root / "esys/Cargo.toml").write_text('[package]\nname = "esys"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "esys/build.rs").write_text(BUILD_RS.replace("RERUN", rerun))
    (root / "esys/src/lib.rs").write_text(
        'extern "C" {\n    pub fn base_func() -> i32;\n    pub fn extra_func() -> i32;\n}\n')
    (root / "esys/native/extra/base.c").write_text("int base_func(void) { return 1; }\n")
    (root / "eapp/Cargo.toml").write_text(
        '[package]\nname = "eapp"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\nesys = { path = "../esys" }\n')
    (root / "eapp/src/main.rs").write_text(
        'fn main() {\n    println!("{}", unsafe { esys::base_func() + esys::extra_func() });\n}\n')
    (root / "linkgate.toml").write_text('[[gate]]\nname = "app"\ncargo = ["build", "-p", "eapp"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n*.gen\n")
    git_repo(root)
    # Written after the commit: in the working tree, in no clone.
    (root / "esys/native/extra/extra.c").write_text("int extra_func(void) { return 2; }\n")
    (root / "esys/NOTES.md").write_text("scratch\n")
    (root / "esys/.envrc").write_text("export CC=cc\n")


def _run(capsys: pytest.CaptureFixture[str], history: Path) -> dict:
    assert main(["run", "-q", "--format", "json", "--history", str(history)]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    return res


@pytest.mark.parametrize("rerun", sorted(RERUN))
def test_an_untracked_source_the_build_script_compiles_makes_the_run_dirty(tmp_path, monkeypatch, capsys, rerun):
    root = tmp_path / "repo"
    _repo(root, RERUN[rerun])
    monkeypatch.chdir(root)
    history = tmp_path / "h.sqlite"
    res = _run(capsys, history)
    assert res["verdict"] == "linked"
    assert git(root, "status", "--porcelain", "--untracked-files=no") == ""  # no tracked file changed
    assert res["dirty"] is True, res["warnings"]
    assert {"path": "esys/native/extra/extra.c", "why": "untracked"} in res["dirty_inputs"]
    # Prose and dotfiles no build script compiles are not inputs.
    assert not [d for d in res["dirty_inputs"] if d["path"].endswith(("NOTES.md", ".envrc"))]
    assert any("esys/native/extra/extra.c (untracked)" in w for w in res["warnings"]), res["warnings"]
    with History.open(history, readonly=True) as h:
        (row,) = list(h.runs())
    assert row.dirty is True
    # What the flag warns about: a clone of the commit does not link.
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True)
    built = subprocess.run(["cargo", "build", "-q", "-p", "eapp"], cwd=clone, capture_output=True, text=True)
    assert built.returncode != 0 and "extra_func" in built.stderr
    # Committed, the same tree is clean.
    git(root, "add", "-A")
    git(root, "commit", "-qm", "extra")
    res = _run(capsys, history)
    assert (res["verdict"], res["dirty"], res["dirty_inputs"]) == ("linked", False, [])


def test_an_ignored_file_rustc_reads_and_an_untracked_module_are_named(tmp_path, monkeypatch, capsys):
    root = tmp_path / "repo"
    _repo(root, RERUN["watches-the-directory"])
    git(root, "add", "-A")
    git(root, "commit", "-qm", "extra")
    (root / "eapp/src/main.rs").write_text(
        'mod more;\nconst TEXT: &str = include_str!("banner.gen");\n'
        'fn main() {\n    println!("{TEXT}{}", unsafe { esys::base_func() + esys::extra_func() } + more::one());\n}\n')
    (root / "eapp/src/more.rs").write_text("pub fn one() -> i32 { 1 }\n")
    (root / "eapp/src/banner.gen").write_text("hello ")
    monkeypatch.chdir(root)
    res = _run(capsys, tmp_path / "h.sqlite")
    assert res["verdict"] == "linked" and res["dirty"] is True
    assert res["dirty_inputs"] == [
        {"path": "eapp/src/banner.gen", "why": "ignored"},
        {"path": "eapp/src/main.rs", "why": "modified"},
        {"path": "eapp/src/more.rs", "why": "untracked"},
    ]


def test_a_replay_of_a_dirty_build_is_dirty_for_the_same_files(tmp_path, monkeypatch, capsys):
    root = tmp_path / "repo"
    _repo(root, RERUN["cc-style-blind"])
    monkeypatch.chdir(root)
    history = tmp_path / "h.sqlite"
    assert _run(capsys, history)["dirty"] is True
    assert main(["replay", "app", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert res["replayed"] and res["dirty"] is True
    assert {"path": "esys/native/extra/extra.c", "why": "untracked"} in res["dirty_inputs"]

"""A weak reference resolved under one linker and null under another: `weak-undefined`.

The mechanism, measured here with gcc and each linker on plain C before it was
made a crate: no linker extracts an archive member, or keeps an ``--as-needed``
shared library, for a weak undefined reference alone (bfd, gold, lld and mold
all leave ``hook`` null when it is the only reference). What differs is which
archives a later strong reference may pull a member from. GNU ld and gold read
each archive once, at its place on the line; lld (so rust-lld) and mold remember
every archive's symbols and extract from an earlier one.

The crate links three archives in this order:
- libfirst.a: hookimpl.o defines ``hook`` and ``helper``;
- libmid.a: user.o defines ``run``, which calls ``helper`` and, if it is not
  null, the weak ``hook``;
- liblast.a: helper.o defines ``helper`` too.
When GNU ld or gold reach libfirst.a nothing there is referenced yet, so they
take user.o from libmid.a and helper.o from liblast.a: ``hook`` stays null and
``run`` returns 2. rust-lld, lld and mold take hookimpl.o from libfirst.a for
user.o's ``helper``, so ``hook`` is defined and ``run`` returns 8. Every
linker exits 0. Real cargo, gcc and all five linkers.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from lgtest import git_repo

from linkgate.cli import main

BUILD = r'''use std::process::Command;
fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    for (lib, src) in [("first", "hookimpl"), ("mid", "user"), ("last", "helper")] {
        let obj = format!("{out}/{src}.o");
        assert!(Command::new("gcc").args(["-c", "-fPIC", "-O2", &format!("{src}.c"), "-o", &obj])
            .status().unwrap().success());
        assert!(Command::new("ar").args(["crs", &format!("{out}/lib{lib}.a"), &obj]).status().unwrap().success());
        println!("cargo:rustc-link-lib=static={lib}");
    }
    println!("cargo:rustc-link-search=native={out}");
}
'''

SOURCES = {
    "hookimpl.c": "int hook(void) { return 7; }\nint helper(void) { return 1; }\n",
    "user.c": "extern int hook(void) __attribute__((weak));\nint helper(void);\n"
              "int run(void) { return (hook ? hook() : 0) + helper(); }\n",
    "helper.c": "int helper(void) { return 2; }\n",
}

FIVE = '["default", "bfd", "gold", "mold", "lld"]'


def _workspace(root: Path, linkers: str, extra: str = "") -> Path:
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "weakhook"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "build.rs").write_text(BUILD)
    for name, text in SOURCES.items():
        (root / name).write_text(text)
    (root / "src" / "main.rs").write_text('extern "C" { fn run() -> i32; }\n'
                                          'fn main() { println!("{}", unsafe { run() }); }\n')
    (root / "linkgate.toml").write_text(f'[[gate]]\nname = "weak"\ncargo = ["build"]\nlinkers = {linkers}\n{extra}')
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    git_repo(root)
    return root


def _run(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["run", "-q", "--no-history", "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _weak(res: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in res["divergence"] if d["kind"] == "weak-undefined"]


def test_hook_resolved_by_lld_and_mold_null_under_gnu_ld_and_gold(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(_workspace(tmp_path / "ws", FIVE))
    code, doc = _run(capsys)
    assert code == 0 and doc["status"] == "pass"
    legs = {r["linker"]: r for r in doc["results"]}
    assert all(r["verdict"] == "linked" for r in legs.values())
    # What each file does, run: the comparison's claim is the program's behaviour.
    printed = {ln: subprocess.run([r["linked"][0]["path"]], capture_output=True, text=True, check=True).stdout
               for ln, r in legs.items()}
    assert printed == {"default": "8\n", "bfd": "2\n", "gold": "2\n", "mold": "8\n", "lld": "8\n"}

    assert legs["default"]["divergence"] == []
    for ln in ("bfd", "gold"):
        (d,) = _weak(legs[ln])
        assert d["linkers"] == ["default", ln] and d["target"] == "weakhook"
        assert d["only_first"] == ["hook"] and d["only_other"] == [] and d["level"] == "warning"
        assert "weak symbols resolved in one file only (null in the other): 1 only under default (hook)" \
            in d["detail"]
        # hookimpl.o was extracted under the first linker only: its function is there too.
        (f,) = [d for d in legs[ln]["divergence"] if d["kind"] == "functions"]
        assert f["only_first"] == ["hook"]
    for ln in ("mold", "lld"):
        assert legs[ln]["divergence"] == [], (ln, legs[ln]["divergence"])


def test_weak_divergence_under_fail_fails_the_gate(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(_workspace(tmp_path / "ws", '["default", "bfd"]',
                                 'linker-matrix = "rebuild"\ndivergence = "fail"\n'))
    code, doc = _run(capsys)
    assert code == 1 and doc["status"] == "fail"
    bfd = doc["results"][1]
    assert [d["level"] for d in _weak(bfd)] == ["error"]

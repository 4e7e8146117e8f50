"""Coverage never credits a directive two branches print: it says it cannot tell them apart.

A -sys crate whose build script links `static=z` from $ZSYS_DIR when that is
set, else builds its vendored copy (cc, ar) and links `static=z` too: the same
directive from both branches. The gate never sets ZSYS_DIR. Real cargo, cc,
ar, rust-lld and SQLite in tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main

BUILD_RS = """\
use std::env;
use std::process::Command;

fn main() {
    WATCH
    if let Ok(dir) = env::var("ZSYS_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=static=z");
    } else {
        let out = env::var("OUT_DIR").unwrap();
        let obj = format!("{out}/z.o");
        assert!(Command::new("cc").args(["-c", "-fPIC", "vendor/z.c", "-o", &obj]).status().unwrap().success());
        assert!(Command::new("ar").arg("crs").arg(format!("{out}/libz.a")).arg(&obj).status().unwrap().success());
        println!("cargo:rustc-link-search=native={out}");
        println!("cargo:rustc-link-lib=static=z");
    }
}
"""
WATCH = {
    "unwatched": 'println!("cargo:rerun-if-changed=build.rs");',
    "watched": 'println!("cargo:rerun-if-env-changed=ZSYS_DIR");',
}


@pytest.fixture(params=sorted(WATCH))
def repo(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[Path, str, str]:
    root = tmp_path / "zsys"
    (root / "src").mkdir(parents=True)
    (root / "vendor").mkdir()
    (root / "tests").mkdir()
    (root / "Cargo.toml").write_text('[package]\nname = "zsys"\nversion = "0.1.0"\nedition = "2021"\nlinks = "z"\n')
    (root / "build.rs").write_text(BUILD_RS.replace("WATCH", WATCH[request.param]))
    (root / "vendor/z.c").write_text("int z_version(void) { return 13; }\n")
    (root / "src/lib.rs").write_text('extern "C" {\n    pub fn z_version() -> i32;\n}\n')
    (root / "tests/link.rs").write_text("#[test]\nfn links() {\n    assert_eq!(unsafe { zsys::z_version() }, 13);\n}\n")
    (root / "linkgate.toml").write_text('[[gate]]\nname = "z"\ncargo = ["test", "--no-run"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n.linkgate/\n")
    git_repo(root)
    monkeypatch.delenv("ZSYS_DIR", raising=False)
    monkeypatch.chdir(root)
    # The recipes as --suggest writes them (each stanza loads as written).
    assert main(["coverage", "--suggest"]) == 0
    return root, request.param, capsys.readouterr().out


def _suggest_and_run(root: Path, stanzas: str, capsys: pytest.CaptureFixture[str]) -> tuple[dict, dict]:
    assert stanzas.count("[[recipe]]") == 2 and "# [[recipe]]" not in stanzas
    (root / "linkgate.toml").write_text((root / "linkgate.toml").read_text() + "\n" + stanzas)
    git(root, "commit", "-qam", "recipes")
    assert main(["run", "-q", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    main(["coverage", "--format", "json"])
    return res, {r["name"]: r for r in json.loads(capsys.readouterr().out)["recipes"]}


def test_two_branches_printing_the_same_directive_are_not_credited(repo, capsys):
    root, watch, stanzas = repo
    res, cov = _suggest_and_run(root, stanzas, capsys)
    assert res["verdict"] == "linked"
    assert set(cov) == {"zsys-dir", "without-zsys-dir"}
    if watch == "watched":
        # cargo recorded ZSYS_DIR's value (unset): that decides which branch ran.
        assert cov["zsys-dir"]["status"] == "never-linked"
        assert cov["without-zsys-dir"]["status"] == "covered"
        assert (res["recipes"], res.get("recipes_indistinct")) == (["without-zsys-dir"], [])
        return
    # Nothing recorded says which branch ran: neither is covered.
    zdir = cov["zsys-dir"]
    assert zdir["status"] == "indistinct" and zdir["linked_by"] == []
    assert cov["without-zsys-dir"]["status"] == "indistinct"
    assert res["recipes"] == [] and sorted(res["recipes_indistinct"]) == ["without-zsys-dir", "zsys-dir"]
    assert zdir["indistinct_runs"] == 1
    assert "`rustc-link-lib=static=z`" in zdir["cannot_tell"] and "build.rs:" in zdir["cannot_tell"]
    assert "cargo:rerun-if-env-changed=ZSYS_DIR" in zdir["cannot_tell"]
    assert "a directive only this branch prints" in zdir["cannot_tell"]
    assert any("recipe 'zsys-dir' is not counted as linked" in w for w in res["warnings"])
    main(["coverage", "--comment"])
    comment = capsys.readouterr().out
    assert "`zsys-dir`" in comment and "indistinct" in comment

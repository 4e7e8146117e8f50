"""A recording is evidence about the tree it was made from, and no other.

Record on one branch, check out another whose build script prints other
directives: a replay is refused, and a drop-directive control re-runs the gate
first (saying so), so it is never `caught` from the old recording. Real git,
cargo, cc, ar and GNU ld on the ordersys fixture (archives in the right order).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ordersys"
WRONG = "static:-bundle=helper\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=shim"
RIGHT = "static:-bundle=shim\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=helper"
CONTROL = """
[[gate.control]]
name = "drop-helper"
drop-directive = { lib = "static:-bundle=helper" }
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ordersys"
    shutil.copytree(FIXTURE, root)
    script = root / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["bfd"]') + CONTROL)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def _prove(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    rc = main(["prove", "-q", "--no-history", "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def test_a_recording_from_another_branch_is_never_evidence(repo, capsys):
    # On main the control is caught: dropping -lhelper leaves helper_fn undefined.
    assert main(["run", "-q", "--no-history", "--format", "json"]) == 0
    capsys.readouterr()
    rc, doc = _prove(capsys)
    (c,) = doc["controls"]
    assert (rc, c["outcome"]) == (0, "caught"), c["reason"]

    # Another branch: the build script puts helper.o into libshim.a and prints
    # no -lhelper at all. Its target dir still holds main's recording.
    git(repo, "checkout", "-qb", "one-archive")
    script = repo / "ordsys/build.rs"
    text = script.read_text()
    text = text.replace('    archive(&out, "helper");\n', "")
    text = text.replace(
        'assert!(Command::new("ar").args(["crs", &lib, &obj]).status().unwrap().success());',
        'let helper = format!("{out}/helper.o");\n'
        '    let src = "csrc/helper.c";\n'
        '    assert!(Command::new("cc").args(["-c", "-fPIC", src, "-o", &helper]).status().unwrap().success());\n'
        '    assert!(Command::new("ar").args(["crs", &lib, &obj, &helper]).status().unwrap().success());',
    )
    text = text.replace('    println!("cargo:rustc-link-lib=static:-bundle=helper");\n', "")
    script.write_text(text)
    git(repo, "commit", "-qam", "one archive")

    # replay refuses the old recording and says why.
    rc = main(["replay", "calls", "--linker", "bfd"])
    err = capsys.readouterr().err
    assert rc == 3 and "the checkout changed since the links were recorded" in err, err

    # prove re-runs the gate first (and says so), then finds no -lhelper to drop.
    rc, doc = _prove(capsys)
    (c,) = doc["controls"]
    assert c["outcome"] != "caught"
    assert "no build script of gate 'calls' prints that directive" in c["reason"], c["reason"]
    assert any("the checkout changed" in n and "ran the gate first" in n for n in c["notes"]), c["notes"]


def test_a_lib_several_packages_print_must_name_its_package(repo, capsys):
    (repo / "app/build.rs").write_text('fn main() {\n    println!("cargo:rustc-link-lib=dylib=m");\n}\n')
    script = repo / "ordsys/build.rs"
    script.write_text(script.read_text().replace(
        '    println!("cargo:rustc-link-search', '    println!("cargo:rustc-link-lib=dylib=m");\n    println!("cargo:rustc-link-search', 1))
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('lib = "static:-bundle=helper"', 'lib = "dylib=m"'))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "both print -lm")
    rc = main(["prove", "-q", "--no-history"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "'dylib=m' is printed by the build scripts of 2 packages: app, ordsys" in err
    assert "linkgate.toml:" in err and 'package = "app"' in err

    cfg.write_text(cfg.read_text().replace('lib = "dylib=m"', 'lib = "dylib=m", package = "ordsys"'))
    git(repo, "commit", "-qam", "name the package")
    rc, doc = _prove(capsys)
    (c,) = doc["controls"]
    # Only ordsys's -lm is dropped (app's stays): the mutation names that one build script.
    assert "ordsys/build.rs" in c["mutation"] and "app/build.rs" not in c["mutation"], c


def test_a_recording_of_a_dirty_tree_says_the_checkout_is_clean_now(repo, capsys):
    readme = repo / "NOTES.txt"
    readme.write_text("a change nobody committed\n")
    assert main(["run", "-q", "--linker", "bfd"]) == 0
    readme.unlink()  # the checkout is back at HEAD, clean
    capsys.readouterr()
    rc = main(["replay", "calls", "--linker", "bfd"])
    err = capsys.readouterr().err
    assert rc == 3 and "it was made with uncommitted changes, and the checkout is clean now" in err, err


def test_a_warm_run_that_links_nothing_keeps_the_last_recording_replayable(repo, capsys):
    assert main(["run", "-q", "--linker", "bfd", "--no-history"]) == 0
    assert main(["run", "-q", "--linker", "bfd", "--no-history", "--no-force-link"]) == 0  # every unit fresh
    capsys.readouterr()
    assert main(["replay", "calls", "--linker", "bfd", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert res["verdict"] == "linked" and res["replayed"] is True
    # Still bound to its tree: a change cargo does not rebuild for makes it no evidence.
    (repo / "NOTES.txt").write_text("new\n")
    assert main(["run", "-q", "--linker", "bfd", "--no-history", "--no-force-link"]) == 0
    capsys.readouterr()
    assert main(["replay", "calls", "--linker", "bfd"]) == 3
    assert "the checkout changed since the links were recorded" in capsys.readouterr().err

"""A gate must link, and a broken link recipe is a link failure: real cargo on a cc-style -sys crate.

The fixture (tests/fixtures/ccsys) is shaped like bzip2-sys/libz-sys: zsys's
build script compiles vendored C with the compiler itself, archives it, and
prints only rerun-if-env-changed lines plus the link directives; app depends
on it and its integration test `calls` calls into the C code.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())
ZLITE = 'println!("cargo:rustc-link-lib=static=zlite");'
NOTHERE = ZLITE + '\n    println!("cargo:rustc-link-lib=static=nothere");'
BOTH_SOURCES = '"vendor/zlite/deflate.c", "vendor/zlite/checksum.c"'


@pytest.fixture
def ccsys(tmp_path: Path) -> Path:
    root = tmp_path / "ccsys"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("target", ".linkgate"))
    (root / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(root)
    return root


def set_cargo(root: Path, cargo: list[str], linkers: list[str] | None = None) -> None:
    cfg = root / "linkgate.toml"
    text = cfg.read_text().replace(
        'cargo = ["test", "--release", "-p", "app", "--test", "calls", "--no-run"]', "cargo = " + json.dumps(cargo)
    )
    if linkers is not None:
        text = text.replace('linkers = ["default", "bfd"]', "linkers = " + json.dumps(linkers))
    cfg.write_text(text)


def run_json(root: Path, monkeypatch, capsys, *args: str) -> tuple[int, dict]:
    import jsonschema

    monkeypatch.chdir(root)
    rc = main(["run", "-q", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


# -- a gate must link -----------------------------------------------------------
@pytest.mark.parametrize("fmt", ["human", "json"])
def test_check_gate_exits_2_before_building_and_never_prints_linked(ccsys, monkeypatch, capsys, fmt):
    set_cargo(ccsys, ["check", "-p", "app", "--tests"])
    monkeypatch.chdir(ccsys)
    assert main(["run", "--format", fmt]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "linked" not in err
    assert "linkgate.toml:4: gate.calls.cargo:" in err and "never invokes the linker" in err
    assert not (ccsys / "target").exists(), "nothing may be built"


def test_check_stream_has_nothing_linkable(ccsys):
    """Feed real `cargo check` and `cargo doc` messages to the reader: a bin's .rmeta is not a link."""
    from linkgate.cargo.messages import BuildLog

    for argv in (["check", "--workspace", "--all-targets"], ["doc", "--workspace"]):
        out = subprocess.run(["cargo", *argv, "--message-format=json"], cwd=ccsys, capture_output=True,
                             text=True, check=True).stdout
        log = BuildLog()
        for line in out.splitlines():
            log.feed(line)
        assert log.artifacts, argv
        assert log.linkable == [], (argv, log.linkable)


def test_linked_lists_only_what_a_linker_wrote(ccsys, monkeypatch, capsys, edit=edit):
    # app also builds a cdylib: the .so is linked, its rlib never counts.
    edit(ccsys / "app" / "Cargo.toml", "[dependencies]", '[lib]\ncrate-type = ["lib", "cdylib"]\n\n[dependencies]')
    set_cargo(ccsys, ["test", "--release", "-p", "app", "--no-run"], ["default"])
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert rc == 0
    (res,) = doc["results"]
    kinds = sorted((a["target"], a["kind"]) for a in res["linked"])
    assert kinds == [("app", "cdylib"), ("app", "test"), ("calls", "test")], kinds
    for a in res["linked"]:
        path = Path(a["path"])
        assert path.read_bytes()[:4] == b"\x7fELF" and path.suffix not in (".rlib", ".rmeta"), a
    so = next(a["path"] for a in res["linked"] if a["kind"] == "cdylib")
    assert so.endswith(".so")


@pytest.mark.parametrize(
    ("cargo", "needle"),
    [(["build", "--release", "-p", "zsys"], "nothing linked"),
     (["rustc", "--release", "-p", "zsys", "--crate-type", "staticlib"], "a staticlib is an archive rustc writes itself")],
)
def test_a_gate_that_links_nothing_is_an_error(ccsys, monkeypatch, capsys, cargo, needle):
    set_cargo(ccsys, cargo, ["default"])
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    (res,) = doc["results"]
    assert rc == 3 and doc["status"] == "fail"
    assert res["verdict"] == "error" and not res["proven"]
    assert res["linked"] == [] and res["up_to_date"] == []
    assert needle in res["messages"][0]


def test_unknown_subcommand_is_said_and_judged_by_what_cargo_did(ccsys, monkeypatch, capsys):
    set_cargo(ccsys, ["linkgate-no-such-subcommand"], ["default"])
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    (res,) = doc["results"]
    assert res["verdict"] == "error" and rc == 3
    assert any("cannot tell before building whether it links" in w for w in res["warnings"])


def test_command_gate_never_claims_a_link(tmp_path, monkeypatch, capsys):
    """Exit 0 is no evidence: the recording wrapper saw no link, so it is the same
    "nothing linked" error a lib-only cargo gate gets."""
    (tmp_path / "linkgate.toml").write_text('[[gate]]\nname = "ok"\ncommand = ["true"]\n')
    monkeypatch.chdir(tmp_path)
    assert main(["run", "-q", "--format", "json"]) == 3
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert res["verdict"] == "error"
    assert res["linked"] == [] and res["proven"] is False
    assert res["messages"][0].startswith("nothing linked: true exited 0, but the recording wrapper saw no link")
    assert main(["run", "-q"]) == 3
    human = capsys.readouterr().out
    assert "nothing linked" in human and "linked  ok" not in human


# -- a missing static library is a link failure -----------------------------------
def test_missing_static_library_is_link_failed_in_run_and_explain(ccsys, monkeypatch, capsys, tmp_path):
    edit(ccsys / "zsys" / "build.rs", ZLITE, NOTHERE)
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert rc == 1 and doc["status"] == "fail"
    for res in doc["results"]:
        assert res["verdict"] == "link-failed", res
        assert res["failed_targets"] == ["zsys (lib)"]
        (d,) = res["diagnostics"]
        assert (d["kind"], d["library"], d["linker"]) == ("library-not-found", "nothere", "rustc")
        assert any(r["key"] == "rustc-link-lib" and r["value"] == "static=nothere" for r in d["directives"])
        assert d["build_script"] == str(ccsys / "zsys" / "build.rs")
    # explain says the same of the log cargo wrote, in either of its formats.
    for fmt, stream in (("json", "stdout"), ("human", "stderr")):
        cp = subprocess.run(["cargo", "test", "-p", "app", "--no-run", f"--message-format={fmt}"], cwd=ccsys,
                            capture_output=True, text=True)
        assert cp.returncode != 0
        log = tmp_path / f"build-{fmt}.log"
        log.write_text(getattr(cp, stream))
        assert main(["explain", "--format", "json", str(log)]) == 1
        (d,) = json.loads(capsys.readouterr().out)["diagnostics"]
        assert (d["kind"], d["library"]) == ("library-not-found", "nothere"), fmt
        assert main(["explain", str(log)]) == 1
        assert "library-not-found" in capsys.readouterr().out


def test_prove_catches_a_missing_library_control(ccsys, monkeypatch, capsys):
    cfg = ccsys / "linkgate.toml"
    cfg.write_text(
        cfg.read_text()
        + "\n[[gate.control]]\nname = \"link-a-missing-library\"\nfile = \"zsys/build.rs\"\n"
        + "replace = { pattern = 'static=zlite\"\\);', with = 'static=zlite\"); println!(\"cargo:rustc-link-lib=static=nothere\");' }\n"
        + 'expect-kind = "library-not-found"\nexpect-match = "nothere"\n'
    )
    subprocess.run(["git", "-C", str(ccsys), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "ctl"],
                   check=True)
    monkeypatch.chdir(ccsys)
    rc = main(["prove", "-q", "--format", "json", "--control", "link-a-missing-library"])
    doc = json.loads(capsys.readouterr().out)
    assert [(c["linker"], c["outcome"]) for c in doc["controls"]] == [("default", "caught"), ("bfd", "caught")], doc
    assert rc == 0


# -- what a maintainer sees ---------------------------------------------------------
def test_human_output_names_target_linker_lines_directives_and_script(ccsys, monkeypatch, capsys):
    edit(ccsys / "zsys" / "build.rs", BOTH_SOURCES, '"vendor/zlite/deflate.c"')
    monkeypatch.chdir(ccsys)
    assert main(["run", "-q"]) == 1
    out = capsys.readouterr().out
    for linker in ("default", "bfd"):
        assert f"link-failed  calls [{linker}]" in out
    assert out.count("failed target: calls (test)") == 2
    assert out.count("directive: cargo::rustc-link-lib=static=zlite") == 2
    assert out.count(f"build script: {ccsys / 'zsys' / 'build.rs'}") == 2
    assert "rust-lld: error: undefined symbol: zl_checksum" in out
    assert "undefined reference to `zl_checksum'" in out
    # The C object in zsys's own archive needs a symbol nothing defines: a source left out.
    # One defect under two linkers is one problem: its hint is stated once, naming both.
    assert out.count("missing from the build script's list of sources") == 1
    assert "hint (default, bfd):" in out
    assert "deflate.o in libzlite.a" in out
    # The pull-request rendering names the same things.
    assert main(["run", "-q", "--format", "markdown"]) == 1
    md = capsys.readouterr().out
    assert "calls [bfd]: calls (test) failed to link</summary>" in md
    assert "directive `cargo::rustc-link-lib=static=zlite`" in md
    assert f"build script `{ccsys / 'zsys' / 'build.rs'}`" in md


def test_explain_on_a_cargo_json_log_names_the_missing_source(ccsys, monkeypatch, capsys, tmp_path):
    edit(ccsys / "zsys" / "build.rs", BOTH_SOURCES, '"vendor/zlite/deflate.c"')
    cp = subprocess.run(["cargo", "test", "-p", "app", "--no-run", "--message-format=json"], cwd=ccsys,
                        capture_output=True, text=True)
    assert cp.returncode != 0
    log = tmp_path / "build.jsonl"
    log.write_text(cp.stdout)
    assert main(["explain", "--format", "json", str(log)]) == 1
    (d,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert d["symbol"] == "zl_checksum"
    assert "deflate.o in libzlite.a" in d["hint"] and str(ccsys / "zsys" / "build.rs") in d["hint"]
    assert any("libzsys-" in r and "(deflate.o)" in r for r in d["references"])


def test_a_c_source_cargo_does_not_watch_is_rebuilt_before_a_green_verdict(ccsys, monkeypatch, capsys):
    # zsys's build script prints only rerun-if-env-changed: after renaming the C
    # definition, plain cargo would reuse the old archive and link green.
    set_cargo(ccsys, ["test", "--release", "-p", "app", "--test", "calls", "--no-run"], ["bfd"])
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert rc == 0 and doc["results"][0]["verdict"] == "linked"
    source = ccsys / "zsys" / "vendor" / "zlite" / "checksum.c"
    edit(source, "unsigned long zl_checksum(", "unsigned long zl_checksum_gone(")
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    (res,) = doc["results"]
    assert (rc, res["verdict"]) == (1, "link-failed"), res
    assert any("vendor/zlite/checksum.c in package zsys changed after its build script last ran" in w
               for w in res["warnings"]), res["warnings"]
    # Put it back: the next run rebuilds again and links, and a run after that says nothing.
    edit(source, "unsigned long zl_checksum_gone(", "unsigned long zl_checksum(")
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert (rc, doc["results"][0]["verdict"]) == (0, "linked")
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert (rc, doc["results"][0]["verdict"]) == (0, "linked")
    assert not any("changed after its build script" in w for w in doc["results"][0]["warnings"])


def test_linkgates_own_files_and_prose_never_rebuild_the_c(ccsys, monkeypatch, capsys):
    # Editing linkgate.toml, LICENSE or .gitignore beside a blind build script is not a C change.
    set_cargo(ccsys, ["test", "--release", "-p", "app", "--test", "calls", "--no-run"], ["bfd"])
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert rc == 0 and doc["results"][0]["verdict"] == "linked"
    zsys = ccsys / "zsys"
    for name in ("linkgate.toml", "LICENSE-MIT", "README.md", ".gitignore", "CHANGELOG"):
        (zsys / name).write_text("# not a build input\n")
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    (res,) = doc["results"]
    assert (rc, res["verdict"]) == (0, "linked"), res
    assert not any("changed after its build script" in w for w in res["warnings"]), res["warnings"]
    # A file that may be an input still rebuilds (fail closed): a new header beside the C.
    (zsys / "vendor" / "zlite" / "extra.h").write_text("#define ZL_EXTRA 1\n")
    rc, doc = run_json(ccsys, monkeypatch, capsys)
    assert any("vendor/zlite/extra.h in package zsys changed after its build script last ran" in w
               for w in doc["results"][0]["warnings"]), doc["results"][0]["warnings"]

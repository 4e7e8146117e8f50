"""linkgate prove on the real demo workspace (cargo, rust-lld, GNU ld)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from linkgate.cli import main

from lgtest import git_repo, sha

DSO_CONTROL = """
[[gate.control]]
name = "drop-deep-after-archives"
file = "build.rs"
delete = '^\\s*"-ldeep",'
expect-kind = "dso-missing"
expect-match = "deep_value"
"""

HARMLESS_CONTROL = """
[[gate.control]]
name = "drop-comment"
file = "build.rs"
delete = '^// names them on the link line'
"""


SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/prove-1.json").read_text())


def prove_json(root: Path, monkeypatch, capsys, *args: str) -> tuple[int, dict]:
    """Run in-process; every document must validate against the shipped schema."""
    import jsonschema

    monkeypatch.chdir(root)
    rc = main(["prove", "-q", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc


def test_dso_missing_control_is_caught_under_gnu_ld_and_file_is_identical(demo_workspace, monkeypatch, capsys):
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('["default", "bfd"]', '["bfd"]') + DSO_CONTROL)
    git_repo(demo_workspace)
    build_rs = demo_workspace / "build.rs"
    before, mode = sha(build_rs), stat.S_IMODE(build_rs.stat().st_mode)
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    assert doc["schema"] == "linkgate.prove/1"
    (c,) = doc["controls"]
    assert c["outcome"] == "caught", c
    assert c["mutated"]["verdict"] == "link-failed"
    assert "dso-missing" in [d["kind"] for d in c["mutated"]["diagnostics"]]
    assert c["restored"]["verdict"] == "linked"
    assert '-    "-ldeep",' in c["mutation"]
    assert rc == 0
    assert sha(build_rs) == before and stat.S_IMODE(build_rs.stat().st_mode) == mode
    assert not (demo_workspace / ".linkgate" / "journal.json").exists()


def test_control_that_does_not_break_the_link_is_not_reproduced(demo_workspace, monkeypatch, capsys):
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('["default", "bfd"]', '["default"]') + HARMLESS_CONTROL)
    git_repo(demo_workspace)
    before = sha(demo_workspace / "build.rs")
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    (c,) = doc["controls"]
    assert c["outcome"] == "not-reproduced"
    assert c["mutated"]["verdict"] == "linked" and c["mutated"]["linked"], "the mutated run must really link"
    assert rc == 1
    assert sha(demo_workspace / "build.rs") == before


def test_order_control_caught_by_bfd_not_by_rust_lld(demo_workspace, monkeypatch, capsys):
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(
        cfg.read_text()
        + '\n[[gate.control]]\nname = "archive-order"\nfile = "build.rs"\n'
        + 'replace = { pattern = \'"-lcore",\\n(\\s*)"-lnutil",\', with = \'"-lnutil",\\n\\1"-lcore",\' }\n'
    )
    git_repo(demo_workspace)
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    outcome = {c["linker"]: c["outcome"] for c in doc["controls"]}
    assert outcome == {"default": "not-reproduced", "bfd": "caught"}
    assert rc == 1



def test_a_control_on_build_rs_is_not_called_unwatched(demo_workspace, monkeypatch, capsys, edit):
    # build.rs is the build script's own source: cargo recompiles and reruns it on any change,
    # whatever rerun-if-changed says (here it names only native/), so no note claims cargo
    # would miss it and nothing is invalidated for it on a warm target directory.
    edit(demo_workspace / "build.rs", 'println!("cargo:rerun-if-changed=build.rs");\n', "")
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(
        cfg.read_text().replace('["default", "bfd"]', '["bfd"]')
        + '\n[[gate.control]]\nname = "archive-order"\nfile = "build.rs"\n'
        + 'replace = { pattern = \'"-lcore",\\n(\\s*)"-lnutil",\', with = \'"-lnutil",\\n\\1"-lcore",\' }\n'
    )
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    assert main(["run", "-q"]) == 0  # warm: the fingerprints a blind-script rule would delete exist
    capsys.readouterr()
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    (c,) = doc["controls"]
    assert (rc, c["outcome"]) == (0, "caught"), c
    assert not any("outside every rerun-if-changed" in n for n in c["notes"]), c["notes"]


def test_untracked_input_is_judged_on_a_real_build(demo_workspace, monkeypatch, capsys, edit):
    # The build script stops watching native/, so cargo would call a change to
    # core.c fresh; prove must still build with the mutation in place.
    edit(demo_workspace / "build.rs", 'println!("cargo:rerun-if-changed=native");\n', "")
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(
        cfg.read_text().replace('["default", "bfd"]', '["default"]')
        + '\n[[gate.control]]\nname = "call-missing"\nfile = "native/core.c"\n'
        + "replace = { pattern = 'return util_twice', with = 'int nowhere(void); return nowhere() + util_twice' }\n"
    )
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    assert main(["run", "-q"]) == 0  # warm the cache first
    capsys.readouterr()
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    (c,) = doc["controls"]
    assert c["outcome"] == "caught", c
    # The journal's cache scope makes the build script rerun before the
    # mutated build, so the fallback (build, see nothing stale, rebuild) is not needed.
    assert any("outside every rerun-if-changed" in n for n in c["notes"]), c["notes"]
    assert c["mutated"]["verdict"] == "link-failed"


def test_markdown_evidence(demo_workspace, monkeypatch, capsys):
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('["default", "bfd"]', '["bfd"]') + DSO_CONTROL)
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    main(["prove", "-q", "--format", "markdown"])
    md = capsys.readouterr().out
    assert "```diff" in md and '-    "-ldeep",' in md
    assert "| `drop-deep-after-archives` | `smoke` | bfd | link-failed | linked | **caught** |" in md
    assert "key linker line" in md


def test_a_gate_broken_without_the_mutation_is_an_error_that_says_so(demo_workspace, monkeypatch, capsys):
    # The tree does not compile with or without the control's change: the control
    # tested nothing, and the evidence must say "fix the gate", not blame the mutation.
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('["default", "bfd"]', '["bfd"]') + HARMLESS_CONTROL)
    main_rs = demo_workspace / "src" / "main.rs"
    main_rs.write_text(main_rs.read_text() + "\nfn broken( {\n")
    git_repo(demo_workspace)
    rc, doc = prove_json(demo_workspace, monkeypatch, capsys)
    (c,) = doc["controls"]
    assert (c["outcome"], c["mutated"]["verdict"], c["restored"]["verdict"]) == (
        "error", "compile-failed", "compile-failed")
    assert "does not build without the mutation either" in c["reason"] and "fix the gate" in c["reason"]
    assert rc != 0

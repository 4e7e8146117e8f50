"""Negative controls judged by replay, and the sweep's sentence for a control that did not reproduce."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from demotest import copy_demo
from lgtest import git_repo

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/prove-1.json").read_text())


def prove_json(ws: Path, monkeypatch, capsys, *args: str) -> tuple[int, dict]:
    import jsonschema

    monkeypatch.chdir(ws)
    rc = main(["prove", "-q", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc


def add_controls(ws: Path, text: str) -> None:
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text() + text)


def test_drop_directive_of_a_needed_library_is_caught_by_replay(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    add_controls(ws, '\n[[gate.control]]\nname = "drop-helper"\ndrop-directive = "-lhelper"\n'
                     'expect-match = "helper_value"\n')
    rc, doc = prove_json(ws, monkeypatch, capsys)
    assert rc == 0, doc
    assert {c["linker"] for c in doc["controls"]} == {"default", "bfd"}
    for c in doc["controls"]:
        assert c["outcome"] == "caught" and c["replayed"] is True, c
        assert c["mutated"]["verdict"] == "link-failed" and c["restored"]["verdict"] == "linked"
        assert any("helper_value" in (d.get("symbol") or "") for d in c["mutated"]["diagnostics"])
        # named relative to the repository root, as a file control names its file
        assert "drop -lhelper (build.rs:" in c["mutation"] and c["file"] == "build.rs"
        # no recording existed: the gate ran once first, then replays judged it
        assert any("ran the gate first" in n for n in c["notes"])
    # with a recording in place, the next prove is replays only
    rc, doc = prove_json(ws, monkeypatch, capsys)
    assert rc == 0 and not any("ran the gate first" in n for c in doc["controls"] for n in c["notes"])
    main(["prove", "-q"])
    assert "on gate smoke (build.rs)" in capsys.readouterr().out


def test_drop_directive_not_on_any_line_is_an_error(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    add_controls(ws, '\n[[gate.control]]\nname = "drop-z"\ndrop-directive = { lib = "static=zz" }\n')
    rc, doc = prove_json(ws, monkeypatch, capsys, "--control", "drop-z")
    assert rc != 0
    assert all(c["outcome"] == "error" and "no build script" in c["reason"] for c in doc["controls"])


def test_redundant_drop_directive_is_not_reproduced_and_says_why(ring_workspace, monkeypatch, capsys):
    add_controls(ring_workspace, '\n[[gate.control]]\nname = "drop-extra-libc"\ndrop-directive = "-lc"\n')
    rc, doc = prove_json(ring_workspace, monkeypatch, capsys)
    assert rc == 1
    for c in doc["controls"]:
        assert c["outcome"] == "not-reproduced" and c["replayed"], c
        assert "`-lc` is redundant under" in c["explanation"] and "libc.so.6" in c["explanation"]
        assert c["explanation"] in c["notes"]
    monkeypatch.chdir(ring_workspace)
    main(["prove", "-q", "--format", "markdown"])
    assert "why: `-lc` is redundant under GNU ld" in capsys.readouterr().out


@pytest.mark.parametrize("linker", ["bfd"])
def test_file_control_not_reproduced_carries_the_sweep_explanation(ring_workspace, monkeypatch, capsys, linker):
    """The mlxcel story: deleting the extra -lc line from build.rs does not break the link."""
    cfg = ring_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', f'linkers = ["{linker}"]'))
    add_controls(ring_workspace, '\n[[gate.control]]\nname = "drop-lc-line"\nfile = "build.rs"\n'
                                 'delete = \'^    "-lc",$\'\n')
    (ring_workspace / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    git_repo(ring_workspace)
    rc, doc = prove_json(ring_workspace, monkeypatch, capsys)
    assert rc == 1
    [c] = doc["controls"]
    assert c["outcome"] == "not-reproduced" and not c["replayed"]
    assert c["explanation"] and "`-lc` is redundant under GNU ld" in c["explanation"], c
    assert re.search(r"GNU ld resolves `\w+` from /\S*/libc\.so\.6 pulled in by rustc's own `-lc`", c["explanation"])


def test_prove_replay_judges_a_directive_only_file_control_by_replay(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    add_controls(ws, '\n[[gate.control]]\nname = "drop-helper-line"\nfile = "build.rs"\n'
                     'delete = \'^    "-lhelper",$\'\n'
                     '\n[[gate.control]]\nname = "add-missing-lib"\nfile = "build.rs"\n'
                     'replace = { pattern = \'"-lnutil",\', with = \'"-lnutil", "-lnosuchlib",\' }\n')
    (ws / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    git_repo(ws)
    before = (ws / "build.rs").read_bytes()
    rc, doc = prove_json(ws, monkeypatch, capsys, "--replay")
    assert rc == 0, [(c["name"], c["linker"], c["outcome"], c["reason"], c["notes"]) for c in doc["controls"]]
    assert (ws / "build.rs").read_bytes() == before
    by_name: dict[str, list[dict]] = {}
    for c in doc["controls"]:
        by_name.setdefault(c["name"], []).append(c)
    for c in by_name["drop-helper-line"]:
        assert c["outcome"] == "caught" and c["replayed"], c
        assert "only removes cargo:rustc-link-arg=-lhelper" in c["notes"][0]
        assert c["file"] == "build.rs" and "-lhelper" in c["mutation"]
    # a mutation that adds a directive is not a drop: a full run judges it
    for c in by_name["add-missing-lib"]:
        assert c["outcome"] == "caught" and not c["replayed"], c
        assert c["mutated"]["diagnostics"][0]["kind"] == "library-not-found"
        assert c["notes"][0] == "--replay: a full run judged it because the mutation adds cargo:rustc-link-arg=-lnosuchlib", c

"""A control with its own `linkers`: run and judged only under them, skipped under the
gate's others with the reason (real cargo, rust-lld and GNU ld on the demo workspace)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git_repo, sha

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/prove-1.json").read_text())
SWAP = ('replace = { pattern = \'"-lcore",\\n(\\s*)"-lnutil",\', '
        'with = \'"-lnutil",\\n\\1"-lcore",\' }\n')


def prove(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          fmt: str = "json") -> tuple[int, str]:
    monkeypatch.chdir(root)
    rc = main(["prove", "-q", "--format", fmt])
    return rc, capsys.readouterr().out


def with_control(ws: Path, body: str) -> Path:
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text() + '\n[[gate.control]]\nname = "archive-order"\nfile = "build.rs"\n' + body)
    git_repo(ws)
    return ws


def test_archive_swap_named_for_bfd_proves_under_default_and_bfd(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import jsonschema

    ws = with_control(demo_workspace, SWAP + 'linkers = ["bfd"]\n')
    assert 'linkers = ["default", "bfd"]' in (ws / "linkgate.toml").read_text()
    before = sha(ws / "build.rs")
    rc, out = prove(ws, monkeypatch, capsys)
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert rc == 0
    assert doc["status"] == "pass"
    by = {c["linker"]: c for c in doc["controls"]}
    assert [c["linker"] for c in doc["controls"]] == ["default", "bfd"]
    assert by["bfd"]["outcome"] == "caught"
    assert by["bfd"]["mutated"]["verdict"] == "link-failed"
    assert by["default"]["outcome"] == "skipped"
    assert by["default"]["reason"].startswith("the control names linkers = [bfd]")
    # Nothing is judged under default: no verdict. With linker-matrix = "replay" the gate's
    # first linker still compiles (in its own, usually warm, target directory) and bfd relinks
    # its links: one compile, not a second one in bfd's directory.
    assert by["default"]["mutated"] is None and by["default"]["restored"] is None
    for phase in ("mutated", "restored"):
        matrix = by["bfd"][phase]["matrix"]
        assert (matrix["built_with"], matrix["replayed"], matrix["fallback"]) == ("default", True, None), matrix
    assert not (ws / "target" / "linkgate" / "smoke" / "bfd" / "release" / "build").exists()
    assert sha(ws / "build.rs") == before


def test_skipped_is_shown_in_human_output_and_history_has_no_row_for_it(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    ws = with_control(demo_workspace, SWAP + 'linkers = ["bfd"]\n')
    rc, out = prove(ws, monkeypatch, capsys, "human")
    assert rc == 0
    text = " ".join(out.split())
    assert "skipped archive-order [default]" in text
    assert "the control names linkers = [bfd]; it is neither run nor judged under default" in text
    assert "1 of 1 (control, linker) pairs caught, 1 skipped" in text
    rows = sqlite3.connect(ws / ".linkgate" / "history.sqlite").execute(
        "SELECT linker, verdict FROM runs WHERE kind = 'prove'").fetchall()
    assert rows == [("bfd", "caught")]


def test_a_control_not_caught_under_its_own_linker_still_fails(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Skipping default must not turn a miss under the named linker into a pass."""
    ws = with_control(demo_workspace, SWAP + 'linkers = ["default"]\n')
    rc, out = prove(ws, monkeypatch, capsys)
    doc = json.loads(out)
    assert rc == 1
    assert {c["linker"]: c["outcome"] for c in doc["controls"]} == {"default": "not-reproduced", "bfd": "skipped"}

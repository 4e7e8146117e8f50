"""The linkers' files of one target compared: real cargo, gcc and all five linkers.

tests/fixtures/ltosys (GCC fat-LTO objects): under GNU ld the plugin inlines
`helper` and drops it, under rust-lld it stays its own function, a divergence.
The demo, ccsys and ordersys link alike under every linker: nothing is reported.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())


def _workspace(src: Path, root: Path, mode: str, extra: str = "", linkers: str | None = None) -> Path:
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("target"))
    text = (root / "linkgate.toml").read_text()
    if linkers:  # every gate, with its own list or without one
        text = re.sub(r"linkers = \[[^\]]*\]\n", "", text)
        extra += f"linkers = {linkers}\n"
    text = text.replace("[[gate]]\n", f'[[gate]]\nlinker-matrix = "{mode}"\n{extra}')
    (root / "linkgate.toml").write_text(text)
    git_repo(root)
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    import jsonschema

    code = main(["run", "-q", "--no-history", "--format", "json", *args])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return code, doc


@pytest.mark.parametrize("mode", ["replay", "rebuild"])
def test_helper_inlined_under_bfd_only_is_reported(tmp_path, capsys, monkeypatch, mode):
    monkeypatch.chdir(_workspace(FIXTURES / "ltosys", tmp_path / "ws", mode))
    code, doc = _run(capsys)
    assert code == 0 and doc["status"] == "pass"
    default, bfd = doc["results"]
    assert default["divergence"] == []
    (d,) = [d for d in bfd["divergence"] if d["kind"] == "functions"]
    assert d["linkers"] == ["default", "bfd"] and d["target"] == "app"
    assert d["only_first"] == ["helper"] and d["only_other"] == [] and d["level"] == "warning"
    assert "defined functions: 1 only under default (helper)" in d["detail"]

    assert main(["run", "-q", "--no-history"]) == 0
    out = capsys.readouterr().out
    assert "differs from default: app" in out and "defined functions: 1 only under default (helper)" in out


def test_divergence_fail_fails_the_gate_and_off_compares_nothing(tmp_path, capsys, monkeypatch):
    root = _workspace(FIXTURES / "ltosys", tmp_path / "ws", "replay", 'divergence = "fail"\n')
    monkeypatch.chdir(root)
    code, doc = _run(capsys)
    assert code == 1 and doc["status"] == "fail"
    bfd = doc["results"][1]
    assert bfd["verdict"] == "linked" and [d["level"] for d in bfd["divergence"]] == ["error"]
    assert any('divergence = "fail"' in m for m in bfd["messages"])

    toml = root / "linkgate.toml"
    toml.write_text(toml.read_text().replace('divergence = "fail"', 'divergence = "off"'))
    code, doc = _run(capsys)
    assert code == 0 and all("divergence" not in r for r in doc["results"])
    # lto-skipped needs no second linker: "off" leaves it on.
    assert [d["kind"] for d in doc["results"][0]["diagnostics"]] == ["lto-skipped"]


def test_a_kind_overrides_the_gates_divergence(tmp_path, capsys, monkeypatch):
    root = _workspace(FIXTURES / "ltosys", tmp_path / "ws", "replay",
                      'divergence = "fail"\ndivergence-kinds = { functions = "off" }\n')
    monkeypatch.chdir(root)
    code, doc = _run(capsys)
    assert code == 0 and doc["status"] == "pass" and doc["results"][1]["divergence"] == []

    # Only functions compared, and failing the gate; the message names the key.
    toml = root / "linkgate.toml"
    toml.write_text(toml.read_text().replace('divergence = "fail"', 'divergence = "off"')
                    .replace('functions = "off"', 'functions = "fail"'))
    code, doc = _run(capsys)
    assert code == 1 and doc["status"] == "fail"
    bfd = doc["results"][1]
    assert [(d["kind"], d["level"]) for d in bfd["divergence"]] == [("functions", "error")]
    assert any('(functions) and this gate sets divergence-kinds.functions = "fail"' in m for m in bfd["messages"])


def test_without_flto_the_files_do_not_differ(tmp_path, capsys, monkeypatch):
    root = _workspace(FIXTURES / "ltosys", tmp_path / "ws", "replay")
    script = root / "ltosys" / "build.rs"
    script.write_text(script.read_text().replace('"-flto", "-ffat-lto-objects", ', ""))
    monkeypatch.chdir(root)
    code, doc = _run(capsys)
    assert code == 0 and [r["divergence"] for r in doc["results"]] == [[], []]


FIVE = '["default", "bfd", "gold", "mold", "lld"]'

# Every fixture with a gate, found on disk so a new one is covered, but for:
# ltosys, whose files differ by design (above), and buildshapes, whose helper
# crates are not declared (read by `surface --static`, never built).
NOT_ALIKE = {"ltosys", "buildshapes"}
GATED = sorted([DEMO, *(p.parent for p in FIXTURES.rglob("linkgate.toml")
                        if not NOT_ALIKE & set(p.relative_to(FIXTURES).parts))])


def test_every_gated_fixture_is_covered():
    names = {str(p.relative_to(FIXTURES)) for p in GATED if p != DEMO}
    assert {"ccsys", "ordersys", "bzpair", "rliborder", "zngsys", "recipes/ws", "ci/repo", "audit/gates",
            "surface/ws"} <= names, names


@pytest.mark.parametrize("mode", ["replay", "rebuild"])
@pytest.mark.parametrize("fixture", GATED, ids=lambda p: "demo" if p == DEMO else str(p.relative_to(FIXTURES)))
def test_alike_outputs_report_nothing_under_five_linkers(tmp_path, capsys, monkeypatch, fixture, mode):
    """rliborder fails under GNU ld and gold (archive order) and audit/gates' `make`
    gate builds nothing here: the legs that linked are compared."""
    monkeypatch.chdir(_workspace(fixture, tmp_path / "ws", mode, linkers=FIVE))
    _, doc = _run(capsys)
    linked = [r for r in doc["results"] if r["verdict"] == "linked"]
    assert len(linked) >= 3, [(r["linker"], r["verdict"]) for r in doc["results"]]
    for r in linked:
        assert r["linked"] and all(a["path"] for a in r["linked"]), r["linked"]
        assert r["divergence"] == [], (r["linker"], r["divergence"])

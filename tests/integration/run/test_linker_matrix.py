"""linker-matrix: compile once and relink under every linker gives what a build per linker gives.

Real cargo and the five real linkers: every fixture with gates and the demo's two
defects are judged in both modes, and the verdicts and diagnostic kinds must agree
under every linker.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from demotest import copy_demo
from linkgate.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ALL = ["default", "bfd", "gold", "lld", "mold"]
GATED = sorted(p.parent.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("linkgate.toml")
               if "[[gate]]" in p.read_text())
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())


def five_linkers(cfg: Path, mode: str) -> None:
    """Every gate under all five linkers, in *mode*."""
    text = re.sub(r"^linkers = .*\n", "", cfg.read_text(), flags=re.M)
    text = text.replace("[[gate]]\n", f'[[gate]]\nlinkers = {json.dumps(ALL)}\nlinker-matrix = "{mode}"\n')
    cfg.write_text(text)


def run_doc(ws: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    import jsonschema

    monkeypatch.chdir(ws)
    main(["run", "-q", "--no-history", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return doc


def judged(doc: dict) -> dict[tuple[str, str], tuple[str, list[str]]]:
    return {(r["gate"], r["linker"]): (r["verdict"], sorted({d["kind"] for d in r["diagnostics"]}))
            for r in doc["results"]}


def test_every_gated_fixture_exists():
    assert {"ccsys", "zngsys", "recipes/ws", "ci/repo"} <= set(GATED)


@pytest.mark.parametrize("fixture", GATED)
def test_fixture_same_verdicts_in_both_modes(fixture, tmp_path, monkeypatch, capsys):
    docs = {}
    for mode in ("rebuild", "replay"):
        ws = tmp_path / mode
        shutil.copytree(FIXTURES / fixture, ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
        five_linkers(ws / "linkgate.toml", mode)
        docs[mode] = run_doc(ws, monkeypatch, capsys)
    assert judged(docs["replay"]) == judged(docs["rebuild"])
    for r in docs["replay"]["results"]:
        if r["command"][:1] == ["cargo"] and r["linker"] != "default" and r["verdict"] == "linked":
            # Really relinked from the first linker's build, and proven by the file's own marks.
            assert r["matrix"] == {"mode": "replay", "built_with": "default", "replayed": True, "fallback": None}
            assert r["units_compiled"] == 0 and r["proven"]
            assert r["proof"] and all(p["names_linker"] and p["new"] for p in r["proof"]), r["proof"]
            assert all(f"/{r['linker']}/linkgate-matrix/" in a["path"] for a in r["linked"])


def _prove(ws: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> dict:
    monkeypatch.chdir(ws)
    main(["prove", "-q", "--allow-dirty", "--no-history", "--format", "json"])
    return json.loads(capsys.readouterr().out)


def test_demo_defects_same_outcomes_in_both_modes(tmp_path, monkeypatch, capsys):
    from linkgate.commands.demo import CONTROLS

    got = {}
    for mode in ("rebuild", "replay"):
        ws = copy_demo(tmp_path / mode)
        (ws / "linkgate.toml").write_text((ws / "linkgate.toml").read_text() + CONTROLS)
        five_linkers(ws / "linkgate.toml", mode)
        doc = _prove(ws, monkeypatch, capsys)
        got[mode] = {(c["name"], c["linker"]): (c["outcome"], sorted({d["kind"] for d in c["mutated"]["diagnostics"]}))
                     for c in doc["controls"]}
        if mode == "replay":
            relinked = [c for c in doc["controls"] if c["linker"] != "default"]
            assert all("relinked" in " ".join(c["mutated"]["messages"]) for c in relinked), relinked
    assert got["replay"] == got["rebuild"]
    # The demo's point survives: rust-lld, lld and mold accept the archive order, GNU ld and gold do not.
    assert {ln for (name, ln), (outcome, _) in got["replay"].items()
            if name == "archive-order" and outcome == "caught"} == {"bfd", "gold"}


def test_a_build_script_reading_rustflags_falls_back_with_its_reason(tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "ccsys", ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    five_linkers(ws / "linkgate.toml", "replay")
    script = ws / "zsys" / "build.rs"
    script.write_text(script.read_text().replace(
        "fn main() {", 'fn main() {\n    let _flags = std::env::var("CARGO_ENCODED_RUSTFLAGS");', 1))
    doc = run_doc(ws, monkeypatch, capsys, "--linker", "default", "--linker", "mold")
    mold = {r["linker"]: r for r in doc["results"]}["mold"]
    assert mold["verdict"] == "linked" and mold["units_compiled"] > 0
    assert mold["matrix"]["replayed"] is False
    assert "zsys" in mold["matrix"]["fallback"] and "CARGO_ENCODED_RUSTFLAGS" in mold["matrix"]["fallback"]
    assert "build.rs:16" in mold["matrix"]["fallback"]
    monkeypatch.chdir(ws)
    main(["run", "-q", "--no-history", "--linker", "default", "--linker", "mold"])
    human = capsys.readouterr().out
    assert "linker-matrix: built in its own target directory" in human and "CARGO_ENCODED_RUSTFLAGS" in human


def test_replay_and_sweep_read_a_relinked_linkers_recording(tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "ccsys", ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    five_linkers(ws / "linkgate.toml", "replay")
    doc = run_doc(ws, monkeypatch, capsys, "--linker", "default", "--linker", "mold")
    assert {r["linker"]: r["matrix"]["replayed"] for r in doc["results"]} == {"default": False, "mold": True}
    assert main(["replay", "calls", "--linker", "mold", "--format", "json"]) == 0
    replayed = json.loads(capsys.readouterr().out)["results"][0]
    assert replayed["verdict"] == "linked" and replayed["linker"] == "mold"
    assert main(["sweep", "calls", "--linker", "mold", "-q", "--format", "json"]) == 0
    swept = json.loads(capsys.readouterr().out)
    assert swept["directives"] and all(set(d["linkers"]) == {"mold"} for d in swept["directives"]), swept


def test_a_default_the_configuration_points_elsewhere_is_overridden_and_bfd_still_proven(tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "ccsys", ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]\n',
                                           'linkers = ["default", "bfd"]\nenv = { RUSTFLAGS = "-Clink-arg=-fuse-ld=mold" }\n'))
    doc = run_doc(ws, monkeypatch, capsys)
    res = {r["linker"]: r for r in doc["results"]}
    assert res["default"]["verdict"] == "linker-overridden" and not res["default"]["proven"]
    assert "environment variable RUSTFLAGS sets -Clink-arg=-fuse-ld=mold" in res["default"]["messages"][0]
    assert any(m["family"] == "mold" for p in res["default"]["proof"] for m in p["marks"]), res["default"]["proof"]
    assert res["bfd"]["matrix"]["replayed"] and res["bfd"]["proven"]
    assert all(p["names_linker"] and p["marks"] == [] for p in res["bfd"]["proof"])


def test_a_warm_run_that_links_nothing_relinks_the_other_linkers_own_last_relinks(tmp_path, monkeypatch, capsys):
    # The second run links nothing under default (--no-force-link, all fresh): bfd relinks
    # its own last relinks, whose kept inputs must outlive the pruning of older ones.
    ws = copy_demo(tmp_path / "ws")
    doc = run_doc(ws, monkeypatch, capsys)
    assert [(r["linker"], r["verdict"], r["matrix"]["replayed"]) for r in doc["results"]] == [
        ("default", "linked", False), ("bfd", "linked", True)]
    for _ in range(2):
        doc = run_doc(ws, monkeypatch, capsys, "--no-force-link")
        bfd = doc["results"][1]
        assert (bfd["linker"], bfd["verdict"], bfd["matrix"]["replayed"], bfd["matrix"]["fallback"]) == (
            "bfd", "linked", True, None), bfd


def test_a_tree_that_does_not_compile_is_built_once_not_under_every_linker(tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "ccsys", ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    five_linkers(ws / "linkgate.toml", "replay")
    lib = ws / "app" / "src" / "lib.rs"
    lib.write_text(lib.read_text() + "\npub fn broken() -> u32 { \"not a number\" }\n")
    doc = run_doc(ws, monkeypatch, capsys, "--linker", "default", "--linker", "bfd", "--linker", "mold")
    by = {r["linker"]: r for r in doc["results"]}
    assert {ln: r["verdict"] for ln, r in by.items()} == dict.fromkeys(("default", "bfd", "mold"), "compile-failed")
    for ln in ("bfd", "mold"):
        assert by[ln]["matrix"]["built_with"] == "default" and by[ln]["matrix"]["replayed"] is False
        assert "failed to compile" in by[ln]["matrix"]["fallback"]
        assert f"linkgate run calls --linker {ln}" in by[ln]["messages"][0]
        # Nothing was compiled again in their own target directories.
        assert not (ws / "target" / "linkgate" / "calls" / ln / "debug").exists()
        assert not (ws / "target" / "linkgate" / "calls" / ln / "release").exists()

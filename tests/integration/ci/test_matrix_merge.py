"""Fan-out: `matrix` plans the legs, `run --only` runs one, `report merge` joins them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

DROP_UTIL = ('    "-lnutil",\n', "")


def run_leg(ws: Path, pair: str, out: Path) -> int:
    return main(["run", "--only", pair, "--format", "json", "--output", str(out), "-q"])


def test_matrix_lists_every_gate_linker_pair(demo_workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(demo_workspace)
    assert main(["matrix"]) == 0
    assert json.loads(capsys.readouterr().out) == {"include": [
        {"gate": "smoke", "linker": "default", "runs-on": "ubuntu-latest"},
        {"gate": "smoke", "linker": "bfd", "runs-on": "ubuntu-latest"},
    ]}


def test_merge_of_three_legs_with_one_link_failure(demo_workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], edit, tmp_path: Path) -> None:
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    legs = tmp_path / "legs"
    legs.mkdir()
    assert run_leg(demo_workspace, "smoke:default", legs / "default.json") == 0
    assert run_leg(demo_workspace, "smoke:bfd", legs / "bfd.json") == 0
    doc = json.loads((legs / "bfd.json").read_text())
    assert [(r["gate"], r["linker"]) for r in doc["results"]] == [("smoke", "bfd")]
    # A third leg, elsewhere, where the recipe is broken.
    edit(demo_workspace / "build.rs", *DROP_UTIL)
    assert run_leg(demo_workspace, "smoke:bfd", legs / "broken.json") == 1
    broken = json.loads((legs / "broken.json").read_text())
    broken["results"][0]["gate"] = "smoke-broken"
    (legs / "broken.json").write_text(json.dumps(broken))
    capsys.readouterr()
    files = [str(legs / n) for n in ("default.json", "bfd.json", "broken.json")]
    assert main(["report", "merge", *files, "--format", "json"]) == 1
    merged = json.loads(capsys.readouterr().out)
    assert merged["schema"] == "linkgate.run/1" and merged["status"] == "fail"
    assert [(r["gate"], r["linker"], r["verdict"]) for r in merged["results"]] == [
        ("smoke", "default", "linked"), ("smoke", "bfd", "linked"), ("smoke-broken", "bfd", "link-failed")]
    assert main(["report", "merge", *files[:2]]) == 0
    out = capsys.readouterr().out
    assert "smoke" in out and "PASS" in out


def test_a_missing_leg_is_an_error_not_a_pass(demo_workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    assert run_leg(demo_workspace, "smoke:default", tmp_path / "default.json") == 0
    capsys.readouterr()
    # A leg file named but absent.
    assert main(["report", "merge", str(tmp_path / "default.json"), str(tmp_path / "bfd.json")]) == 2
    assert "bfd.json: leg report does not exist" in capsys.readouterr().err
    # A leg that never uploaded anything: only the plan knows it existed.
    assert main(["matrix"]) == 0
    plan = capsys.readouterr().out
    assert main(["report", "merge", str(tmp_path / "default.json"), "--expect", plan, "--format", "json"]) == 3
    merged = json.loads(capsys.readouterr().out)
    assert merged["status"] == "fail"
    missing = [r for r in merged["results"] if r["linker"] == "bfd"]
    assert missing and missing[0]["verdict"] == "error" and "leg missing" in missing[0]["messages"][0]


def test_only_rejects_pairs_the_config_does_not_have(demo_workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(demo_workspace)
    assert main(["run", "--only", "smoke:mold"]) == 2
    assert "does not link with 'mold'" in capsys.readouterr().err
    assert main(["run", "--only", "smoke"]) == 2
    assert "expected GATE:LINKER" in capsys.readouterr().err
    assert main(["run", "--only", "nope:bfd"]) == 2


def test_merge_refuses_a_document_that_is_not_a_run_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"schema": "linkgate.prove/1", "controls": []}')
    assert main(["report", "merge", str(bad)]) == 2
    assert "not a linkgate.run/1 document" in capsys.readouterr().err


def test_merge_refuses_a_pair_reported_twice_and_a_result_without_gate_or_linker(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    leg = tmp_path / "default.json"
    assert run_leg(demo_workspace, "smoke:default", leg) == 0
    copy = tmp_path / "default-again.json"
    copy.write_text(leg.read_text())
    capsys.readouterr()
    # The same leg twice had merged as "2 of 2 (gate, linker) pairs linked" with bfd never run.
    assert main(["report", "merge", str(leg), str(copy)]) == 2
    err = capsys.readouterr().err
    assert "smoke [default] is reported again" in err and str(leg) in err
    assert main(["report", "merge", str(leg), str(leg)]) == 2
    capsys.readouterr()
    for results in ("[{}]", "[5]", '[{"gate": "smoke", "linker": 3, "verdict": "linked"}]'):
        bad = tmp_path / "bad.json"
        bad.write_text('{"schema": "linkgate.run/1", "status": "pass", "results": ' + results + "}")
        assert main(["report", "merge", str(bad), "--expect", '{"include": []}']) == 2
        err = capsys.readouterr().err
        assert "results[0] is not a (gate, linker) result" in err and "internal error" not in err



BAD_FIELDS = [
    ("diagnostics", [5]), ("diagnostics", None), ("linked", 5), ("linked", [{"path": 3}]), ("messages", "x"),
    ("duration_s", "x"), ("duration_s", float("inf")), ("proven", "yes"), ("failed_targets", [None]),
    ("verdict", "weird"), ("diagnostics", [{"kind": "undefined-symbol", "message": "m", "hint": 5}]),
    ("diagnostics", [{"kind": "undefined-symbol", "message": "m", "directives": [{"key": "k"}]}]),
]


def test_merge_refuses_a_leg_result_it_could_not_render(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """Each field the reports read, wrong in a real leg's document, is one message (exit 2) in
    every format; it was an internal error (KeyError, AttributeError) or a crash in a renderer."""
    git_repo(demo_workspace)
    monkeypatch.chdir(demo_workspace)
    leg = tmp_path / "default.json"
    assert run_leg(demo_workspace, "smoke:default", leg) == 0
    bad = tmp_path / "bad.json"
    for fmt in ("human", "json", "markdown", "github", "junit", "sarif"):
        assert main(["report", "merge", str(leg), "--format", fmt]) == 0  # as written by run: merged
        for key, value in BAD_FIELDS:
            doc = json.loads(leg.read_text())
            doc["results"][0][key] = value
            bad.write_text(json.dumps(doc))
            capsys.readouterr()
            assert main(["report", "merge", str(bad), "--format", fmt]) == 2, (key, value, fmt)
            err = capsys.readouterr().err
            assert f"bad.json: results[0].{key}" in err and "internal error" not in err, (key, value, fmt)


@pytest.mark.parametrize("plan", ['{"include": [{}]}', '{"include": [5]}', '{"include": [{"gate": 1, "linker": []}]}'])
def test_merge_refuses_a_plan_whose_legs_are_not_gate_and_linker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], plan: str) -> None:
    leg = tmp_path / "leg.json"
    leg.write_text('{"schema": "linkgate.run/1", "status": "fail", "results": []}')
    assert main(["report", "merge", str(leg), "--expect", plan]) == 2
    err = capsys.readouterr().err
    assert "--expect: include[0] is not a {gate, linker} leg" in err and "internal error" not in err

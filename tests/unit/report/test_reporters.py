from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from linkgate.cli import main
from linkgate.report import Case, Finding, Report, render

FIXTURES = Path(__file__).parents[2] / "fixtures"
SCHEMA = json.loads((FIXTURES / "report" / "sarif-2.1.0-rtm.5.json").read_text())
CORPUS = FIXTURES / "linker-output"


def _report() -> Report:
    return Report(
        command="run",
        document={"schema": "x"},
        findings=[
            Finding("dso-missing", "error", "dso-missing: dep_fn\nld: DSO missing", "target/debug/build/p-1/output", 3, "add -ldep"),
            Finding("never-linked", "warning", "gate has, commas: and colons", None, None),
            Finding("note-rule", "note", "100% fine", "/elsewhere/x.rs", None),
        ],
        cases=[
            Case("gate app", "gnu-ld", ok=False, message="link failed", details="long log"),
            Case("gate app", "lld", ok=True, duration_s=1.5),
            Case("gate other", "mold", ok=True, skipped=True, message="mold not installed"),
        ],
    )


def test_sarif_validates_against_the_official_schema() -> None:
    doc = json.loads(render(_report(), "sarif"))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    results = doc["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["dso-missing", "never-linked", "note-rule"]
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert "locations" not in results[1]


def test_sarif_schema_rejects_a_broken_document() -> None:
    # Proves the validation above can fail.
    doc = json.loads(render(_report(), "sarif"))
    doc["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_junit_one_case_per_gate_and_linker() -> None:
    root = ET.fromstring(render(_report(), "junit"))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"gate app", "gate other"}
    cases = {(s, c.get("name")): c for s, suite in suites.items() for c in suite.iter("testcase")}
    assert cases[("gate app", "gnu-ld")].find("failure") is not None
    assert cases[("gate app", "lld")].find("failure") is None
    assert cases[("gate other", "mold")].find("skipped") is not None
    assert root.get("failures") == "1" and root.get("tests") == "3"


def test_github_annotations_escape_and_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = render(_report(), "github").splitlines()
    assert out[0] == (
        "::error file=target/debug/build/p-1/output,line=3,title=linkgate dso-missing::"
        "dso-missing: dep_fn%0Ald: DSO missing%0Ahint: add -ldep"
    )
    assert out[1] == "::warning title=linkgate never-linked::gate has, commas: and colons"
    assert out[2].startswith("::notice file=/elsewhere/x.rs,title=linkgate note-rule::100%25 fine")
    text = summary.read_text()
    assert text.startswith("earlier step\n") and "dso-missing" in text


def test_explain_cli_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = CORPUS / "gnu-ld" / "dso-missing.txt"
    assert main(["explain", "--format", "json", str(log)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "linkgate.explain/1"
    assert [(d["kind"], d["symbol"]) for d in doc["diagnostics"]] == [("dso-missing", "dep_fn")]
    out = tmp_path / "r.sarif"
    assert main(["explain", "--format", "sarif", "--output", str(out), str(log)]) == 1
    jsonschema.Draft4Validator(SCHEMA).validate(json.loads(out.read_text()))
    clean = tmp_path / "clean.log"
    clean.write_text("   Compiling foo v0.1.0\n    Finished dev profile\n")
    assert main(["explain", str(clean)]) == 0
    assert main(["explain", str(tmp_path / "missing.log")]) == 2


def test_explain_human_highlights_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(CORPUS / "cargo" / "dso-missing.gnu-ld.human.txt")]) == 1
    out = capsys.readouterr().out
    assert "dso-missing" in out and "undefined reference to symbol 'dep_fn'" in out and "-ldep" in out

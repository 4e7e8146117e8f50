"""`linkgate audit` end to end on the fixture repository (tests/fixtures/audit/repo)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "repo"

# (file, line, job, subcommand, links, feature sets, profile) for every invocation.
EXPECTED = [
    (".github/workflows/check.yml", 12, "check", "check", False, ["a,b"], "dev"),
    (".github/workflows/check.yml", 15, "check", "clippy", False, ["a,b"], "dev"),
    (".github/workflows/check.yml", 19, "fmt", "fmt", False, ["default"], "dev"),
    (".github/workflows/hack.yml", 8, "powerset", "check", False, ["default", "a", "b", "metal"], "dev"),
    (".github/workflows/matrix.yml", 22, "test", "test", True, ["default"], "dev"),
    (".github/workflows/matrix.yml", 22, "test", "test", True, ["b"], "dev"),
    (".github/workflows/matrix.yml", 22, "test", "test", True, ["b"], "release"),
    (".github/workflows/matrix.yml", 22, "test", "test", True, ["metal"], "dev"),
    ("scripts/smoke.sh", 4, "smoke", "build", True, ["default"], "release"),
    (".github/workflows/nightly.yml", 10, "release-link", "build", True, ["a"], "release"),
    ("Makefile", 10, "verify", "clippy", False, ["metal"], "dev"),
    ("Makefile", 7, "verify", "test", True, ["metal"], "dev"),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURE, dest)
    return dest


def audit_json(repo: Path, *extra: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = repo.parent / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out), *extra])
    return rc, json.loads(out.read_text())


def test_every_invocation_with_classification_and_location(repo: Path) -> None:
    rc, doc = audit_json(repo)
    assert doc["schema"] == "linkgate.audit/1"
    got = [(i["file"], i["line"], i["job"], i["subcommand"], i["links"], i["feature_sets"], i["profile"])
           for i in doc["invocations"]]
    assert got == EXPECTED
    assert rc == 1


def test_details_of_matrix_make_and_hack_invocations(repo: Path) -> None:
    _, doc = audit_json(repo)
    inv = doc["invocations"]
    assert [i["matrix"] for i in inv[4:8]] == [
        {"features": "", "profile": "dev"},
        {"features": "b", "profile": "dev"},
        {"features": "b", "profile": "release"},
        {"features": "metal", "profile": "dev"},
    ]
    make_test = inv[11]
    assert make_test["via"] == [".github/workflows/nightly.yml:15 make verify", "Makefile:7 (verify)"]
    assert make_test["argv"] == ["cargo", "test", "--no-run", "--features", "metal"]
    assert make_test["self_hosted"] and make_test["timeout_minutes"] == "60"
    assert make_test["trigger"]["events"] == ["schedule"]
    assert inv[3]["hack"] == "each-feature"
    assert inv[1]["targets"] == ["--all-targets"] and inv[8]["targets"] == ["--bins"]
    assert inv[8]["via"] == [".github/workflows/matrix.yml:26 ./scripts/smoke.sh", "scripts/smoke.sh:4"]


def test_findings_survive_an_invalid_workflow(repo: Path) -> None:
    _, doc = audit_json(repo)
    assert [(f["rule"], f["level"], f["file"], f["line"], f["subject"]) for f in doc["findings"]] == [
        ("invalid-workflow", "error", ".github/workflows/broken.yml", 8, ""),
        ("never-linked", "error", ".github/workflows/check.yml", 12, "a,b"),
        ("link-only-on-schedule", "warning", ".github/workflows/nightly.yml", 10, "a"),
    ]


def test_ignores_with_reasons_and_exit_code(repo: Path) -> None:
    (repo / ".github" / "workflows" / "broken.yml").unlink()
    (repo / "linkgate.toml").write_text(
        '[[gate]]\nname = "g"\ncargo = ["build"]\n\n'
        "[[audit.ignore]]\n"
        'finding = "never-linked"\nmatch = "^a,b$"\nreason = "a,b is linked by the release pipeline"\n'
    )
    rc, doc = audit_json(repo)
    assert [f["rule"] for f in doc["findings"]] == ["link-only-on-schedule"]
    assert [(f["rule"], f["reason"]) for f in doc["ignored"]] == [
        ("never-linked", "a,b is linked by the release pipeline")
    ]
    assert rc == 0


def test_misspelt_rule_in_configuration_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "linkgate.toml").write_text(
        '[[gate]]\nname = "g"\ncargo = ["build"]\n\n[audit.severity]\nnever-linkd = "off"\n'
    )
    assert main(["audit", "--repo", str(repo)]) == 2
    assert "did you mean 'never-linked'?" in capsys.readouterr().err


def test_human_table_and_markdown(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = repo.parent / "audit.txt"
    assert main(["audit", "--repo", str(repo), "--output", str(out)]) == 1
    text = out.read_text()
    assert "feature set" in text and "nightly/release-link" in text
    assert "never-linked" in text and "check.yml:12" in text
    md = repo.parent / "audit.md"
    main(["audit", "--repo", str(repo), "--format", "markdown", "--output", str(md)])
    lines = md.read_text().splitlines()
    assert "| `fixture: a,b` | check/check | check/check | - | - | - |" in lines  # rows per package
    assert any(line.startswith("| error | `never-linked` | `.github/workflows/check.yml:12` |") for line in lines)


@pytest.mark.parametrize("fmt", ["github", "junit", "sarif"])
def test_annotation_formats_name_the_finding(repo: Path, fmt: str) -> None:
    if importlib.util.find_spec(f"linkgate.report.{fmt}") is None:
        pytest.skip(f"the {fmt} reporter is not in this tree yet")
    out = repo.parent / f"audit.{fmt}"
    assert main(["audit", "--repo", str(repo), "--format", fmt, "--output", str(out)]) == 1
    text = out.read_text()
    assert "never-linked" in text and "check.yml" in text

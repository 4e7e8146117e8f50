"""A divergence in every place a run's findings go: Markdown, SARIF, GitHub
annotations and step summary, `report merge`, `explain` of the run's document,
the history (written by the run and imported) and `report html`.

tests/fixtures/ltosys under [default, bfd]: GNU ld's LTO plugin inlines
`helper`, rust-lld links it as its own function (real cargo, gcc, rust-lld and
GNU ld); the default leg also carries `lto-skipped`.
"""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ltosys"
DETAIL = "defined functions: 1 only under default (helper)"


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run's outputs in each format, its JSON document and its history."""
    base = tmp_path_factory.mktemp("reports")
    root = base / "ws"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    out: dict[str, Any] = {"base": base}
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.setenv("GITHUB_STEP_SUMMARY", str(base / "summary.md"))
        assert main(["run", "-q", "--history", str(base / "h.sqlite"), "-f", "json", "-o", str(base / "run.json")]) == 0
        for fmt, name in (("markdown", "run.md"), ("sarif", "run.sarif"), ("github", "run.github")):
            assert main(["run", "-q", "--no-history", "-f", fmt, "-o", str(base / name)]) == 0
            out[fmt] = (base / name).read_text()
        toml = root / "linkgate.toml"
        toml.write_text(toml.read_text() + 'divergence = "fail"\n')
        assert main(["run", "-q", "--no-history", "-f", "json", "-o", str(base / "fail.json")]) == 1
    out["doc"] = json.loads((base / "run.json").read_text())
    return out


def test_markdown_has_a_block_per_target(ran):
    md = ran["markdown"]
    assert "<details><summary>app [bfd]: `app` differs from default</summary>" in md
    assert f"- **functions**: `{DETAIL}`" in md


def test_sarif_and_github_carry_it_as_a_warning(ran):
    (result,) = [r for r in json.loads(ran["sarif"])["runs"][0]["results"] if r["ruleId"] == "divergence"]
    assert result["level"] == "warning" and DETAIL in result["message"]["text"]
    (line,) = [ln for ln in ran["github"].splitlines() if "title=linkgate divergence" in ln]
    assert line.startswith("::warning ") and f"app [bfd]: app differs from its default link: {DETAIL}" in line
    # The step summary is the Markdown report, divergence block included.
    assert "differs from default</summary>" in (ran["base"] / "summary.md").read_text()


def test_report_merge_keeps_it_and_fails_under_fail(ran, capsys):
    base = ran["base"]
    assert main(["report", "merge", "-f", "github", str(base / "run.json")]) == 0
    assert "::warning title=linkgate divergence::" in capsys.readouterr().out
    assert main(["report", "merge", "-f", "github", str(base / "fail.json")]) == 1
    assert f"::error title=linkgate divergence::app [bfd]: app differs from its default link: {DETAIL}" \
        in capsys.readouterr().out
    bad = json.loads((base / "run.json").read_text())
    bad["results"][1]["divergence"] = [{"kind": "functions", "target": "app", "detail": DETAIL}]
    (base / "bad.json").write_text(json.dumps(bad))
    assert main(["report", "merge", str(base / "bad.json")]) == 2
    assert "results[1].divergence: not a list of {kind, target, linkers (two), detail, level}" in capsys.readouterr().err


def test_explain_reads_a_run_document(ran, capsys):
    base = ran["base"]
    assert main(["explain", str(base / "run.json")]) == 1
    human = capsys.readouterr().out
    assert "differs from default: app" in human and DETAIL in human and "lto-skipped" in human
    assert "2 finding(s) in the run document" in human
    assert main(["explain", "-f", "json", str(base / "run.json")]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "linkgate.explain/1"
    assert [(d["gate"], d["linker"], d["kind"]) for d in doc["diagnostics"]] == [("app", "default", "lto-skipped")]
    assert [(d["gate"], d["linker"], d["kind"], d["only_first"]) for d in doc["divergence"]] == [
        ("app", "bfd", "functions", ["helper"])]
    # Not a run document after all (its results are not results): read as a log, nothing found.
    (base / "odd.json").write_text('{"schema": "linkgate.run/1", "results": [1]}\n')
    assert main(["explain", "-f", "json", str(base / "odd.json")]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == []


class _Blocks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[dict[str, str]] = []
        self.kinds: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "div" and a.get("class") == "divergence":
            self.blocks.append(a)
        if tag == "li" and "data-kind" in a:
            self.kinds.append(a["data-kind"])

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _html(history: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> _Blocks:
    assert main(["report", "html", "--history", str(history), "-o", str(out)]) == 0
    capsys.readouterr()
    page = _Blocks()
    page.feed(out.read_text())
    return page


def test_history_and_html_report_show_it(ran, capsys, monkeypatch):
    base = ran["base"]
    monkeypatch.chdir(base / "ws")
    page = _html(base / "h.sqlite", base / "report.html", capsys)
    assert page.blocks == [{"class": "divergence", "data-gate": "app", "data-linker": "bfd", "data-target": "app"}]
    assert page.kinds == ["functions"]
    text = " ".join(page.text)
    assert "app: app under bfd differs from default" in text and DETAIL in text
    # Imported from the run's document into another history: the same block.
    monkeypatch.setenv("LINKGATE_HISTORY", str(base / "imported.sqlite"))
    assert main(["history", "import", str(base / "run.json")]) == 0
    assert _html(base / "imported.sqlite", base / "imported.html", capsys).kinds == ["functions"]


def test_explain_refuses_a_run_document_past_32_mib(tmp_path, capsys):
    big = tmp_path / "big.json"
    with big.open("w") as fh:
        fh.write('{"schema": "linkgate.run/1", "results": [], "pad": "')
        fh.write("x" * (32 * 1024 * 1024))
        fh.write('"}\n')
    assert main(["explain", str(big)]) == 2
    err = capsys.readouterr().err
    assert "begins as a linkgate.run/1 document but is larger than 32 MiB" in err and "Traceback" not in err


def test_junit_fails_the_leg_that_fails_the_gate(ran, capsys, monkeypatch):
    import xml.etree.ElementTree as ET

    base = ran["base"]
    assert main(["report", "merge", "-f", "junit", str(base / "run.json")]) == 0
    cases = {c.get("name"): c for c in ET.fromstring(capsys.readouterr().out).iter("testcase")}
    assert all(c.find("failure") is None for c in cases.values())
    assert main(["report", "merge", "-f", "junit", str(base / "fail.json")]) == 1
    cases = {c.get("name"): c for c in ET.fromstring(capsys.readouterr().out).iter("testcase")}
    assert cases["app [default]"].find("failure") is None
    assert cases["app [bfd]"].find("failure") is not None
    monkeypatch.chdir(base / "ws")  # its linkgate.toml sets divergence = "fail"
    assert main(["run", "-q", "--no-history", "-f", "junit", "-o", str(base / "run.xml")]) == 1
    (bfd,) = [c for c in ET.parse(base / "run.xml").iter("testcase") if c.get("name") == "app [bfd]"]
    failure = bfd.find("failure")
    assert failure is not None and "the gate fails it" in failure.get("message", "")
    assert DETAIL in (failure.text or "")

"""`coverage` and `report html` before any run: nothing recorded, nothing created."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.cli import main

CONFIG = ('[[gate]]\nname = "g"\ncommand = ["make"]\nenv = { A = "1" }\n\n'
          '[[recipe]]\nname = "a"\nwhen-env = ["A"]\nfile = "build.rs"\nline = 3\n\n'
          '[[recipe]]\nname = "win"\nwhen-target = "*-windows-*"\n')


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "linkgate.toml").write_text(CONFIG)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    return tmp_path


def test_coverage_reads_a_missing_history_as_empty_without_creating_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coverage", "--format", "json", "--history", "typo.sqlite"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["status"], r["selected_by"]) for r in doc["recipes"]] == [
        ("a", "never-linked", ["g"]), ("win", "never-selected", [])]
    assert not (repo / "typo.sqlite").exists() and not (repo / ".linkgate").exists()
    assert main(["coverage", "--comment"]) == 0
    out = capsys.readouterr().out
    assert "- `a` (`build.rs:3`): never-linked:" in out and "- `win`: never-selected:" in out


def test_report_html_before_any_run(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "html"]) == 0
    page = repo / ".linkgate" / "report.html"
    assert capsys.readouterr().out == f"wrote {page}\n"
    text = page.read_text()
    assert "No recorded runs yet" in text and 'data-recipe="win"' in text
    assert not (repo / ".linkgate" / "history.sqlite").exists()


def test_suggest_and_comment_exclude_each_other(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--suggest", "--comment"]) == 2
    assert "exclude each other" in capsys.readouterr().err

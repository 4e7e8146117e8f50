"""`linkgate run --linker L`: gates without L are named, never skipped in silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import LINK_SH, git_repo, toml_str

from linkgate.cli import main

CONFIG = (
    f'[[gate]]\nname = "app-link"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\nlinkers = ["default", "gold"]\n\n'
    f'[[gate]]\nname = "tool-link"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\n\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "linkgate.toml").write_text(CONFIG)
    git_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_gates_without_the_linker_are_named(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "-q", "--no-history", "--linker", "gold", "--format", "json"])
    captured = capsys.readouterr()
    assert rc == 0
    assert [(r["gate"], r["linker"]) for r in json.loads(captured.out)["results"]] == [("app-link", "gold")]
    assert ("linkgate: note: skipped gate 'tool-link': it does not link with 'gold' (its linkers: default)"
            in captured.err)
    assert "app-link" not in captured.err


def test_no_selected_gate_with_the_linker_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--no-history", "--linker", "mold"]) == 2
    err = capsys.readouterr().err
    assert "no selected gate links with 'mold'" in err
    assert "gate 'app-link' links with default, gold; gate 'tool-link' links with default" in err
    # Only the named gates count: tool-link alone has no gold.
    assert main(["run", "-q", "--no-history", "--linker", "gold", "tool-link"]) == 2
    assert "no selected gate links with 'gold'" in capsys.readouterr().err

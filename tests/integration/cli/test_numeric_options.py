"""Numeric options are finite and above zero."""

from __future__ import annotations

from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "0", "-1", "thirty"])
def test_budget_must_be_a_finite_positive_number(value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    assert main(["cost", "--budget-minutes-per-pr", value]) == 2
    err = capsys.readouterr().err
    assert "--budget-minutes-per-pr" in err
    assert "is not a finite number above zero" in err or "is not a valid float" in err


def test_a_finite_budget_is_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "linkgate.toml").write_text('[[gate]]\nname = "app"\ncommand = ["true"]\n')
    git_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    assert main(["cost", "--budget-minutes-per-pr", "12.5"]) == 0

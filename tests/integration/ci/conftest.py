"""The `repo` fixture of the `ci github` tests: the fixture workspace as a real git repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lgtest import git, git_repo

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ci" / "repo"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    git(root, "remote", "add", "origin", "git@github.com:rtlab/rtcore.git")
    monkeypatch.chdir(root)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    return root

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gitrepo import git


@pytest.fixture
def repo(tmp_path: Path) -> Callable[..., Path]:
    """A git repository with `files` committed on main, then `branch` changes on topic."""

    def make(files: dict[str, str], branch: dict[str, str | None], config: str) -> Path:
        root = tmp_path / "repo"
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        for name, text in {**files, "linkgate.toml": config}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        git(root, "add", "-A")
        git(root, "commit", "-qm", "base")
        git(root, "checkout", "-qb", "topic")
        for name, text in branch.items():
            if text is None:
                git(root, "rm", "-q", name)
                continue
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
            git(root, "add", name)
        git(root, "commit", "-q", "--allow-empty", "-m", "change")
        return root

    return make

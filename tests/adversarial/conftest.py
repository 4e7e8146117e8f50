from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, Path]:
    """(outside, repo): a directory holding a sentinel file and the repository."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sentinel.txt").write_text("must stay\n")
    repo = outside / "repo"
    repo.mkdir()
    return outside, repo

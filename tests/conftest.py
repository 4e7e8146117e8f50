from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[1] / "src" / "linkgate" / "data" / "demo"


@pytest.fixture
def demo_workspace(tmp_path: Path) -> Path:
    """A fresh copy of the embedded demo workspace (a native link recipe)."""
    dest = tmp_path / "ws"
    shutil.copytree(DEMO, dest, ignore=shutil.ignore_patterns("target"))
    return dest


@pytest.fixture
def edit() -> Callable[[Path, str, str], None]:
    def _edit(path: Path, old: str, new: str) -> None:
        text = path.read_text()
        assert old in text, f"{old!r} not in {path}"
        path.write_text(text.replace(old, new, 1))

    return _edit


from __future__ import annotations

from pathlib import Path

import pytest
from demotest import ring_workspace_at


@pytest.fixture
def ring_workspace(tmp_path: Path) -> Path:
    """The demo plus two mutually dependent archives and an extra -lc (see demotest)."""
    return ring_workspace_at(tmp_path / "ws")

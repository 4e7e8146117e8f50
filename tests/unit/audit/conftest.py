from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linkgate.audit.model import AuditResult
from linkgate.audit.run import run_audit


@pytest.fixture
def audit_repo(tmp_path: Path) -> Callable[..., AuditResult]:
    """Write workflows (name -> YAML text) and other files into a repo; audit it."""

    def make(workflows: dict[str, str], files: dict[str, str] | None = None) -> AuditResult:
        wdir = tmp_path / ".github" / "workflows"
        wdir.mkdir(parents=True, exist_ok=True)
        for name, text in workflows.items():
            (wdir / name).write_text(text)
        for rel, text in (files or {}).items():
            (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / rel).write_text(text)
        return run_audit(tmp_path)

    return make

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



@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: object) -> None:
    """A test past its time limit ends its xdist worker (pytest-timeout's thread
    method, which also stops a hang in native code), and xdist reports that only
    as a crash: say what it may have been."""
    report.longrepr = (
        f"{report.longrepr}: a segfault, or a test past its time limit (pytest-timeout, "
        "`timeout` in pyproject.toml, ends the worker); run it alone with -p no:xdist to see "
        "which, with every thread's stack"
    )

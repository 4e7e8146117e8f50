"""Every test has a time limit: a test that hangs fails the run instead of
hanging it, with xdist workers as `make test` runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def pytest_run(tmp_path: Path, body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest with the project's configuration and conftest on a generated test file, in a subprocess."""
    (tmp_path / "test_generated.py").write_text(body)
    shutil.copy2(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-p", "no:cacheprovider",
         *args, str(tmp_path / "test_generated.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)


def test_without_xdist_the_timeout_names_itself_and_shows_the_stack(tmp_path: Path) -> None:
    body = "import time\n\n\ndef test_hangs():\n    time.sleep(3600)\n"
    done = pytest_run(tmp_path, body, "-o", "timeout=3", "-p", "no:xdist")
    assert done.returncode != 0
    assert "Timeout" in done.stdout and "time.sleep(3600)" in done.stdout


def test_the_project_sets_a_limit_for_every_test(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "def test_quick():\n    pass\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "timeout: 600.0s" in done.stdout and "timeout method: thread" in done.stdout


def test_a_test_sleeping_past_the_limit_fails_the_run(tmp_path: Path) -> None:
    body = ("import time\n\n\ndef test_hangs():\n    time.sleep(3600)\n\n\n"
            "def test_after_it():\n    pass\n")
    done = pytest_run(tmp_path, body, "-o", "timeout=3", "-n", "1")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "crashed while running" in out and "::test_hangs'" in out
    assert "a test past its time limit" in out
    assert "1 failed, 1 passed" in out

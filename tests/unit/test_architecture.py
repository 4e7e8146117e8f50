"""The floors of docs/architecture.md hold: the import-linter contracts pass, and the
page names every top-level package of src/linkgate."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_architecture_page_names_every_package() -> None:
    src = ROOT / "src" / "linkgate"
    packages = {p.stem for p in src.glob("*.py") if p.stem != "__init__"}
    packages |= {p.parent.name for p in src.glob("*/__init__.py")}
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = {m.rstrip("/") for m in re.findall(r"^\| \d+ \| `([^`]+)`", page, re.M)}
    assert packages == named
    assert len(page.splitlines()) < 100

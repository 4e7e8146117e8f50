"""bench/scale.py runs in CI at N = 10 and 100 (its --quick mode): every figure is
produced and printed with its growth factor. Timings are never asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "scale.py"
MEASURES = {"run", "surface", "should-run", "coverage", "cost", "audit", "config"}


def test_scale_bench_quick_mode(tmp_path):
    out = tmp_path / "scale.json"
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert set(figures) == {"10", "100"}
    for n, row in figures.items():
        assert set(row) == MEASURES, (n, row)
        assert all(v > 0 for v in row.values()), row
    table = done.stdout.split("growth per tenfold step", 1)[1]
    for m in MEASURES:
        line = next(ln for ln in table.splitlines() if ln.startswith(m + " "))
        assert " x" in line, line  # the N = 100 column carries its growth factor

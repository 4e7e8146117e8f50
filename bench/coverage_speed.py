"""How long `linkgate coverage` and `linkgate report html` take on a history of 100,000 runs,
next to `linkgate cost` reading the same file, in one session.

Fills a fresh history with N runs (cost_speed's generator: 20 gates x 3 linkers x 4 runners),
writes a configuration naming those gates and three recipes, then times as subprocesses:

  1. linkgate cost --format json      (the sibling reader: a few columns, in SQL)
  2. linkgate coverage --format json  (every row, as RunRecords)
  3. linkgate coverage --comment
  4. linkgate report html             (the whole page; the chart keeps 400 runs per pair)

Usage: python bench/coverage_speed.py [--rows N] [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from common import LINKGATE  # noqa: E402  (byte-compiles src, drops PYTHONDONTWRITEBYTECODE)
from common import median_ms
from cost_speed import fill

RECIPES = """
[[recipe]]
name = "cuda"
when-env = ["CUDA_HOME"]

[[recipe]]
name = "dist"
when-env = ["IREE_DIST"]

[[recipe]]
name = "macos"
when-target = "*-apple-darwin"
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, cfg, page = Path(tmp) / "history.sqlite", Path(tmp) / "linkgate.toml", Path(tmp) / "report.html"
        fill(db, args.rows)
        gates = "".join(f'[[gate]]\nname = "gate-{i}"\ncommand = ["true"]\n\n' for i in range(20))
        cfg.write_text(gates + RECIPES)
        common = ["--history", str(db), "--config", str(cfg)]
        cost, _ = median_ms([*LINKGATE, "cost", "--format", "json", *common], args.runs)
        cov, doc = median_ms([*LINKGATE, "coverage", "--format", "json", *common], args.runs)
        comment, _ = median_ms([*LINKGATE, "coverage", "--comment", *common], args.runs)
        html, _ = median_ms([*LINKGATE, "report", "html", "--output", str(page), *common], args.runs)
        size = page.stat().st_size
    print(f"history rows: {args.rows}, runs: {args.runs} (medians)")
    print(f"  linkgate cost --format json      {cost:8.1f} ms  (sibling reader)")
    print(f"  linkgate coverage --format json  {cov:8.1f} ms  ({cov / cost:.2f} x cost)")
    print(f"  linkgate coverage --comment      {comment:8.1f} ms")
    print(f"  linkgate report html             {html:8.1f} ms  (page {size // 1024} KiB)")
    covered = doc.count('"status": "covered"')
    print(f"  covered recipes: {covered}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    main()

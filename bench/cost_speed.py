"""How long `linkgate cost` takes on a history of 100,000 runs, next to its floors.

Fills a fresh history file with N runs (20 gates x 3 linkers x 4 runners,
cold and warm, link and compile times), then times, end to end as
subprocesses in one session:

  1. linkgate --version                      (interpreter + CLI start-up)
  2. python: sqlite3 SELECT of the columns cost reads, fetchall  (the data floor)
  3. linkgate cost --format json             (the answer)
  4. linkgate cost --budget-minutes-per-pr 30 (human table + trigger advice)

Usage: python bench/cost_speed.py [--rows N] [--runs N]
Goal: cost under 1 s on 100,000 runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from common import LINKGATE, median_ms  # noqa: E402  (byte-compiles src, drops PYTHONDONTWRITEBYTECODE)

from linkgate.history.model import RunRecord
from linkgate.history.store import History

FLOOR = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute("SELECT gate, linker, kind, verdict, wall_s, cold, link_s, compile_s, runner, host FROM runs").fetchall()
print(len(rows))
"""


def fill(path: Path, rows: int) -> None:
    rnd = random.Random(7)
    records = []
    for i in range(rows):
        cold = rnd.random() < 0.1
        wall = rnd.uniform(600, 1000) if cold else rnd.uniform(200, 450)
        link = wall * rnd.uniform(0.05, 0.3)
        records.append(RunRecord(
            run_id=f"r{i}", kind="run" if rnd.random() < 0.95 else "prove",
            gate=f"gate-{i % 20}", linker=("default", "bfd", "mold")[i % 3],
            verdict="linked" if rnd.random() < 0.9 else "link-failed",
            started_at=f"2026-{1 + i % 12:02d}-01T00:00:00Z", wall_s=wall, commit=f"{i:040x}", branch="main",
            runner=f"runner-{i % 4}", host="h", compile_s=wall - link, link_s=link, units_rebuilt=300 if cold else 1,
            units_fresh=0 if cold else 299, cold=cold, forced_relink=not cold, recipes=("cuda",),
            directives_digest="0123456789abcdef", links=({"output": "/t/x", "seconds": link, "exit_status": 0},),
        ))
    with History.open(path) as h:
        h.add(records)



def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "history.sqlite"
        fill(db, args.rows)
        ver, _ = median_ms([*LINKGATE, "--version"], args.runs)
        floor, count = median_ms([sys.executable, "-c", FLOOR, str(db)], args.runs)
        cost, doc = median_ms([*LINKGATE, "cost", "--format", "json", "--history", str(db)], args.runs)
        human, _ = median_ms([*LINKGATE, "cost", "--budget-minutes-per-pr", "30", "--history", str(db)], args.runs)
    entries = doc.count('"gate"')
    print(f"history rows: {count.strip()}, entries: {entries}, runs: {args.runs} (medians)")
    print(f"  linkgate --version              {ver:8.1f} ms  (start-up)")
    print(f"  python + sqlite3 SELECT (floor) {floor:8.1f} ms")
    print(f"  linkgate cost --format json     {cost:8.1f} ms")
    print(f"  linkgate cost --budget ...      {human:8.1f} ms")
    print(f"  cost / floor                    {cost / floor:8.2f} x")
    print(f"  goal 1000 ms: {'met' if max(cost, human) <= 1000 else 'MISSED'}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    main()

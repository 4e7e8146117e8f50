"""What comparing the linkers' files costs: a cold five-linker run of the demo with
the comparison (divergence = "warn", the default) against the same run with it
off (divergence = "off"), alternated in one run so both see the same machine.

Each run starts from an empty target directory (cold: every crate compiled
under the first linker, relinked under the other four, linker-matrix =
"replay"), in a fresh interpreter with linkgate's judge timed inside it, the
order alternating pair by pair. Prints both medians, the
difference and its share of the run (the goal: at most 5 %), and the comparison
alone, timed in a fresh interpreter over the files the last run linked
(elf.read_linked and compare.differences), which a cold run's noise on a
shared machine can hide. lto-skipped runs in both (it needs no second linker).

Usage: python bench/divergence_cost.py [PAIRS]
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import median, workspace

FIVE = '["default", "bfd", "gold", "mold", "lld"]'


# One `linkgate run` in a fresh interpreter, as the console script runs it, with
# divergence.judge (lto-skipped, then the comparison) timed inside it: the
# judge's time in a "warn" run less that in an "off" run is what the
# comparison adds, measured in the very runs the wall times come from.
_RUN = r"""
import sys, time
import linkgate.divergence.judge as judge
spent = []
inner = judge.judge
def timed(gate, legs):
    t0 = time.perf_counter()
    inner(gate, legs)
    spent.append(time.perf_counter() - t0)
judge.judge = timed
from linkgate.cli import main
code = main(sys.argv[1:])
print(sum(spent), file=sys.stderr)
sys.exit(code)
"""


def cold_run(ws: Path, out: Path) -> tuple[float, float]:
    """Wall seconds of a cold run, and the seconds its judge took."""
    shutil.rmtree(ws / "target", ignore_errors=True)
    t0 = time.perf_counter()
    cp = subprocess.run([sys.executable, "-c", _RUN, "run", "-q", "--no-history", "--format", "json", "-o", str(out)],
                        cwd=ws, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if cp.returncode != 0:
        raise SystemExit(f"run exited {cp.returncode}:\n{cp.stderr[-2000:]}")
    return wall, float(cp.stderr.split()[-1])


# The comparison as a run adds it, in a fresh interpreter: what both runs import
# (divergence.judge, which lto-skipped needs with divergence = "off" too) before
# the clock starts; every linked file read once, each leg's compared with the
# first's. Prints the seconds, the differences found, and whether pyelftools
# was imported.
_ALONE = r"""
import json, sys, time
import linkgate.divergence.judge
t0 = time.perf_counter()
from linkgate.divergence.compare import differences
from linkgate.objects.elf import read_linked
legs = [r for r in json.loads(sys.argv[1]) if r["verdict"] == "linked"]
views = [{(a["target"], a["kind"]): read_linked(a["path"]) for a in r["linked"]} for r in legs]
found = 0
for r, view in zip(legs[1:], views[1:]):
    for key, vb in view.items():
        va = views[0].get(key)
        if va is not None and vb is not None:
            found += len(differences(key[0], legs[0]["linker"], va, r["linker"], vb))
print(time.perf_counter() - t0, found, "elftools" in sys.modules)
"""


def compare_alone(doc: dict, rounds: int = 7) -> tuple[float, int, bool]:
    """Median seconds of the comparison in a fresh interpreter, differences found,
    whether pyelftools was imported."""
    legs = json.dumps(doc["results"])
    times, found, elftools = [], 0, False
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", _ALONE, legs], capture_output=True, text=True, check=True)
        seconds, n, imported = out.stdout.split()
        times.append(float(seconds))
        found, elftools = int(n), imported == "True"
    return statistics.median(times), found, elftools


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    on = workspace(FIVE)
    off = workspace(FIVE, 'divergence = "off"\n')
    t_on, t_off, j_on, j_off = [], [], [], []
    for i in range(pairs):
        # Which goes first alternates: the second run of a pair meets the first's page cache and cleanup.
        for ws, times, judged, name in ((off, t_off, j_off, "off"), (on, t_on, j_on, "on"))[:: 1 if i % 2 == 0 else -1]:
            wall, judge_s = cold_run(ws, ws.parent / f"{name}.json")
            times.append(wall)
            judged.append(judge_s)
    doc = json.loads((on.parent / "on.json").read_text())
    files = sum(len(r["linked"]) for r in doc["results"])
    alone, found, elftools = compare_alone(doc)
    m_on, m_off = median(t_on), median(t_off)
    share = (m_on - m_off) / m_off * 100
    print(f"cold five-linker run of the demo, linker-matrix = replay ({pairs} pairs, medians)")
    print(f"  divergence = \"off\"   {m_off:7.2f} s   runs: {', '.join(f'{t:.2f}' for t in t_off)}")
    print(f"  divergence = \"warn\"  {m_on:7.2f} s   runs: {', '.join(f'{t:.2f}' for t in t_on)}")
    print(f"  difference          {m_on - m_off:+7.2f} s   ({share:+.1f} % of the run; goal <= 5 %: "
          f"{'met' if share <= 5 else 'NOT met'})")
    # On a shared machine the load drifts over minutes: the two runs of one pair
    # see nearly the same load, so the median of the pairs' own differences is
    # steadier than the difference of the medians; the fastest run of each side
    # is the one the load disturbed least.
    paired = median([b - a for a, b in zip(t_off, t_on)])
    print(f"  median of the pairs' differences {paired:+.2f} s ({paired / m_off * 100:+.1f} %); "
          f"fastest runs {min(t_off):.2f} s off, {min(t_on):.2f} s warn")
    added = median(j_on) - median(j_off)
    print(f"  inside the same runs, the judge: {median(j_off) * 1000:.0f} ms off (lto-skipped), "
          f"{median(j_on) * 1000:.0f} ms warn: the comparison adds {added * 1000:.0f} ms "
          f"({added / m_off * 100:.1f} % of the run; goal <= 5 %: {'met' if added / m_off <= 0.05 else 'NOT met'})")
    print(f"  the comparison alone, in a fresh interpreter: {alone * 1000:.0f} ms for {files} files "
          f"({alone / m_off * 100:.1f} % of the run), {found} differences found, "
          f"pyelftools {'imported' if elftools else 'not imported'}")
    for ws in (on, off):
        shutil.rmtree(ws.parent, ignore_errors=True)


if __name__ == "__main__":
    main()

"""What recording a run costs: `linkgate run` with and without the history.

On a warm demo workspace, alternate `linkgate run --no-force-link` (which
asks git for the commit and appends a row to .linkgate/history.sqlite) with
the same command plus `--no-history`, N pairs, and print the medians and the
difference. The history grows by one row per pair, as it would in use.

Usage: python bench/history_overhead.py [PAIRS]
"""

from __future__ import annotations

import sys

from common import LINKGATE, median, timed, workspace


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    ws = workspace()
    timed([*LINKGATE, "run", "-q"], ws)  # warm up: build once
    recorded, unrecorded = [], []
    for _ in range(pairs):
        recorded.append(timed([*LINKGATE, "run", "-q", "--no-force-link"], ws))
        unrecorded.append(timed([*LINKGATE, "run", "-q", "--no-force-link", "--no-history"], ws))
    added = median(recorded) - median(unrecorded)
    print(f"warm, nothing to link ({pairs} pairs, medians)")
    print(f"  linkgate run --no-history  {median(unrecorded) * 1000:8.1f} ms")
    print(f"  linkgate run (recorded)    {median(recorded) * 1000:8.1f} ms")
    print(f"  added by the history       {added * 1000:8.1f} ms  (ratio {median(recorded) / median(unrecorded):.2f}x)")


if __name__ == "__main__":
    main()

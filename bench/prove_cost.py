"""Cost of `linkgate prove` against two plain gate runs on the same warm fixture.

A control must cost at most the mutated run plus the restored run. Alternates
`linkgate prove` (one control, one linker) with two `linkgate run` calls, and
prints the medians and the ratio.

Usage: python bench/prove_cost.py [PAIRS]
"""

from __future__ import annotations

import sys

from common import LINKGATE, median, timed, workspace

CONTROL = """
[[gate.control]]
name = "drop-deep"
file = "build.rs"
delete = '^\\s*"-ldeep",'
"""


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    ws = workspace('["bfd"]', CONTROL)
    timed([*LINKGATE, "run", "-q"], ws)
    proves, runs = [], []
    for _ in range(pairs):
        proves.append(timed([*LINKGATE, "prove", "-q"], ws))
        runs.append(timed([*LINKGATE, "run", "-q"], ws) + timed([*LINKGATE, "run", "-q"], ws))
    print(f"{pairs} pairs, medians")
    print(f"  linkgate prove (1 control, bfd)   {median(proves):6.2f} s")
    print(f"  two plain linkgate run            {median(runs):6.2f} s")
    print(f"  ratio                             {median(proves) / median(runs):6.2f}")


if __name__ == "__main__":
    main()

"""Cost of `linkgate prove` against two plain gate runs on the same warm fixture.

A control must cost at most the mutated run plus the restored run. Alternates
`linkgate prove` (one control, one linker) with two `linkgate run` calls on
the warm tree, and with two `linkgate run` calls each after touching build.rs
(the rebuild any change to build.rs forces: the build script reruns and the
package recompiles), and prints the medians and the ratios.

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
    proves, runs, touched = [], [], []
    build_rs = ws / "build.rs"
    for _ in range(pairs):
        proves.append(timed([*LINKGATE, "prove", "-q"], ws))
        runs.append(timed([*LINKGATE, "run", "-q"], ws) + timed([*LINKGATE, "run", "-q"], ws))
        total = 0.0
        for _ in range(2):
            build_rs.touch()
            total += timed([*LINKGATE, "run", "-q"], ws)
        touched.append(total)
    print(f"{pairs} pairs, medians")
    print(f"  linkgate prove (1 control, bfd)          {median(proves):6.2f} s")
    print(f"  two plain linkgate run (warm)            {median(runs):6.2f} s   ratio {median(proves) / median(runs):.2f}")
    print(f"  two linkgate run after touching build.rs {median(touched):6.2f} s   ratio {median(proves) / median(touched):.2f}")


if __name__ == "__main__":
    main()

"""What linkgate adds on top of cargo, and what a forced relink costs.

1. On a warm workspace, alternate `linkgate run --no-force-link` with the bare
   cargo command it wraps (same arguments, env and target dir), N pairs; print
   the median added wall time and the ratio. Goal: at most +100 ms (issue 20; it was 150 ms + 3 %).
2. Alternate a forced relink (`linkgate run`, which deletes one executable)
   with `cargo clean -p nativelink` followed by the same build; print the ratio.

Usage: python bench/run_overhead.py [PAIRS]
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import LINKGATE, median, timed, workspace


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    ws = workspace()
    tdir = ws / "target" / "linkgate" / "smoke" / "default"
    # The very environment linkgate gives cargo (linker flags, the recording
    # wrapper): any difference changes cargo's fingerprints, and then each bare
    # build would recompile what the linkgate run just built, and vice versa.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from linkgate import config as config_mod
    from linkgate.gate.run import gate_env

    cfg = config_mod.load(ws / "linkgate.toml")
    gate = cfg.gates[0]
    env = gate_env(cfg, gate, "default", tdir, record_links=True)
    cargo = ["cargo", "test", "--message-format=json", "--release", "--test", "link_smoke", "--no-run"]
    timed([*LINKGATE, "run", "-q"], ws)  # warm up
    timed(cargo, ws, env)
    ours, bare = [], []
    for _ in range(pairs):
        ours.append(timed([*LINKGATE, "run", "-q", "--no-force-link"], ws))
        bare.append(timed(cargo, ws, env))
    added = median(ours) - median(bare)
    print(f"warm, nothing to do ({pairs} pairs, medians)")
    print(f"  cargo alone          {median(bare) * 1000:8.1f} ms")
    print(f"  linkgate run         {median(ours) * 1000:8.1f} ms")
    print(f"  added                {added * 1000:8.1f} ms  (ratio {median(ours) / median(bare):.2f}x)")
    budget = 0.100
    print(f"  goal <= +100 ms: {'met' if added <= budget else 'NOT met'}")

    forced, clean = [], []
    for _ in range(max(3, pairs // 2)):
        forced.append(timed([*LINKGATE, "run", "-q"], ws))
        clean.append(timed(["cargo", "clean", "--release", "-p", "nativelink"], ws, env) + timed(cargo, ws, env))
    print("proof of link (medians)")
    print(f"  forced relink (linkgate run)            {median(forced):6.2f} s")
    print(f"  cargo clean -p nativelink + same build  {median(clean):6.2f} s")
    print(f"  ratio forced/clean                      {median(forced) / median(clean):6.2f}")


if __name__ == "__main__":
    main()

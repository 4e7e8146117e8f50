#!/usr/bin/env python3
"""A paths filter of 1,000 and of 10,000 patterns side by side: building the
filter (`linkgate.trigger.pathfilter.PathFilter`, each pattern compiled as
picomatch would) and testing 1,000 changed paths against it, for three kinds
of pattern (a literal prefix, `**/` with no prefix, and `!x`, which matches
nearly everything), under `some` and `every`. Linear when 10x the patterns
costs about 10x the time.

    .venv/bin/python bench/pattern_scale.py [--counts 1000,10000] [--paths 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from linkgate import picomatch  # noqa: E402
from linkgate.trigger.pathfilter import PathFilter  # noqa: E402

KINDS = {
    "prefixed": lambda i: f"crates/c{i}/{{build.rs,src/**/*.rs}}",
    "open **/": lambda i: f"**/name{i}.{{c,h}}",
    "negated !": lambda i: f"!docs/d{i}/**",
}
# Under `every`, each path is tested against the rules until one fails: the worst
# case is a last rule no path meets, so every path meets every other rule first.
LAST_FAILS = "!docs/d{i}/** then nothing/**"


def measure(kind: str, count: int, quantifier: str, paths: list[tuple[str, str | None]]) -> tuple[float, bool]:
    for cache in (picomatch.compile, picomatch._compile_source, picomatch._js_source):
        cache.cache_clear()  # each size pays for its own compilation
    if kind == LAST_FAILS:
        patterns = [f"!docs/d{i}/**" for i in range(count - 1)] + ["nothing/**"]
    else:
        patterns = [KINDS[kind](i) for i in range(count)]
    t0 = time.process_time()
    f = PathFilter(patterns, quantifier)
    hit = f.any_match(paths)
    return time.process_time() - t0, hit


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", default="1000,10000")
    ap.add_argument("--paths", type=int, default=1000)
    args = ap.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    paths = [(f"src/m{i // 100}/f{i}.txt", "modified") for i in range(args.paths)]
    print(f"{args.paths} changed paths; CPU seconds to build the filter and test them")
    print(f"{'kind':>10} {'quantifier':>10} " + " ".join(f"{c:>10}" for c in counts) + "   ratio")
    for kind in KINDS:
        for quantifier in ("some", "every"):
            secs = [measure(kind, c, quantifier, paths)[0] for c in counts]
            ratio = secs[-1] / secs[0] if secs[0] else float("nan")
            print(f"{kind:>10} {quantifier:>10} " + " ".join(f"{s:>10.2f}" for s in secs) +
                  f"   {ratio:5.1f}x for {counts[-1] // counts[0]}x the patterns")
    secs = [measure(LAST_FAILS, c, "every", paths)[0] for c in counts]
    print(f"{'every, the last rule failing':>21} " + " ".join(f"{s:>10.2f}" for s in secs) +
          f"   {secs[-1] / secs[0]:5.1f}x for {counts[-1] // counts[0]}x the patterns")


if __name__ == "__main__":
    main()

"""Recall of cargo invocations and precision of findings of `linkgate audit`, against hand-written ground truth.

Run: .venv/bin/python bench/audit_truth.py TRUTH.json [TRUTH.json ...] [--show]

A ground-truth file describes one repository checkout (kept outside this
project) and what its CI really runs, written by reading its workflows and
scripts by hand:

    {"repo": "/path/to/checkout",
     "invocations": [
        {"job": "linux", "file": "ci/test.bash", "line": 31, "subcommand": "test",
         "links": true, "features": ["default"], "matrix": {"target": "x86_64-unknown-linux-gnu"},
         "count": 1},
        ...],
     "findings": [{"rule": "never-linked", "subject": "a,b"}, ...]}

`matrix` holds only the keys that tell combinations apart (compared with the
audit's per-combination values); `count` (default 1) says how many identical
invocations the combination runs. An invocation is found when the audit
lists one with the same job, file, line, subcommand, link classification,
feature sets and matrix values: a wrong `links` or feature set counts as a
miss. A finding is true when some ground-truth finding has its rule and every
other key it gives (subject, file, line) equal.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any


def _key(job: str, file: str, line: int, sub: str, links: bool, features: list[str],
         matrix: dict[str, Any]) -> str:
    return json.dumps([job, file, line, sub, links, sorted(features), sorted(matrix.items())], sort_keys=True)


def measure(truth: dict[str, Any], show: bool) -> tuple[int, int, int, int, int]:
    from linkgate.audit.run import run_audit
    from linkgate.commands.audit import invocation_json

    repo = Path(truth["repo"])
    result = run_audit(repo)
    got = [invocation_json(c) for c in result.classified]
    expected: Counter[str] = Counter()
    keys_of: dict[str, set[str]] = {}
    for inv in truth["invocations"]:
        key = _key(inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"], inv["features"], inv.get("matrix", {}))
        expected[key] += inv.get("count", 1)
        keys_of.setdefault(inv["job"], set()).update(inv.get("matrix", {}))
    found: Counter[str] = Counter()
    for inv in got:
        wanted = keys_of.get(inv["job"], set())
        matrix = {k: v for k, v in (inv["matrix"] or {}).items() if k in wanted}
        found[_key(inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"], inv["feature_sets"], matrix)] += 1
    hits = sum(min(n, found[k]) for k, n in expected.items())
    true_findings = 0
    for f in result.findings:
        if any(t["rule"] == f.rule and all(
            {"subject": f.subject, "file": f.file, "line": f.line}.get(k) == v for k, v in t.items() if k != "rule"
        ) for t in truth["findings"]):
            true_findings += 1
        elif show:
            print(f"    false finding: {f.rule} {f.file}:{f.line} {f.subject!r}: {f.message[:160]}")
    if show:
        for k, n in sorted(expected.items()):
            if found[k] < n:
                print(f"    missed {n - found[k]}x: {k}")
        for k, n in sorted(found.items()):
            if n > expected[k]:
                print(f"    extra {n - expected[k]}x: {k}")
    return sum(expected.values()), hits, sum(found.values()), len(result.findings), true_findings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("truth", nargs="+")
    parser.add_argument("--show", action="store_true", help="list misses, extras and false findings")
    args = parser.parse_args()
    totals = [0, 0, 0, 0, 0]
    for path in args.truth:
        truth = json.loads(Path(path).read_text())
        row = measure(truth, args.show)
        totals = [a + b for a, b in zip(totals, row)]
        real, hit, listed, findings, true = row
        print(f"{Path(truth['repo']).name}: {hit}/{real} real invocations found right "
              f"({listed} listed); {true}/{findings} findings true")
    real, hit, listed, findings, true = totals
    print(f"all: recall {hit / real if real else 1:.1%} ({hit}/{real}), "
          f"finding precision {true / findings if findings else 1:.1%} ({true}/{findings})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

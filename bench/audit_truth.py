"""Recall of cargo invocations and precision of findings of `linkgate audit`, against hand-written ground truth.

Run: .venv/bin/python bench/audit_truth.py --checkouts DIR [--set training|heldout|data|both] [--show] [REPO ...]

Two sets, reported apart: the training set (bench/audit_truth/training/*.toml,
repositories looked at while the audit was built) and the held-out set
(bench/audit_truth/heldout-first/*.toml, truth written by hand before linkgate
was first run on them). A held-out miss that leads to a fix moves that
repository to the training set (its file's `moved_to_training`). The later
held-out sets heldout/, heldout-b/, heldout-c/ and heldout-d/ are measured as `data`, `data-b`,
`data-c` and `data-d`.
DIR/<owner>+<name> must hold a checkout of each repository at the commit named
in its truth file's `commit` (bench/audit_truth/CHECKOUTS.md).

An invocation is found when the audit lists one with the same job, file,
line, subcommand, link classification, feature sets and matrix values: a
wrong `links` or feature set counts as a miss, and each real invocation is
matched at most once. Feature sets match as written (JSON `feature_sets`) or
in the comparison form the audit's tables print (`feature_sets_by_package`
without the package: `default` for `--features x` when a default feature
turns x on); both name the same set. A finding (error or warning; notes are not graded) is
true when some ground-truth finding has its rule and every other key given
(subject, file, line) equal.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any


def _plain(value: Any) -> Any:
    """Matrix values as GitHub renders them in `${{ }}`: `true`, not True; YAML readers differ."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _key(job: str, file: str, line: int, sub: str, links: bool, features: list[str],
         matrix: dict[str, Any]) -> str:
    return json.dumps([job, file, line, sub, links, sorted(features), sorted(_plain(matrix).items())], sort_keys=True)


def measure(repo: Path, truth: dict[str, Any], show: bool, result: Any = None) -> tuple[int, int, int, int, int]:
    from linkgate.audit.model import DEFAULT_SEVERITY
    from linkgate.audit.run import run_audit
    from linkgate.commands.audit import invocation_json

    if result is None:
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
        key = _key(inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"], inv["feature_sets"], matrix)
        # The labels as written (`abi3,pyo3/extension-module`) or as the tables print them, in
        # the comparison form (`default`, when the default set turns those on): the same sets.
        compared = [q.split(": ", 1)[-1] for q in inv["feature_sets_by_package"]]
        other = _key(inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"], compared, matrix)
        found[other if other in expected and found[other] < expected[other] and found[key] >= expected[key] else key] += 1
    hits = sum(min(n, found[k]) for k, n in expected.items())
    true_findings = 0
    # Precision counts errors and warnings: a `note` (unresolved, debug-link-on-large-target) is a
    # remark on what was read, not a claim that something is wrong.
    graded = [f for f in result.findings if DEFAULT_SEVERITY.get(f.rule, "warning") != "note"]
    for f in graded:
        if _true(f, truth["findings"]):
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
    return sum(expected.values()), hits, sum(found.values()), len(graded), true_findings


SETS = {"training": "training/*.toml", "heldout": "heldout-first/*.toml", "data": "heldout/*.toml",
        "data-b": "heldout-b/*.toml", "data-c": "heldout-c/*.toml", "data-d": "heldout-d/*.toml"}
# The directories of truth files (format: heldout/README.md): training/ is the training set
# (converted from the former ground_truth.py); heldout-first/ is the first held-out set (converted
# from the former heldout.py; its moved repositories are measured with the training set); heldout/ was measured first on d7a0da3 (its FIRST_RUN.md); heldout-b/ is a later set,
# written by someone else.
FIRST_DIR = Path(__file__).resolve().parent / "audit_truth" / "heldout-first"
TRAINING_DIR = Path(__file__).resolve().parent / "audit_truth" / "training"
DATA_DIRS = {"data": Path(__file__).resolve().parent / "audit_truth" / "heldout",
             "data-b": Path(__file__).resolve().parent / "audit_truth" / "heldout-b",
             "data-c": Path(__file__).resolve().parent / "audit_truth" / "heldout-c",
             "data-d": Path(__file__).resolve().parent / "audit_truth" / "heldout-d"}


def load_data(path: Path, with_via: bool = True) -> tuple[str, dict[str, Any]]:
    """One truth file of bench/audit_truth/heldout*/ (format: heldout/README.md): the repository and
    {"invocations", "findings"} in the shape measure() reads, combinations expanded."""
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    named: dict[str, list[dict[str, Any]]] = data.get("combinations", {})
    invocations = []
    for inv in data.get("invocation", []):
        if not with_via and inv.get("via"):
            continue
        combos = inv.get("combinations")
        if combos is None:
            matrices: list[dict[str, Any]] = [{}]
        elif isinstance(combos, str):
            matrices = list(named[combos])
        else:
            matrices = [m for c in combos for m in (named[c] if isinstance(c, str) else [c])]
        for matrix in matrices:
            invocations.append({"job": inv["job"], "file": inv["file"], "line": inv["line"],
                                "subcommand": inv["subcommand"], "links": inv["links"],
                                "features": list(inv["features"]), "matrix": matrix, "count": inv.get("count", 1)})
    findings = [{k: v for k, v in f.items() if k in ("rule", "subject", "file", "line")}
                for f in data.get("finding", [])]
    return data["repository"], {"invocations": invocations, "findings": findings, "commit": data["commit"]}


def _matches(t: dict[str, Any], f: Any, exact: str | None = None) -> bool:
    """Does reported finding *f* state truth finding *t*: the rule, and every other key the truth
    gives equal. A grouped finding (sets of one command line, or along one matrix axis) states
    each of its sets: its subject is their labels joined by ", " (a label never holds ", ")."""
    if t["rule"] != f.rule:
        return False
    subjects = {exact} if exact is not None else {f.subject, *(f.subject or "").split(", ")}
    return all((v in subjects) if k == "subject" else {"file": f.file, "line": f.line}.get(k) == v
               for k, v in t.items() if k != "rule")


def _true(f: Any, truths: list[dict[str, Any]]) -> bool:
    """Is reported finding *f* true: each set it states (one, or a group's) is a truth finding."""
    members = [f.subject] if f.subject in {t.get("subject") for t in truths} else (f.subject or "").split(", ")
    return all(any(_matches({**t, **({"subject": m} if "subject" in t else {})}, f, exact=m) for t in truths
                   if t.get("subject", m) == m) for m in members)


def truth_findings_found(truth: dict[str, Any], result: Any) -> int:
    """How many of the truth's findings the audit reported, at any level (a `never-linked` stated
    with `unless` as a warning is found)."""
    return sum(1 for t in truth["findings"] if any(_matches(t, f) for f in result.findings))


def recorded(result: Any) -> dict[str, Any]:
    """What one audit found, as `audit --format json` writes it (before [audit] ignores)."""
    import dataclasses

    from linkgate.audit.readcoverage import coverage_json
    from linkgate.commands.audit import invocation_json

    return {"invocations": [invocation_json(c) for c in result.classified],
            "findings": [dataclasses.asdict(f) for f in result.findings],
            "notes": result.notes, "coverage": coverage_json(result.coverage)}


def measure_data(checkouts: Path, repos: list[str], show: bool, with_via: bool,
                 data: Path = DATA_DIRS["data"], record: Path | None = None) -> list[int]:
    """The truth files of one data directory, one line per repository, then the totals and the
    means over the repositories (the issue's "averages"). Each repository is audited once; the
    line after it measures the same audit against the truth without the invocations reached
    through CMake, Docker, action inputs, ... (`via`). With `record`, each audit's JSON is
    written there (a first run is kept as it was measured, never redone)."""
    from linkgate.audit.run import run_audit

    totals = [0, 0, 0, 0, 0]
    rates: list[tuple[float, float, float]] = []
    truth_found: list[tuple[int, int]] = []
    for path in sorted(data.glob("*.toml")):
        name, truth = load_data(path, with_via)
        if repos and name not in repos:
            continue
        result = run_audit(checkouts / name.replace("/", "+"))
        if record is not None:
            record.mkdir(parents=True, exist_ok=True)
            (record / f"{path.stem}.json").write_text(json.dumps(recorded(result), indent=1, sort_keys=True) + "\n")
        row = measure(checkouts / name.replace("/", "+"), truth, show, result)
        totals = [a + b for a, b in zip(totals, row)]
        real, hit, listed, findings, true = row
        rates.append((hit / real if real else 1.0, hit / listed if listed else 1.0,
                      true / findings if findings else 1.0))
        matched = truth_findings_found(truth, result)
        truth_found.append((matched, len(truth["findings"])))
        print(f"  {name}: {hit}/{real} real invocations found right ({listed} listed); {true}/{findings} findings true"
              f"; {matched}/{len(truth['findings'])} truth findings found")
        if with_via:
            _, plain = load_data(path, False)
            real2, hit2, _, _, _ = measure(checkouts / name.replace("/", "+"), plain, False, result)
            print(f"    without via: {hit2}/{real2} real invocations found right")
    if rates:
        means = [sum(r[i] for r in rates) / len(rates) for i in range(3)]
        found_mean = sum(k / n if n else 1.0 for k, n in truth_found) / len(truth_found)
        print(f"  mean over {len(rates)} repositories: recall {means[0]:.1%}, listed right {means[1]:.1%}, "
              f"findings above note true {means[2]:.1%}, truth findings found {found_mean:.1%} "
              f"(pooled {sum(k for k, _ in truth_found)}/{sum(n for _, n in truth_found)})")
    return totals


def measure_set(label: str, checkouts: Path, repos: list[str], show: bool) -> list[int]:
    """Per-repository lines, then the set's totals: [real, hit, listed, findings, true].

    A held-out repository whose results led to a fix (its file in heldout-first/ has
    `moved_to_training`) is measured with the training set, from its unchanged held-out truth."""
    import tomllib

    truths: dict[str, dict[str, Any]] = {}
    moved: set[str] = set()
    for path in sorted(FIRST_DIR.glob("*.toml")):
        name, truth = load_data(path)
        truths[name] = truth
        if "moved_to_training" in tomllib.loads(path.read_text(encoding="utf-8")):
            moved.add(name)
    sources: dict[str, dict[str, Any]] = {}
    if label == "training":
        sources.update(dict(load_data(path) for path in sorted(TRAINING_DIR.glob("*.toml"))))
        sources.update({name: truths[name] for name in moved})
    else:
        sources.update({name: truth for name, truth in truths.items() if name not in moved})
    totals = [0, 0, 0, 0, 0]
    for name in repos or sorted(sources):
        if name not in sources:
            continue
        row = measure(checkouts / name.replace("/", "+"), sources[name], show)
        totals = [a + b for a, b in zip(totals, row)]
        real, hit, listed, findings, true = row
        print(f"  {name}: {hit}/{real} real invocations found right ({listed} listed); {true}/{findings} findings true")
    return totals


def summary(label: str, totals: list[int]) -> str:
    real, hit, listed, findings, true = totals
    # Listing an invocation twice, or one that never runs, lowers the second figure, not recall.
    return (f"{label}: recall {hit / real if real else 1:.1%} ({hit}/{real}), "
            f"listed invocations right {hit / listed if listed else 1:.1%} ({hit}/{listed}), "
            f"finding precision {true / findings if findings else 1:.1%} ({true}/{findings})")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkouts", required=True, type=Path, help="directory of <owner>+<name> checkouts")
    parser.add_argument("--set", choices=["training", "heldout", "data", "data-b", "data-c", "data-d", "both"], default="both",
                        help="both = training and heldout (bench/audit_truth/training/, heldout-first/); data, data-b, "
                             "data-c, data-d = the truth files of bench/audit_truth/heldout/, heldout-b/, heldout-c/, "
                             "heldout-d/")
    parser.add_argument("--record", type=Path, help="data sets: write each audit's JSON into this directory")
    parser.add_argument("--without-via", action="store_true",
                        help="data: leave out invocations reached through CMake, Docker, action inputs, ... (`via`)")
    parser.add_argument("--show", action="store_true", help="list misses, extras and false findings")
    parser.add_argument("repos", nargs="*", help="owner/name (default: every repository of the set)")
    args = parser.parse_args()
    chosen = ["training", "heldout"] if args.set == "both" else [args.set]
    lines = []
    for label in chosen:
        if label in DATA_DIRS:
            print(f"{label} ({SETS[label]}{', without via' if args.without_via else ''}):")
            lines.append(summary(label, measure_data(args.checkouts, args.repos, args.show, not args.without_via,
                                                     DATA_DIRS[label], args.record)))
            continue
        print(f"{label} ({SETS[label]}):")
        lines.append(summary(label, measure_set(label, args.checkouts, args.repos, args.show)))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

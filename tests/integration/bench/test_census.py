"""bench/census.py end to end on bench/census/fixtures/: bare mirrors built in tmp_path, one audit
process per repository, per-repository JSON, summary.json, the page, its SVG and the sample.
Timings are recorded by the script, never asserted here."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "bench" / "census.py"
FIXTURES = ROOT / "bench" / "census" / "fixtures"
# fixture directory -> (OWNER/NAME it is mirrored as, the rule it is there to show)
REPOS = {
    "checked-only": ("fixture/checked-only", "never-linked"),
    "nightly-link": ("fixture/nightly-link", "link-only-on-schedule"),
    "filter-miss": ("fixture/filter-miss", "filter-misses-surface"),
}
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]


def _mirror(src: Path, work: Path, mirrors: Path, name: str) -> str:
    """A repository of *src*'s files, cloned bare to mirrors/OWNER+NAME/repo; its commit."""
    shutil.copytree(src, work)
    # A large file the mirror will not hold: the census must skip it, not fail.
    (work / "assets.bin").write_bytes(b"\0" * 4096)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run([*GIT, *args], cwd=work, check=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True,
                            check=True).stdout.strip()
    bare = mirrors / name.replace("/", "+") / "repo"
    # A local clone hard-links the loose objects as they are: the blob can be taken out of the mirror alone.
    subprocess.run(["git", "clone", "-q", "--mirror", str(work), str(bare)], check=True)
    blob = subprocess.run(["git", f"--git-dir={bare}", "rev-parse", f"{commit}:assets.bin"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (bare / "objects" / blob[:2] / blob[2:]).unlink()
    return commit


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def test_census_end_to_end(tmp_path):
    mirrors = tmp_path / "mirrors"
    entries = []
    for fixture, (name, _) in REPOS.items():
        commit = _mirror(FIXTURES / fixture, tmp_path / "src" / fixture, mirrors, name)
        entries.append((name, commit))
    entries.append(("fixture/absent", "0" * 40))                     # no mirror
    entries.append(("fixture/gone-commit", "1" * 40))                # a mirror without the commit
    shutil.copytree(mirrors / "fixture+checked-only", mirrors / "fixture+gone-commit")
    lst = tmp_path / "list-t.toml"
    lst.write_text("".join(f'[[repository]]\nname = "{n}"\ncommit = "{c}"\ncategory = "fixture"\nnative = "cc"\n\n'
                           for n, c in entries) + '[[repository]]\nname = "../evil"\ncommit = "x"\n')
    out, docs = tmp_path / "results", tmp_path / "docs" / "census.md"
    checked = tmp_path / "checked.md"
    runs = tmp_path / "runs"
    common = ["--lists", str(lst), "--out", str(out), "--docs", str(docs), "--checked", str(checked),
              "--runs", str(runs)]
    done = _run("--from-mirrors", str(mirrors), "--jobs", "2", *common)
    assert "3 of 5 audited" in done.stdout, done.stdout

    for fixture, (name, rule) in REPOS.items():
        row = json.loads((out / (name.replace("/", "+") + ".json")).read_text())
        assert row["status"] == "ok" and row["exit_code"] in (0, 1), row
        assert row["wall_s"] > 0 and row["peak_rss_mb"] > 0 and row["cpu_s"] >= 0
        assert row["checkout"]["missing_blobs"] == ["assets.bin"], row["checkout"]
        rules = [f["rule"] for f in row["audit"]["findings"]]
        assert rule in rules, (fixture, rules)
        assert {"never-linked", "link-only-on-schedule", "filter-misses-surface"} & set(rules) == {rule}, rules
        assert row["audit"]["coverage"]["totals"]["steps"] == 5
    checked_only = json.loads((out / "fixture+checked-only.json").read_text())["audit"]
    assert checked_only["feature_sets"]["checked_not_linked"] == ["zquux-sys: vendored"]
    assert "zquux-sys: default" in checked_only["feature_sets"]["linked"]
    filter_miss = json.loads((out / "fixture+filter-miss.json").read_text())["audit"]
    miss = next(f for f in filter_miss["findings"] if f["rule"] == "filter-misses-surface")
    assert set(miss["paths"]) == {"build.rs", "native/shim.c"}
    assert filter_miss["coverage"]["totals"]["partly read"] == 1
    assert any("Python" in why for why in filter_miss["coverage"]["reasons"]), filter_miss["coverage"]

    summary = json.loads((out / "summary.json").read_text())
    by_name = {r["name"]: r for r in summary["repositories"]}
    assert by_name["fixture/absent"]["status"] == "missing-mirror"
    assert by_name["fixture/gone-commit"]["status"] == "missing-commit"
    assert [r["rules"].get("never-linked", 0) for n, r in sorted(by_name.items()) if r["status"] == "ok"] \
        == [1, 0, 0]  # checked-only, filter-miss, nightly-link
    assert any("../evil" in p for p in summary["list_problems"])

    page = docs.read_text()
    for rule in ("never-linked", "link-only-on-schedule", "filter-misses-surface"):
        row = next(ln for ln in page.splitlines() if ln.startswith(f"| `{rule}` |"))
        assert "1 of 3 (33 %, 95 % CI 6–79 %)" in row, row  # Wilson interval for 1 of 3
    assert "git clone --mirror" in page and "partly read 1 (6.7 %)" in page
    assert "`fixture/absent`: missing-mirror" in page and "Not judged yet" in page
    svg = docs.with_suffix(".svg")
    first = svg.read_bytes()
    assert first.lstrip().startswith(b"<?xml") and b"<svg" in first and b"never-linked" in first

    # The sample: seeded, drawn from the stored results, in a table to judge.
    sample = tmp_path / "sample.md"
    _run("--sample", "2", "--seed", "7", "--out", str(out), "--sample-out", str(sample))
    rows = [ln for ln in sample.read_text().splitlines() if ln.startswith("| S")]
    assert len(rows) == 2 and all("|  |  |" in ln for ln in rows)
    again = tmp_path / "again.md"
    _run("--sample", "2", "--seed", "7", "--out", str(out), "--sample-out", str(again))
    assert again.read_text() == sample.read_text()

    # Judged: the page states the precision; the page and the SVG regenerate byte for byte.
    judged = sample.read_text().replace("|  |  |", "| true | ci.yml:9 checks it only |", 1) \
        .replace("|  |  |", "| false | the job links it through a script |", 1)
    checked.write_text(judged)
    _run("--summary-only", *common)
    page = docs.read_text()
    assert "Precision: 1 of 2 (50 %, 95 % CI 9–91 %)" in page, page
    assert "the job links it through a script" in page
    assert svg.read_bytes() == first

    # An earlier run kept as it was: the page names it, with its own judged precision.
    assert "## Earlier runs" not in page
    shutil.copytree(out, runs / "1-first")
    shutil.copy(checked, runs / "1-first" / "checked.md")
    checked.write_text(sample.read_text())  # the new run is not judged yet
    _run("--summary-only", *common)
    page = docs.read_text()
    assert "Not judged yet" in page
    earlier = page.split("## Earlier runs", 1)[1]
    assert "`runs/1-first`" in earlier and "1 of 2 (50 %, 95 % CI 9–91 %)" in earlier, earlier
    assert "1 of 3 (33 %" in earlier  # the run's repositories with a never-linked finding


def test_census_timeout_is_a_row(tmp_path):
    mirrors = tmp_path / "mirrors"
    commit = _mirror(FIXTURES / "checked-only", tmp_path / "src", mirrors, "fixture/slow")
    lst = tmp_path / "list.toml"
    lst.write_text(f'[[repository]]\nname = "fixture/slow"\ncommit = "{commit}"\n')
    out, docs = tmp_path / "results", tmp_path / "census.md"
    # No linkgate process starts, imports and audits in a millisecond: the limit kills it.
    _run("--from-mirrors", str(mirrors), "--lists", str(lst), "--out", str(out), "--docs", str(docs),
         "--timeout", "0.001")
    row = json.loads((out / "fixture+slow.json").read_text())
    assert row["status"] == "timeout" and row["exit_code"] == -9, row
    assert "`fixture/slow` @" in docs.read_text() and "killed after 0.001 s" in docs.read_text()


"""How linkgate's costs grow with the workspace: N = 10, 100, 1,000 crates.

For each N, generates a git repository with a cargo workspace of N library
crates (a tenth of them `-sys` crates whose build script compiles a C file into
a static archive) and one binary that depends on all of them, a workflow with
N/10 jobs (each a two-leg matrix running cargo on one crate), N/10 link
recipes, a topic branch changing 10,000 paths, a history of 100,000 runs, and
a second configuration of N x 20 gates. Then times, end to end as
subprocesses (medians of RUNS, after a warm-up):

  run          `linkgate run --no-force-link` on the warm workspace (no-op)
  surface      `linkgate surface app` (the built records of all N crates)
  should-run   `linkgate should-run app --base main --head topic` (10,000 changed paths)
  coverage     `linkgate coverage` over the 100,000 runs
  cost         `linkgate cost` over the 100,000 runs
  audit        `linkgate audit` of the N/10-job workflow
  config       loading the N x 20-gate configuration (timed inside a fresh interpreter)

and prints each figure with its growth factor per tenfold step. Linear
growth is a factor of about 10 once start-up no longer dominates; a factor
above 12 is a finding (`--check` exits 1 on one).

Usage: python bench/scale.py [--sizes 10,100,1000] [--runs 3] [--check] [--quick] [--json FILE]

`--quick` (the suite's CI run, tests/integration/bench/test_scale.py): N = 10 and
100, one timed run each, 10,000 history rows and 1,000 changed paths.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import LINKGATE, median

ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}
SIZES = {"changed": 10_000, "rows": 100_000}
MEASURES = ("run", "surface", "should-run", "coverage", "cost", "audit", "config")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=ENV, check=True, capture_output=True)


def crate_name(i: int) -> str:
    return f"c{i}-sys" if i % 10 == 0 else f"c{i}"


SYS_BUILD = """use std::process::Command;
fn main() {{
    let out = std::env::var("OUT_DIR").unwrap();
    let obj = format!("{{out}}/n{i}.o");
    assert!(Command::new("cc").args(["-c", "-fPIC", "native/n{i}.c", "-o", &obj]).status().unwrap().success());
    let lib = format!("{{out}}/libn{i}.a");
    let _ = std::fs::remove_file(&lib);
    assert!(Command::new("ar").args(["crs", &lib, &obj]).status().unwrap().success());
    println!("cargo:rustc-link-search=native={{out}}");
    println!("cargo:rustc-link-lib=static=n{i}");
    println!("cargo:rerun-if-changed=native/n{i}.c");
}}
"""


def generate(root: Path, n: int) -> None:
    crates = root / "crates"
    deps = []
    for i in range(n):
        name = crate_name(i)
        d = crates / name
        (d / "src").mkdir(parents=True)
        (d / "Cargo.toml").write_text(f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n'
                                      + (f'links = "n{i}"\n' if i % 10 == 0 else ""))
        if i % 10 == 0:
            (d / "native").mkdir()
            (d / "native" / f"n{i}.c").write_text(f"unsigned long n{i}_value(void) {{ return {i}UL; }}\n")
            (d / "build.rs").write_text(SYS_BUILD.format(i=i))
            (d / "src" / "lib.rs").write_text(
                f'extern "C" {{ fn n{i}_value() -> u64; }}\npub fn f() -> u64 {{ unsafe {{ n{i}_value() }} }}\n')
        else:
            (d / "src" / "lib.rs").write_text(f"pub fn f() -> u64 {{ {i} }}\n")
        deps.append(f'{name.replace("-", "_")} = {{ package = "{name}", path = "../{name}" }}')
    app = crates / "app"
    (app / "src").mkdir(parents=True)
    (app / "Cargo.toml").write_text('[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                    "[dependencies]\n" + "\n".join(deps) + "\n")
    calls = "\n".join(f"    s += {crate_name(i).replace('-', '_')}::f();" for i in range(n))
    (app / "src" / "main.rs").write_text(f'fn main() {{\n    let mut s = 0u64;\n{calls}\n    println!("{{s}}");\n}}\n')
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n')
    recipes = "".join(
        f'\n[[recipe]]\nname = "n{i}"\nwhen-env = ["N{i}_STATIC"]\nfile = "crates/{crate_name(i)}/build.rs"\nline = 10\n'
        for i in range(0, n, 10))
    (root / "linkgate.toml").write_text(
        '[[gate]]\nname = "app"\ncargo = ["build", "-p", "app"]\nlinkers = ["default"]\n'
        'paths = ["crates/**", "Cargo.toml", "Cargo.lock"]\n' + recipes)
    gates = "".join(
        f'[[gate]]\nname = "g{k}"\ncargo = ["test", "-p", "{crate_name(k % n)}", "--no-run"]\n'
        f'linkers = ["default", "bfd"]\npaths = ["crates/{crate_name(k % n)}/**"]\n\n'
        for k in range(n * 20))
    (root / "many-gates.toml").write_text(gates)
    wf = root / ".github" / "workflows"
    wf.mkdir(parents=True)
    jobs = "".join(
        f"  t{j}:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        profile: [dev, release]\n"
        f"    steps:\n      - uses: actions/checkout@v4\n"
        f"      - run: cargo test -p {crate_name(j * 10)} --profile ${{{{ matrix.profile }}}} --no-run\n"
        for j in range(max(1, n // 10)))
    (wf / "ci.yml").write_text("name: ci\non: [push, pull_request]\njobs:\n" + jobs)
    (root / ".gitignore").write_text("target/\n.linkgate/\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "workspace")
    git(root, "checkout", "-q", "-b", "topic")
    changed = root / "docs" / "changed"
    changed.mkdir(parents=True)
    for k in range(SIZES["changed"]):
        (changed / f"f{k}.txt").write_text(f"{k}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "changed paths")
    git(root, "checkout", "-q", "main")


def fill_history(path: Path, n: int) -> None:
    from linkgate.history.model import RunRecord
    from linkgate.history.store import History

    rnd = random.Random(7)
    gates = ["app", *(f"g{k}" for k in range(max(1, n // 10)))]
    recipes = [f"n{i}" for i in range(0, n, 10)]
    records = []
    for i in range(SIZES["rows"]):
        cold = rnd.random() < 0.1
        wall = rnd.uniform(600, 1000) if cold else rnd.uniform(200, 450)
        link = wall * rnd.uniform(0.05, 0.3)
        records.append(RunRecord(
            run_id=f"r{i}", kind="run", gate=gates[i % len(gates)], linker=("default", "bfd")[i % 2],
            verdict="linked" if rnd.random() < 0.9 else "link-failed",
            started_at=f"2026-{1 + i % 12:02d}-01T00:00:00Z", wall_s=wall, commit=f"{i:040x}", branch="main",
            runner=f"runner-{i % 4}", host="h", compile_s=wall - link, link_s=link, units_rebuilt=300 if cold else 1,
            units_fresh=0 if cold else 299, cold=cold, forced_relink=not cold,
            recipes=(recipes[i % len(recipes)],) if recipes else (),
            directives_digest="0123456789abcdef", links=({"output": "/t/x", "seconds": link, "exit_status": 0},),
        ))
    with History.open(path) as h:
        h.add(records)


def timed(argv: list[str], cwd: Path, runs: int, ok: tuple[int, ...] = (0, 1)) -> float:
    subprocess.run(argv, cwd=cwd, capture_output=True)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if done.returncode not in ok:
            raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return median(times)


_LOAD = """
import sys, time
from pathlib import Path
from linkgate import config
path = Path(sys.argv[1])
t0 = time.perf_counter()
cfg = config.load(path, root=path.parent)
print(time.perf_counter() - t0, len(cfg.gates))
"""


def load_config(path: Path, runs: int) -> float:
    """Seconds to load, in a fresh interpreter each time (this process holds the
    history it generated, whose garbage-collector passes would be timed too)."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _LOAD, str(path)], capture_output=True, text=True, check=True)
        seconds, gates = out.stdout.split()
        assert int(gates) == path.read_text().count("[[gate]]")
        times.append(float(seconds))
    return median(times)


def measure(n: int, runs: int, base: Path) -> dict[str, float]:
    root = base / f"n{n}"
    generate(root, n)
    db = base / f"history-{n}.sqlite"
    fill_history(db, n)
    build = subprocess.run([*LINKGATE, "run", "-q", "--no-history"], cwd=root, capture_output=True, text=True)
    if build.returncode != 0:
        raise SystemExit(f"the cold build of N = {n} failed:\n{build.stdout[-3000:]}\n{build.stderr[-2000:]}")
    hist = ["--history", str(db)]
    return {
        "run": timed([*LINKGATE, "run", "-q", "--no-history", "--no-force-link"], root, runs, ok=(0,)),
        "surface": timed([*LINKGATE, "surface", "app", "--format", "json"], root, runs),
        "should-run": timed([*LINKGATE, "should-run", "app", "--base", "main", "--head", "topic"], root, runs, ok=(0,)),
        "coverage": timed([*LINKGATE, "coverage", "--format", "json", *hist], root, runs),
        "cost": timed([*LINKGATE, "cost", "--format", "json", *hist], root, runs),
        "audit": timed([*LINKGATE, "audit", "--format", "json"], root, runs),
        "config": load_config(root / "many-gates.toml", runs),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="exit 1 when a growth factor exceeds 12")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--quick", action="store_true", help="N = 10, 100; 1 run; 10,000 rows; 1,000 changed paths")
    args = ap.parse_args()
    if args.quick:
        args.sizes, args.runs = "10,100", 1
        SIZES.update(changed=1_000, rows=10_000)
    sizes = [int(s) for s in args.sizes.split(",")]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    base = Path(tempfile.mkdtemp(prefix="linkgate-bench-scale-"))
    figures: dict[int, dict[str, float]] = {}
    try:
        for n in sizes:
            figures[n] = measure(n, args.runs, base)
            print(f"N = {n}: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in figures[n].items()), flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"\nmedians of {args.runs} (ms); x = growth per tenfold step; {SIZES['changed']:,} changed paths, "
          f"{SIZES['rows']:,} history rows")
    print(f"{'':12}" + "".join(f"{'N = ' + str(n):>14}" for n in sizes))
    worst = 0.0
    for m in MEASURES:
        cells = []
        for j, n in enumerate(sizes):
            v = figures[n][m] * 1000
            if j == 0:
                cells.append(f"{v:14.0f}")
                continue
            prev = figures[sizes[j - 1]][m]
            factor = (figures[n][m] / prev) ** (1 / max(1e-9, math.log10(n / sizes[j - 1])))
            worst = max(worst, factor)
            cells.append(f"{v:7.0f} x{factor:5.1f}")
        print(f"{m:12}" + "".join(cells))
    if args.json:
        Path(args.json).write_text(json.dumps({str(n): f for n, f in figures.items()}, indent=1) + "\n")
    if args.check and worst > 12:
        raise SystemExit(f"a figure grows {worst:.1f}x per tenfold step (limit 12)")


if __name__ == "__main__":
    main()

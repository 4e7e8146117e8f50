#!/usr/bin/env python3
"""`linkgate surface --static` on a build script of many rerun-if-changed lines:
10,000 and 100,000 side by side (linear when the cost per line stays the same),
each as a fresh process, wall and CPU seconds (the CPU time is what a loaded
host cannot inflate).

    .venv/bin/python bench/surface_static_scale.py [--lines 10000,100000] [--runs 3] [--baseline REV]

--baseline REV runs the same cases with the source of REV (``git archive``
into a temporary directory, first on PYTHONPATH) in the same run, for a before
and after.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from common import LINKGATE, ROOT

CARGO = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
CONFIG = '[[gate]]\nname = "g"\ncargo = ["build"]\npaths = ["src/**", "csrc/**", "build.rs", "Cargo.*", "linkgate.toml"]\n'


def repo(base: Path, lines: int) -> Path:
    root = base / f"r{lines}"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(CARGO)
    (root / "src" / "main.rs").write_text("fn main() {}\n")
    (root / "linkgate.toml").write_text(CONFIG)
    body = "".join(f'    println!("cargo:rerun-if-changed=csrc/f{i}.c");\n' for i in range(lines))
    (root / "build.rs").write_text('fn main() {\n    println!("cargo:rustc-link-lib=static=foo");\n' + body + "}\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"],
                   check=True)
    return root


def once(root: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([*LINKGATE, "surface", "g", "--static", "--format", "json"], cwd=root, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"exit {done.returncode}: {done.stderr[-1000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def baseline_env(rev: str, base: Path) -> dict[str, str]:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(base / "baseline", filter="data")
    return {**os.environ, "PYTHONPATH": str(base / "baseline" / "src")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", default="10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline", help="a git revision to measure beside this tree")
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="linkgate-bench-surface-"))
    versions = {"this tree": {**os.environ, "PYTHONPATH": str(ROOT / "src")}}
    if args.baseline:
        versions[args.baseline] = baseline_env(args.baseline, base)
    sizes = [int(n) for n in args.lines.split(",")]
    roots = {n: repo(base, n) for n in sizes}
    print(f"{'version':>12} {'lines':>8} {'wall s':>8} {'CPU s':>8} {'CPU us/line':>12}")
    for name, env in versions.items():
        for n in sizes:
            once(roots[n], env)  # warm-up: page cache, bytecode
            runs = [once(roots[n], env) for _ in range(args.runs)]
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            print(f"{name[:12]:>12} {n:>8} {wall:>8.2f} {cpu:>8.2f} {cpu / n * 1e6:>12.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

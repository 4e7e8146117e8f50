"""How long `linkgate audit` takes on 100 generated workflows (goal: under 2 s) and on
the native-runtime fixture repository (goal: under 1 s).

Run: .venv/bin/python bench/audit_speed.py [--workflows 100] [--runs 5]

Generates a repository with N workflows, each with a matrix job (3x2
combinations with include/exclude), a multi-line run script, a `make`
target, an anchors-and-aliases job and a paths-filtered link job; then times,
side by side and as medians over several runs:
  - the whole command in a fresh process (`linkgate audit --format json`),
  - the audit in-process (read, expand, classify, find),
  - reading the YAML alone with libyaml's composer vs the pure-Python one,
    which is why linkgate composes with CSafeLoader;
and, side by side in the same run, `linkgate audit` of tests/fixtures/audit/runtime
(copied into a git repository): the paths-filter check runs there, with
`cargo metadata` failing offline on its registry dependency and falling back
to `--no-deps`, so the figure includes two cargo calls and `git ls-files`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

WORKFLOW = """\
name: wf{i}
on:
  pull_request:
  push:
    branches: [main]
  schedule:
    - cron: "0 {h} * * *"
env: &env
  CARGO_TERM_COLOR: always
  FEATS: a,b
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      link: ${{{{ steps.filter.outputs.link }}}}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            link:
              - 'crates/c{i}/**'
              - 'build.rs'
  matrix:
    runs-on: ${{{{ matrix.os }}}}
    strategy:
      matrix:
        os: [ubuntu-latest, macos-latest]
        features: ["", "a", "a,b"]
        exclude:
          - os: macos-latest
            features: ""
        include:
          - features: a
            extra: --release
    steps:
      - uses: actions/checkout@v4
      - name: test
        run: |
          set -euxo pipefail
          cd crates/c{i}
          cargo test --no-run --features "${{{{ matrix.features }}}}" ${{{{ matrix.extra }}}} \\
            --locked \\
            --all-targets
          cargo clippy --features "$FEATS" -- -D warnings
  lint:
    runs-on: ubuntu-latest
    env: *env
    steps:
      - run: make verify
      - uses: actions-rs/cargo@v1
        with:
          command: check
          args: --features feat{i}
  link:
    needs: changes
    if: needs.changes.outputs.link == 'true'
    runs-on: [self-hosted, linux]
    timeout-minutes: 40
    steps:
      - run: cargo build --release --features feat{i} --target-dir /cache/t{i}
"""

MAKEFILE = "CARGO ?= cargo\nverify: lint\n\t$(CARGO) test --no-run --features metal\nlint:\n\t@$(CARGO) clippy --all-targets\n"


def generate(root: Path, count: int) -> None:
    wdir = root / ".github" / "workflows"
    wdir.mkdir(parents=True)
    for i in range(count):
        (wdir / f"wf{i:03}.yml").write_text(WORKFLOW.format(i=i, h=i % 24))
    (root / "Makefile").write_text(MAKEFILE)


RUNTIME = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "audit" / "runtime"


def runtime_repo(root: Path) -> Path:
    import shutil

    repo = root / "runtime"
    shutil.copytree(RUNTIME, repo)
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com"]
    for argv in ([*git, "init", "-q"], [*git, "add", "-A"], [*git, "commit", "-qm", "fixture"]):
        subprocess.run(argv, cwd=repo, check=True)
    return repo


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workflows", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    import yaml

    from linkgate.audit import run as audit
    from linkgate.workflows.read import discover

    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        generate(repo, args.workflows)
        texts = [p.read_text() for p in discover(repo)]
        cli = [sys.executable, "-m", "linkgate", "audit", "--repo", str(repo), "--format", "json"]
        result = audit.run_audit(repo)

        def run_cli() -> None:
            subprocess.run(cli, stdout=subprocess.DEVNULL, check=False)

        whole = median_time(run_cli, args.runs)
        inproc = median_time(lambda: audit.run_audit(repo), args.runs)
        runtime = runtime_repo(Path(tmp) / "fixture")
        runtime_result = audit.run_audit(runtime)
        runtime_cli = [sys.executable, "-m", "linkgate", "audit", "--repo", str(runtime), "--format", "json"]
        rt_whole = median_time(lambda: subprocess.run(runtime_cli, stdout=subprocess.DEVNULL, check=False), args.runs)
        rt_inproc = median_time(lambda: audit.run_audit(runtime), args.runs)
        c_load = median_time(lambda: [yaml.compose(t, Loader=yaml.CSafeLoader) for t in texts], args.runs)
        py_load = median_time(lambda: [yaml.compose(t, Loader=yaml.SafeLoader) for t in texts], args.runs)

    print(f"{args.workflows} workflows, {len(result.classified)} cargo invocations, "
          f"{len(result.findings)} findings; medians of {args.runs} runs")
    print(f"  linkgate audit, fresh process : {whole:7.3f} s  (goal < 2 s: {'met' if whole < 2 else 'MISSED'})")
    print(f"  audit in-process              : {inproc:7.3f} s")
    print(f"runtime fixture: {len(runtime_result.classified)} cargo invocations, "
          f"{len(runtime_result.findings)} findings")
    print(f"  linkgate audit, fresh process : {rt_whole:7.3f} s  (goal < 1 s: {'met' if rt_whole < 1 else 'MISSED'})")
    print(f"  audit in-process              : {rt_inproc:7.3f} s")
    print(f"  compose, libyaml (CSafeLoader): {c_load:7.3f} s")
    print(f"  compose, pure Python          : {py_load:7.3f} s  ({py_load / c_load:.1f}x libyaml)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long `linkgate should-run` takes to answer, next to the git diff it needs.

Builds a throwaway repository whose topic branch changes 10,000 files, gives
the gate 50 rules that match none of them (the worst case: every path is
tested against every rule), and times, end to end as subprocesses:

  1. git diff --no-renames --name-status -z main...HEAD  (the floor)
  2. linkgate should-run GATE --base main                (the answer)

Usage: python bench/should_run_speed.py [--files N] [--rules N] [--runs N]
Goal: should-run within 200 ms on this machine; the ratio shows how much of
that is git itself.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import median_ms

ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=ENV, check=True, capture_output=True)


def build(repo: Path, files: int, rules: int) -> None:
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("bench\n")
    patterns = [f"crates/gated{i}/{{build.rs,src/**/*.rs}}" for i in range(rules - 2)]
    patterns += ["!**/*.txt", "vendor/**"]  # `!**/*.txt` matches nothing below: all files are .txt
    quoted = ", ".join(f'"{p}"' for p in patterns)
    (repo / "linkgate.toml").write_text(
        f'[[gate]]\nname = "bench"\ncargo = ["build"]\npaths = [{quoted}]\npredicate-quantifier = "some"\n'
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "topic")
    for i in range(files):
        d = repo / "src" / f"m{i // 100}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i}.txt").write_text(f"{i}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "many changes")



def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--rules", type=int, default=50)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    linkgate = [sys.executable, "-m", "linkgate"]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        build(repo, args.files, args.rules)
        git_ms, diff = median_ms(["git", "diff", "--no-renames", "--name-status", "-z", "main...HEAD"], args.runs, repo, ENV)
        should_run = [*linkgate, "should-run", "bench", "--base", "main"]
        # An installed package has bytecode; with PYTHONDONTWRITEBYTECODE=1 and
        # an editable install every start recompiles linkgate (about 45 ms more).
        cached = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}
        lg_ms, answer = median_ms(should_run, args.runs, repo, cached)
        ver_ms, _ = median_ms([*linkgate, "--version"], args.runs, repo, cached)
    changed = diff.count("\0") // 2
    print(f"changed files: {changed}, rules: {args.rules}, runs: {args.runs} (medians)")
    print(f"  git diff alone             {git_ms:8.1f} ms")
    print(f"  linkgate --version         {ver_ms:8.1f} ms  (interpreter + CLI start-up)")
    print(f"  linkgate should-run        {lg_ms:8.1f} ms  -> {answer.strip()}")
    print(f"  should-run / git diff      {lg_ms / git_ms:8.1f} x")
    print(f"  goal 200 ms: {'met' if lg_ms <= 200 else 'MISSED'}")


if __name__ == "__main__":
    main()

"""Class: a paths filter of 10,000 patterns (a literal prefix each, `**/` with
no prefix, `!x` matching nearly everything), under `some` and `every`:
`should-run` answers within the case's bound (30 s for these million pattern
decisions, 1 GiB: harness.py; about 5-7 s on a quiet machine) and answers right. Work is linear in the patterns (bench/pattern_scale.py measures
1,000 against 10,000 side by side); the test asserts no time, only the bound."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import run

COUNT = 10_000
KINDS = {
    # kind: (pattern i, whether the changed paths below trigger it under some, under every)
    "prefixed": (lambda i: f"crates/c{i}/{{build.rs,src/**/*.rs}}", False, False),
    "open": (lambda i: f"**/name{i}.{{c,h}}", False, False),
    "negated": (lambda i: f"!docs/d{i}/**", True, True),
    "one of many": (lambda i: f"src/m{i}/**" if i == COUNT - 1 else f"crates/c{i}/**", True, False),
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("quantifier", ["some", "every"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ten_thousand_patterns_are_decided_within_the_bound(sandbox, kind, quantifier):
    outside, repo = sandbox
    pattern, some, every = KINDS[kind]
    quoted = ",\n".join(f'"{pattern(i)}"' for i in range(COUNT))
    (repo / "linkgate.toml").write_text(f'[[gate]]\nname = "g"\ncommand = ["true"]\n'
                                        f'predicate-quantifier = "{quantifier}"\npaths = [\n{quoted}\n]\n')
    (repo / "README.md").write_text("x\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "topic")
    for i in range(100):
        d = repo / "src" / f"m{COUNT - 1 if i == 0 else i}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i}.txt").write_text(f"{i}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "changes")
    result = run(["should-run", "g", "--base", "main"], repo, outside=outside, repo=repo, seconds=30)
    assert result.code == 0, result.err
    expected = some if quantifier == "some" else every
    assert result.out.strip() == ("true" if expected else "false"), (result.out, result.err[-500:])

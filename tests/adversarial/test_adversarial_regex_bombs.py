"""Class: regex bombs. A control's `delete`, `replace.pattern` and `expect-match`,
and a CI script's `[[ =~ ]]`, come from the repository: each runs on RE2, so a
pattern that makes Python's `re` backtrack for minutes is decided at once, and a
pattern RE2 cannot run is one configuration error naming file:line:key (exit 2)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness import run

LINES = ("a" * 40 + "b\n") * 40  # every pattern below backtracks on these lines under `re`

NO_MATCH = ["(a+)+$", "(a|a)+$", "(a|aa)+$", "(a*)*c$", "(a+)*c$", "((a+)+)+$", "^(a+)+$", "(a+)+c",
            "([a-z]+)*c$", "(a|b|ab)*c$", "(.*)*c$", "(x+x+)+y", "(a+a+)+$", "(a{1,40})+$", "(?:a+)+$"]
REFUSED = {"(a)\\1": "invalid escape sequence: \\1", "(a+)\\1+$": "invalid escape sequence: \\1",
           "(?=a+)+b": "invalid perl operator: (?=", "a(?!b)": "invalid perl operator: (?!",
           "(?<=a)b": "invalid perl operator: (?<", "(?<!a)b": "invalid perl operator: (?<"}


def prove(sandbox: tuple[Path, Path], control: str) -> tuple[int, str]:
    outside, repo = sandbox
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "data.txt").write_text(LINES)
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n\n'
                                        '[[gate.control]]\nname = "c"\nfile = "data.txt"\n' + control)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "t"], check=True)
    result = run(["prove", "--repo", str(repo), "-q"], repo, outside=outside, repo=repo)
    assert (repo / "data.txt").read_text() == LINES  # nothing mutated, nothing left behind
    return result.code, result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", NO_MATCH)
def test_a_catastrophic_delete_pattern_is_decided_at_once(sandbox, pattern):
    code, err = prove(sandbox, f"delete = {json.dumps(pattern)}\n")
    assert code == 2 and f"control.c.delete: delete pattern {pattern!r} matches no line of data.txt" in err, err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", NO_MATCH)
def test_a_catastrophic_replace_pattern_is_decided_at_once(sandbox, pattern):
    code, err = prove(sandbox, f"replace = {{ pattern = {json.dumps(pattern)}, with = \"x\" }}\n")
    assert code == 2 and f"replace pattern {pattern!r} matches nothing in data.txt" in err, err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("key", ["delete", "expect-match", "replace"])
@pytest.mark.parametrize("pattern", sorted(REFUSED))
def test_a_pattern_re2_cannot_run_is_refused_naming_the_key(sandbox, key, pattern):
    if key == "replace":
        control, line, shown = f"replace = {{ pattern = {json.dumps(pattern)}, with = \"x\" }}\n", 8, "replace.pattern"
    elif key == "expect-match":
        control, line, shown = f'delete = "a"\nexpect-match = {json.dumps(pattern)}\n', 9, "expect-match"
    else:
        control, line, shown = f"delete = {json.dumps(pattern)}\n", 8, "delete"
    code, err = prove(sandbox, control)
    assert code == 2, err
    assert f"linkgate.toml:{line}: gate.g.control[0].{shown}: regular expression {pattern!r} cannot be run by RE2 " \
           f"({REFUSED[pattern]}" in err, err


def audit(sandbox: tuple[Path, Path], script: str) -> tuple[int, list[str]]:
    outside, repo = sandbox
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
                                     '[features]\nbomb = []\nsafe = []\n')
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    wf = repo / ".github" / "workflows"
    wf.mkdir(parents=True, exist_ok=True)
    body = "".join(f"          {line}\n" for line in script.splitlines())
    (wf / "ci.yml").write_text(f"on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n{body}")
    result = run(["audit", "--repo", str(repo), "--format", "json"], repo, outside=outside, repo=repo)
    return result.code, [f["message"] for f in json.loads(result.out)["findings"]]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", ["(a+)+b", "(a|a)+b", "(a*)*b", "((a+)+)+b", "(a|aa)+b"])
def test_a_catastrophic_test_in_ci_shell_is_decided(sandbox, pattern):
    x = "a" * 5000 + "c"
    code, messages = audit(sandbox, f"x={x}\nif [[ $x =~ {pattern} ]]; then cargo build --features bomb; fi\n"
                                    "cargo build --features safe\n")
    assert code == 0 and not any("bomb" in m for m in messages), messages

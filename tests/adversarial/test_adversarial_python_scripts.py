"""Class: Python CI scripts built to exhaust the reader (workflows.pyscript). A file past the
size linkgate reads, nesting past Python's parser or the reader's recursion, strings and
lists that double, functions that fan out exponentially: each is audited in bounded work and
leaves what it could not read named (an unread program, or an `unresolved` note at the
script's line), never a crash and never a silent drop."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import run


def audit(sandbox: tuple[Path, Path], script: str) -> dict[str, Any]:
    outside, repo = sandbox
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "ci").mkdir(exist_ok=True)
    (repo / "ci" / "x.py").write_text(script)
    wf = repo / ".github" / "workflows"
    wf.mkdir(parents=True, exist_ok=True)
    (wf / "ci.yml").write_text("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                               "      - run: python3 ci/x.py\n")
    result = run(["audit", "--repo", str(repo), "--format", "json"], repo, outside=outside, repo=repo)
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def gaps(doc: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(g["file"], g["line"], g["why"]) for wf in doc["coverage"]["workflows"] for job in wf["jobs"]
            for s in job["steps"] for g in s["gaps"]]


RUN = "import subprocess\n"
UNREAD = [(".github/workflows/ci.yml", 6, "a Python program linkgate does not read")]
CASES = {
    # Past the 512 KiB linkgate reads of any script: the textual scan, as for any unread program.
    "huge file": (RUN + "x = 'a'\n" * 70_000 + "subprocess.run(['cargo', 'test'])\n", UNREAD),
    # Python's parser refuses this nesting (a SyntaxError or RecursionError inside ast.parse).
    "nested brackets": (RUN + "x = " + "[" * 5000 + "]" * 5000 + "\nsubprocess.run(['cargo', 'test'])\n", UNREAD),
    "nested ifs": (RUN + "".join(" " * i + "if x:\n" for i in range(150)) + " " * 150 + "pass\n", UNREAD),
    # Parsed, but the reader's recursion over it runs out of stack: the whole file is unread.
    "long sum": (RUN + "x = " + " + ".join(["'a'"] * 60_000) + "\nsubprocess.run(['cargo', x])\n", None),
    "doubling string": (RUN + "x = 'ab'\n" + "x = x + x\n" * 64 + "subprocess.run(['cargo', x])\n",
                        [("ci/x.py", 67, "a command the Python script runs is not read: "
                                         "a string past 65536 characters at line 18")]),
    "doubling list": (RUN + "x = ['cargo']\n" + "x.extend(x)\n" * 64 + "subprocess.run(x)\n",
                      [("ci/x.py", 67, "a command the Python script runs is not read: "
                                       "a list past 4096 words at line 15")]),
    "fan-out": (RUN + "def f0():\n    subprocess.run(['cargo', 'test'])\n" +
                "".join(f"def f{i}():\n" + f"    f{i - 1}()\n" * 10 for i in range(1, 8)) + "f7()\n", None),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(CASES))
def test_python_script_bombs_are_bounded_and_named(sandbox: tuple[Path, Path], name: str) -> None:
    script, expected = CASES[name]
    doc = audit(sandbox, script)
    found = gaps(doc)
    if expected is not None:
        assert found == expected
    else:
        assert found, "what was not read is named"
    assert len(doc["invocations"]) <= 1000

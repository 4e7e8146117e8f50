"""Python CI scripts read with literal argv (workflows.pyscript): the cargo commands they start
are invocations at the script's lines; what cannot be computed is an unread part named at its
line, never a guess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linkgate.cli import main

WF = ".github/workflows/ci.yml"

CARGO = """[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[features]
fast = []
slow = []
"""

RUN_TESTS = """\
#!/usr/bin/env python3
import os
import shlex
import subprocess
import sys

FEATURES = "--all-features"
CRATES = ["demo", "other"]


def main():
    args = ["cargo", "test", "--workspace", FEATURES]
    args.append("--exclude=x")
    args.extend(sys.argv[1:])
    subprocess.run(args, check=True)
    for crate in CRATES:
        subprocess.check_call(["cargo", "build", "-p", crate])
    os.system("cargo fmt --check")
    subprocess.run(shlex.split("cargo bench --no-run"), cwd="sub",
                   env={**os.environ, "RUSTFLAGS": "-Dwarnings"})
    if os.environ.get("NIGHTLY"):
        subprocess.run(["cargo", "miri", "test"])
    for path in os.listdir("crates"):
        subprocess.run(["cargo", "doc", "--manifest-path", path])
    subprocess.run(["cargo", os.environ["CMD"]])
    subprocess.run(["cargo", "clippy", f"--features={helper()}"])


def helper():
    return os.environ["FEATURES"]


if __name__ == "__main__":
    main()
"""


def _repo(tmp_path: Path, workflow: str, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for rel, text in {"Cargo.toml": CARGO, "src/lib.rs": "", WF: workflow, **files}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    return repo


def _audit(repo: Path) -> dict[str, Any]:
    out = repo.parent / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def _workflow(*runs: str) -> str:
    steps = "".join(f"      - run: {r}\n" for r in runs)
    return ("name: ci\non:\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
            f"    steps:\n      - uses: actions/checkout@v4\n{steps}")


def _steps(doc: dict[str, Any]) -> list[tuple[int, str, list[tuple[str, str, bool]]]]:
    return [(s["line"], s["status"], [(f"{g['file']}:{g['line']}", g["why"], g["may_run_cargo"]) for g in s["gaps"]])
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]]


def test_a_python_script_with_literal_argv_yields_invocations_at_its_lines(tmp_path: Path) -> None:
    repo = _repo(tmp_path, _workflow("python3 ci/run-tests.py --features fast"), {"ci/run-tests.py": RUN_TESTS})
    doc = _audit(repo)
    found = [(i["file"], i["line"], i["argv"], i["cwd"]) for i in doc["invocations"]]
    assert found == [
        ("ci/run-tests.py", 15, ["cargo", "test", "--workspace", "--all-features", "--exclude=x", "--features",
                                 "fast"], ""),
        ("ci/run-tests.py", 17, ["cargo", "build", "-p", "demo"], ""),
        ("ci/run-tests.py", 17, ["cargo", "build", "-p", "other"], ""),
        ("ci/run-tests.py", 18, ["cargo", "fmt", "--check"], ""),
        ("ci/run-tests.py", 19, ["cargo", "bench", "--no-run"], "sub"),
    ]
    first = doc["invocations"][0]
    assert first["via"] == [f"{WF}:9 python3 ci/run-tests.py --features fast", "ci/run-tests.py:15"]
    assert (first["workflow"], first["all_features"], first["workspace"]) == (WF, True, True)
    part = "a command the Python script runs is not read: "
    assert _steps(doc) == [(8, "read", []), (9, "partly read", [
        ("ci/run-tests.py:22", part + "it runs under the `if` at line 21, which linkgate does not evaluate", True),
        ("ci/run-tests.py:24", part + "it runs in the loop at line 23, which linkgate does not evaluate", True),
        ("ci/run-tests.py:25", part + "os.environ at line 25", True),
        ("ci/run-tests.py:26", part + "an f-string of a value not computed at line 26", True),
    ])]
    files = [(f["file"], f["status"]) for f in doc["coverage"]["files"]]
    assert files == [("ci/run-tests.py", "partly read")]
    notes = sorted((f["file"], f["line"]) for f in doc["findings"] if f["rule"] == "unresolved")
    assert notes == [("ci/run-tests.py", 22), ("ci/run-tests.py", 24), ("ci/run-tests.py", 25),
                     ("ci/run-tests.py", 26)]


def test_shebang_module_and_a_fully_read_script_are_read(tmp_path: Path) -> None:
    script = ("#!/usr/bin/env python3\nimport subprocess as sp\nfrom subprocess import check_call\n"
              "BASE = ['cargo', 'test']\n\ndef run(extra):\n    check_call(BASE + extra)\n\n"
              "run(['--features', 'slow'])\nsp.call(['cargo', 'check'])\n")
    repo = _repo(tmp_path, _workflow("./ci/check.py", "python -m ci.check"), {"ci/check.py": script})
    (repo / "ci/check.py").chmod(0o755)
    doc = _audit(repo)
    found = [(i["file"], i["line"], i["argv"], i["via"][0]) for i in doc["invocations"]]
    assert found == [
        ("ci/check.py", 7, ["cargo", "test", "--features", "slow"], f"{WF}:9 ./ci/check.py"),
        ("ci/check.py", 10, ["cargo", "check"], f"{WF}:9 ./ci/check.py"),
        ("ci/check.py", 7, ["cargo", "test", "--features", "slow"], f"{WF}:10 python -m ci.check"),
        ("ci/check.py", 10, ["cargo", "check"], f"{WF}:10 python -m ci.check"),
    ]
    assert _steps(doc) == [(8, "read", []), (9, "read", []), (10, "read", [])]
    assert [(f["file"], f["status"]) for f in doc["coverage"]["files"]] == [("ci/check.py", "read")]


def test_a_script_not_valid_python_stays_unread_with_its_scan(tmp_path: Path) -> None:
    repo = _repo(tmp_path, _workflow("python ci/broken.py"),
                 {"ci/broken.py": "import subprocess\nsubprocess.run(['cargo', 'test'\n"})
    doc = _audit(repo)
    assert doc["invocations"] == []
    assert _steps(doc) == [(8, "read", []), (9, "partly read", [
        (f"{WF}:9", "a Python program linkgate does not read", True)])]
    gap = doc["coverage"]["workflows"][0]["jobs"][0]["steps"][1]["gaps"][0]
    assert [(m["file"], m["line"]) for m in gap["mentions"]] == [("ci/broken.py", 2)]
    assert [(f["file"], f["status"]) for f in doc["coverage"]["files"]] == [("ci/broken.py", "unread")]


def test_a_module_outside_the_standard_library_is_a_part_not_read(tmp_path: Path) -> None:
    script = ("import subprocess\nfrom invoke import run\nimport setuptools_rust\n"
              "subprocess.run(['cargo', 'check'])\nrun('cargo test')\nsubprocess.getoutput('cargo doc')\n")
    doc = _audit(_repo(tmp_path, _workflow("python3 ci/tasks.py"), {"ci/tasks.py": script}))
    assert [(i["line"], i["argv"]) for i in doc["invocations"]] == [(4, ["cargo", "check"])]
    part = "a command the Python script runs is not read: "
    assert _steps(doc) == [(8, "read", []), (9, "partly read", [
        ("ci/tasks.py:2", part + "it imports invoke, a module linkgate does not read; what it runs is not known", True),
        ("ci/tasks.py:3", part + "it imports setuptools_rust, a module linkgate does not read; what it runs is not "
                                 "known", True),
        ("ci/tasks.py:6", part + "it starts a program with subprocess.getoutput, which linkgate does not read", True),
    ])]

"""Class: generated YAML. Values a workflow must not carry as they are (line and
paragraph separators, NEL, control characters, YAML 1.1's booleans and
sexagesimals), gate names that are no identifier, cron strings, and workflows
whose bytes are the user's. Each case asserts the exact exit code and message,
that a refused case changed nothing in the repository, and that a written
workflow reads as the same structure under YAML 1.1 and YAML 1.2."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from gateruns import gate_jobs_that_cannot_run
from harness import run, tree_digest
from ruamel.yaml import YAML

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ci" / "repo"
WF = Path(".github/workflows/ci.yml")
PIN = "git+https://github.com/rtlab/linkgate@3f1c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"
CI = f'[ci]\ninstall = "{PIN}"\n'


def gate(name: str = "g", extra: str = "") -> str:
    return f'\n[[gate]]\nname = "{name}"\ncargo = ["build"]\npaths = ["src/**"]\n{extra}'


def both(text: str) -> tuple[Any, Any]:
    one = yaml.safe_load(text)
    if isinstance(one, dict) and True in one:
        one["on"] = one.pop(True)  # `on:` is YAML 1.1's boolean true, in every workflow
    return one, YAML(typ="safe", pure=True).load(text)


@dataclass(frozen=True)
class Case:
    id: str
    config: str
    argv: tuple[str, ...]
    code: int
    message: str
    workflow: bytes | None = None
    check: Callable[[Path, dict[str, Any]], None] | None = field(default=None, compare=False)


def job(name: str, key: str, want: Any) -> Callable[[Path, dict[str, Any]], None]:
    def check(repo: Path, doc: dict[str, Any]) -> None:
        got: Any = doc["jobs"][name]
        for part in key.split("."):
            got = got[int(part)] if part.isdigit() else got[part]
        assert got == want

    return check


def provision_run(want: str) -> Callable[[Path, dict[str, Any]], None]:
    def check(repo: Path, doc: dict[str, Any]) -> None:
        runs = [s["run"] for s in doc["jobs"]["g"]["steps"] if str(s.get("name", "")).startswith("Provision (")]
        assert runs == [want]

    return check


def no_job(name: str) -> Callable[[Path, dict[str, Any]], None]:
    def check(repo: Path, doc: dict[str, Any]) -> None:
        assert name not in doc["jobs"] and "g" in doc["jobs"]

    return check


def runs(repo: Path, doc: dict[str, Any]) -> None:
    assert gate_jobs_that_cannot_run(doc) == {}


def crlf(repo: Path, doc: dict[str, Any]) -> None:
    data = (repo / WF).read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"")


def cron(want: str) -> Callable[[Path, dict[str, Any]], None]:
    def check(repo: Path, doc: dict[str, Any]) -> None:
        scheduled = both((repo / ".github/workflows/linkgate-g.yml").read_text(encoding="utf-8"))
        assert scheduled[0] == scheduled[1] and scheduled[0]["on"]["schedule"] == [{"cron": want}]

    return check


W = ("ci", "github", "g", "--write")
P = ("ci", "github", "g", "--trigger", "paths", "--write")
SEPS = {"U+2028": ("\\u2028", "U+2028 LINE SEPARATOR"), "U+2029": ("\\u2029", "U+2029 PARAGRAPH SEPARATOR"),
        "NEL": ("\\u0085", "NEL (U+0085)")}
INJECT = "x{s}  evil:{s}    runs-on: ubuntu-latest{s}    steps:{s}      - run: echo PWNED{s}#"
CRLF_WF = (FIXTURE / WF).read_bytes().replace(b"\n", b"\r\n")

CASES = [
    *(Case(f"why-{k}-injects-no-job", gate(extra=f'why = "{INJECT.format(s=e)}"\n'), W, 0, "wrote .github/workflows/ci.yml",
           check=no_job("evil")) for k, (e, _) in SEPS.items()),
    Case("cargo-argument-U+2028-injects-no-job",
         '\n[[gate]]\nname = "g"\ncargo = ["build", "--features", "' + INJECT.format(s="\\u2028") + '"]\n'
         'paths = ["src/**"]\n', W, 0, "wrote .github/workflows/ci.yml", check=no_job("evil")),
    Case("command-argument-NEL-injects-no-job",
         '\n[[gate]]\nname = "g"\ncommand = ["make", "' + INJECT.format(s="\\u0085") + '"]\n'
         'paths = ["src/**"]\n', W, 0, "wrote .github/workflows/ci.yml", check=no_job("evil")),
    *(Case(f"env-value-{k}", gate(extra=f'env = {{ A = "a{e}b" }}\n'), W, 2,
           f"linkgate.toml:4: gate.g.env.A: holds {d}") for k, (e, d) in SEPS.items()),
    Case("provision-U+2028", gate(extra='provision = ["echo a\\u2028evil: 1"]\n'), W, 2,
         "linkgate.toml:4: gate.g.provision[0]: holds U+2028 LINE SEPARATOR"),
    Case("provision-env-NEL", gate(extra='provision-env = ["bash env.sh\\u0085x"]\n'), W, 2,
         "linkgate.toml:4: gate.g.provision-env[0]: holds NEL (U+0085)"),
    Case("runner-U+2029", gate(extra='runner = ["ubuntu-latest\\u2029x"]\n'), W, 2,
         "linkgate.toml:4: gate.g.runner[0]: holds U+2029 PARAGRAPH SEPARATOR"),
    Case("target-dir-U+2028", gate(extra='target-dir = "t\\u2028x"\n'), W, 2,
         "linkgate.toml:4: gate.g.target-dir: holds U+2028 LINE SEPARATOR"),
    Case("paths-U+2028", '\n[[gate]]\nname = "g"\ncargo = ["build"]\npaths = ["src/**\\u2028- evil"]\n', P, 2,
         "linkgate.toml:4: gate.g.paths[0]: holds U+2028 LINE SEPARATOR"),
    Case("env-escape-char", gate(extra='env = { A = "a\\u001b[31m" }\n'), W, 2,
         "gate.g.env.A: holds the control character U+001B"),
    Case("env-delete-char", gate(extra='env = { A = "a\\u007f" }\n'), W, 2,
         "gate.g.env.A: holds the control character U+007F"),
    Case("env-c1-char", gate(extra='env = { A = "a\\u009b" }\n'), W, 2,
         "gate.g.env.A: holds the control character U+009B"),
    Case("env-bom", gate(extra='env = { A = "\\ufeffx" }\n'), W, 2, "gate.g.env.A: holds a byte-order mark (U+FEFF)"),
    Case("env-multiline-U+2028", gate(extra='env = { A = "a\\nb\\u2028c" }\n'), W, 2,
         "gate.g.env.A: holds U+2028 LINE SEPARATOR at character 4"),
    Case("env-carriage-return", gate(extra='env = { A = "a\\rb" }\n'), W, 2, "gate.g.env.A: holds a line break"),
    Case("env-yes-stays-a-string", gate(extra='env = { A = "yes", B = "on", C = "n" }\n'), W, 0, "wrote",
         check=job("g", "env", {"A": "yes", "B": "on", "C": "n"})),
    Case("env-sexagesimal-stays-a-string", gate(extra='env = { A = "12:30", B = "1:2:3" }\n'), W, 0, "wrote",
         check=job("g", "env", {"A": "12:30", "B": "1:2:3"})),
    Case("env-numbers-stay-strings", gate(extra='env = { A = "0o17", B = "1e3", C = "0x1F", D = "~" }\n'), W, 0,
         "wrote", check=job("g", "env", {"A": "0o17", "B": "1e3", "C": "0x1F", "D": "~"})),
    Case("env-tab-and-indicators", gate(extra='env = { A = "a\\tb", B = "- x", C = "x: y #z" }\n'), W, 0, "wrote",
         check=job("g", "env", {"A": "a\tb", "B": "- x", "C": "x: y #z"})),
    Case("provision-block-with-odd-spaces", gate(extra='provision = ["  lead\\n trail  \\n\\n"]\n'), W, 0, "wrote",
         check=provision_run("  lead\n trail  \n\n\n")),
    Case("runner-labels-yaml-1.1-would-misread",
         gate(extra='runner = ["self-hosted", "on", "a,b", "12:30"]\n'), (*W, "--repository", "rtlab/rtcore"), 0,
         "wrote", check=job("g", "runs-on", ["self-hosted", "on", "a,b", "12:30"])),
    Case("name-1st-runs", gate("1st"), ("ci", "github", "1st", "--trigger", "paths", "--write"), 0, "wrote",
         check=runs),
    Case("name-my.gate-runs", gate("my.gate"), ("ci", "github", "my.gate", "--trigger", "paths", "--write"), 0,
         "wrote", check=runs),
    Case("name-v1.2-matrix-runs", gate("v1.2"),
         ("ci", "github", "v1.2", "--trigger", "paths", "--matrix", "--write"), 0, "wrote", check=runs),
    Case("name-on-runs", gate("on"), ("ci", "github", "on", "--trigger", "paths", "--write"), 0, "wrote",
         check=runs),
    Case("names-meeting-in-one-job-id", gate("my.gate") + gate("my-gate"),
         ("ci", "github", "my.gate", "--write"), 2,
         "gates 'my.gate' and 'my-gate' would both be the job 'my-gate'"),
    Case("names-meeting-in-one-job-id-but-for-case", gate("Link") + gate("link"),
         ("ci", "github", "link", "--write"), 2, "gates 'link' and 'Link' would both be the job 'link'"),
    Case("name-upper-case-runs", gate("9UP"), ("ci", "github", "9UP", "--trigger", "paths", "--write"), 0, "wrote",
         check=runs),
    Case("cron-letters", gate(), ("ci", "github", "g", "--trigger", "schedule:a b c d e", "--write"), 2,
         "the minute field: 'a' is not *, a value, a range or a step"),
    Case("cron-quote", gate(), ("ci", "github", "g", "--trigger", "schedule:0 0 * * 1'", "--write"), 2,
         "the day of the week field: \"1'\" is not *, a value, a range or a step"),
    Case("cron-at-daily", gate(), ("ci", "github", "g", "--trigger", "schedule:@daily", "--write"), 2,
         "a cron schedule is five fields separated by spaces"),
    Case("cron-minute-60", gate(), ("ci", "github", "g", "--trigger", "schedule:60 * * * *", "--write"), 2,
         "the minute field: '60' is outside 0-59"),
    Case("cron-sunday-7", gate(), ("ci", "github", "g", "--trigger", "schedule:0 0 * * 7", "--write"), 2,
         "the day of the week field: '7' is outside 0-6 or SUN-SAT"),
    Case("cron-U+2028", gate(), ("ci", "github", "g", "--trigger", "schedule:0 0 * * *\u2028x: 1", "--write"), 2,
         "a cron schedule is five fields separated by spaces"),
    Case("cron-U+2028-in-a-field", gate(), ("ci", "github", "g", "--trigger", "schedule:0 0 * * 1\u2028", "--write"),
         2, "the day of the week field: '1\\u2028' is not *, a value, a range or a step"),
    Case("cron-valid", gate(), ("ci", "github", "g", "--trigger", "schedule:17 3 * JAN-JUN mon-fri", "--write"), 0,
         "wrote .github/workflows/linkgate-g.yml", check=cron("17 3 * JAN-JUN mon-fri")),
    Case("install-option-U+2028", gate(), (*W, "--install", "linkgate==0.1\u2028evil: 1"), 2,
         "must be one line with no control characters"),
    Case("install-config-NEL", "", W, 2, "ci.install: must be one line with no control characters"),
    Case("workflow-crlf-kept", gate(), P, 0, "wrote", workflow=CRLF_WF, check=crlf),
    Case("workflow-not-utf8", gate(), W, 2, "ci.yml:2: not UTF-8 (byte 0xFF)", workflow=b"on: push\n\xff\n"),
    Case("workflow-U+2028", gate(), W, 2, "ci.yml:3: U+2028 LINE SEPARATOR",
         workflow="on: push\njobs:\n  a: # x\u2028y\n    runs-on: x\n".encode()),
    Case("workflow-lone-cr", gate(), W, 2, "ci.yml:1: a carriage return without a line feed",
         workflow=b"on: push\rjobs: {}\r"),
    Case("workflow-is-a-directory", gate(), ("ci", "github", "g", "--workflow", ".github/workflows/d.yml", "--write"),
         2, ".github/workflows/d.yml is a directory, not a workflow file"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_generated_yaml(sandbox: tuple[Path, Path], case: Case) -> None:
    outside, repo = sandbox
    shutil.copytree(FIXTURE, repo, dirs_exist_ok=True)
    config = CI if case.id != "install-config-NEL" else f'[ci]\ninstall = "linkgate==0.1\\u0085x"\n' + gate()
    (repo / "linkgate.toml").write_text(config + case.config)
    if case.workflow is not None:
        (repo / WF).write_bytes(case.workflow)
    (repo / ".github" / "workflows" / "d.yml").mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    before = tree_digest(repo, skip=repo / ".git")
    result = run(list(case.argv), repo, outside=outside, repo=repo)
    assert result.code == case.code, result.err
    assert case.message in result.err, result.err
    if case.code != 0:
        assert tree_digest(repo, skip=repo / ".git") == before
        return
    one, two = both((repo / WF).read_bytes().decode("utf-8"))
    assert one == two
    if case.check is not None:
        case.check(repo, one)

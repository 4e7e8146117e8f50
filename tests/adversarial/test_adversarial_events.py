"""Class: event payloads. Whatever GITHUB_EVENT_PATH holds, should-run answers
true or false with exit 0, answers false only when every commit the event names
is a real commit of the repository and the change misses the filter, writes no
file, and never passes a value to git as an option."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CONFIG = '[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["build.rs"]\n'


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
           "HOME": str(repo), "PATH": "/usr/bin:/bin:/usr/local/bin"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str, str]:
    """(outside, repo, base, head): head changes only README.md, so the honest answer is false."""
    outside = tmp_path_factory.mktemp("events")
    (outside / "sentinel.txt").write_text("x")
    repo = outside / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "linkgate.toml").write_text(CONFIG)
    (repo / "build.rs").write_text("fn main() {}\n")
    (repo / "README.md").write_text("a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "README.md").write_text("b\n")
    git(repo, "commit", "-qam", "docs")
    return outside, repo, base, git(repo, "rev-parse", "HEAD").strip()


def ask(world: tuple[Path, Path, str, str], monkeypatch: pytest.MonkeyPatch, event: str, payload: str,
        *args: str) -> tuple[int, str, str]:
    outside, repo, _, _ = world
    path = outside / "event.json"
    path.write_text(payload)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", event)
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    for var in ("GITHUB_BASE_REF", "GITHUB_REF", "GITHUB_OUTPUT"):
        monkeypatch.delenv(var, raising=False)
    try:
        result = run(["should-run", "g", *args], repo, outside=outside, repo=repo)
    finally:
        path.unlink()
    assert not (outside / "trap").exists()
    return result.code, result.out, result.err


HOSTILE = st.sampled_from([
    "--output=TRAP", "-p", "--", "HEAD", "HEAD~1", "main", "a" * 39, "a" * 41, "g" * 40, "0" * 40, "", " ",
    "a" * 40 + "\n", "a" * 40 + " --output=TRAP", "refs/heads/main", "ma..in", "@", "@{1}", "x\x00y", "ü" * 40,
    "$(touch TRAP)", "`touch TRAP`", "-" * 40, "^main", "main^", ":/", "HEAD:build.rs", "1e309",
])


@st.composite
def payloads(draw: st.DrawFn, base: str, head: str) -> tuple[str, str]:
    event = draw(st.sampled_from(["push", "pull_request", "pull_request_target", "merge_group", "release",
                                  "workflow_dispatch", "schedule", "issue_comment"]))

    def value() -> object:
        return draw(st.one_of(HOSTILE, st.sampled_from([base, head]), st.integers(), st.none(),
                              st.lists(HOSTILE, max_size=2), st.dictionaries(HOSTILE, HOSTILE, max_size=2)))

    doc = {
        "before": value(), "after": value(), "ref": value(),
        "repository": draw(st.sampled_from([{"default_branch": value()}, value()])),
        "pull_request": draw(st.sampled_from([{"number": value(), "base": {"sha": value()}, "head": {"sha": value()}},
                                              value()])),
        "merge_group": draw(st.sampled_from([{"base_sha": value(), "head_sha": value()}, value()])),
    }
    text = json.dumps(doc)
    return event, text


def trap_in(text: str, outside: Path) -> str:
    return text.replace("TRAP", str(outside / "trap"))


def commits_named(event: str, doc: object) -> list[object]:
    """The values should-run may take as commits for *event*."""
    if not isinstance(doc, dict):
        return []
    pr = doc.get("pull_request") if isinstance(doc.get("pull_request"), dict) else {}
    mg = doc.get("merge_group") if isinstance(doc.get("merge_group"), dict) else {}
    pr_base = pr.get("base") if isinstance(pr.get("base"), dict) else {}
    pr_head = pr.get("head") if isinstance(pr.get("head"), dict) else {}
    return {"push": [doc.get("before")], "merge_group": [mg.get("base_sha"), mg.get("head_sha")]}.get(
        event, [pr_base.get("sha"), pr_head.get("sha")] if event.startswith("pull_request") else [])


@pytest.mark.timeout(600)
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_generated_events_never_fail_open(world, monkeypatch, data):
    outside, repo, base, head = world
    event, text = data.draw(payloads(base, head))
    code, out, err = ask(world, monkeypatch, event, trap_in(text, outside))
    assert code == 0, err
    assert out in ("true\n", "false\n"), out
    assert len(err.strip().splitlines()) == 1, err
    if out == "false\n":
        named = commits_named(event, json.loads(text))
        assert all(v in (base, head, None) for v in named), (event, text, err)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("arg", ["--output=TRAP", "-x", "HEAD\n--output=TRAP", "", "\x01"])
@pytest.mark.parametrize("option", ["--base", "--head"])
def test_hostile_command_line_revisions_run_the_gate(world, monkeypatch, option, arg):
    outside, _, base, _ = world
    code, out, err = ask(world, monkeypatch, "push", "{}", option, trap_in(arg, outside),
                         *(["--base", base] if option == "--head" else []))
    assert (code, out) == (0, "true\n"), err


@pytest.mark.timeout(120)
@pytest.mark.parametrize("payload", ["[" * 200_000 + "]" * 200_000, "{" + '"a":' * 1000, "\xff\xfe", "null", "5",
                                     '"str"', "[]", '{"before": {"$ref": "#"}}'])
def test_unreadable_or_odd_payloads_run_the_gate(world, monkeypatch, payload):
    code, out, err = ask(world, monkeypatch, "push", payload)
    assert (code, out) == (0, "true\n"), err


def test_an_honest_pull_request_is_still_judged(world, monkeypatch):
    _, _, base, head = world
    doc = {"pull_request": {"number": 1, "base": {"sha": base}, "head": {"sha": head}}}
    assert ask(world, monkeypatch, "pull_request", json.dumps(doc))[:2] == (0, "false\n")

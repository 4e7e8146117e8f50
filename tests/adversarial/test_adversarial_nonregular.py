"""Class: non-regular and huge inputs. A FIFO, a character device (as
``/dev/zero``) or a 3 GB sparse file as a workflow, script, Makefile, justfile,
package.json, Makefile.toml, filters file, log, history, event payload,
``--workflow`` or configuration: each refused at once with one message (the audit
with an ``unresolved`` or ``invalid-workflow`` note naming the file), never
waited on and never read whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from harness import run

CARGO = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
CONFIG = '[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["build.rs"]\n'
SPARSE = 3 * 1024**3


def special(path: Path, kind: str) -> None:
    """A FIFO, /dev/zero's device (char 1:5), or a 3 GB sparse file at *path*."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "device":
        os.mknod(path, 0o666 | 0o020000, os.makedev(1, 5))
    else:
        with open(path, "wb") as fh:
            fh.truncate(SPARSE)


KINDS = ["fifo", "device", "sparse"]
LOOPS = [*KINDS, "loop"]
# the repository file made special -> the workflow line that reads it
AUDITED = {
    "script": ("x.sh", "bash ./x.sh"),
    "Makefile": ("Makefile", "make"),
    "Makefile in sub": ("sub/Makefile", "make -C sub"),
    "justfile": ("justfile", "just"),
    "package.json": ("package.json", "npm run build"),
    "Makefile.toml": ("Makefile.toml", "cargo make"),
    "workflow": (".github/workflows/other.yml", "cargo build"),
    "cargo config": (".cargo/config.toml", "cargo xbuild"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", LOOPS)
@pytest.mark.parametrize("case", sorted(AUDITED))
def test_the_audit_refuses_a_special_file_with_a_note(sandbox, case, kind):
    outside, repo = sandbox
    rel, line = AUDITED[case]
    (repo / "Cargo.toml").write_text(CARGO)
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "sub").mkdir()
    (repo / ".git").mkdir()
    wf = repo / ".github" / "workflows"
    wf.mkdir(parents=True)
    (wf / "ci.yml").write_text("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                               f"      - run: {line}\n")
    special(repo / rel, kind)
    result = run(["audit", "--repo", str(repo), "--format", "json"], repo, outside=outside, repo=repo)
    doc = json.loads(result.out)
    named = [f for f in doc["findings"] if rel in f["message"] or f["file"] == rel]
    assert named, doc["findings"]
    if case == "workflow":
        assert result.code == (1 if kind == "sparse" else 0), result.err
        assert any(("not a regular file" in f["message"]) or ("over GitHub's 500 KB" in f["message"])
                   or ("a loop of symlinks" in f["message"]) for f in named), named
    else:
        assert result.code == 0, result.err
        why = {"sparse": "bytes, over the", "loop": "a loop of symlinks"}.get(kind, "not a regular file")
        assert any(f["rule"] == "unresolved" and why in f["message"] for f in named), named


def repo_with_config(repo: Path) -> None:
    (repo / ".git").mkdir()
    (repo / "linkgate.toml").write_text(CONFIG)
    (repo / "build.rs").write_text("fn main() {}\n")


# a command and the file it is given (under the repository), each refused with exit 2 or
# answered fail-closed; the expected exit code and words of the one message
COMMANDS = {
    "explain LOG": (["explain", "{f}"], 2, "not a regular file|bytes, over the"),
    "cost --history": (["cost", "--history", "{f}"], 2, "not a history file|not an SQLite database|bytes"),
    "report html --history": (["report", "html", "--history", "{f}", "-o", "{o}"], 2,
                              "not a history file|not an SQLite database|bytes"),
    "history import": (["history", "import", "{f}", "--history", "{o}.sqlite"], 2, "not a regular file|bytes, over the"),
    "ci github --workflow": (["ci", "github", "g", "--workflow", "{f}", "--write", "--install", "linkgate==0.1"], 2,
                             "not a regular file|bytes, over the"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_a_command_refuses_a_special_file_at_once(sandbox, case, kind):
    import re

    outside, repo = sandbox
    repo_with_config(repo)
    argv, code, words = COMMANDS[case]
    path = repo / ".github" / "workflows" / "special.yml"
    special(path, kind)
    argv = [a.format(f=path, o=repo / "out.html") for a in argv]
    result = run(argv if case in ("history import", "explain LOG") else [*argv, "--repo", str(repo)], repo,
                 outside=outside, repo=repo)
    assert result.code == code, (result.code, result.err)
    assert re.search(words, result.err), result.err
    assert result.err.count("linkgate: error:") == 1, result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_an_event_payload_that_is_special_runs_the_gate(sandbox, kind, monkeypatch):
    outside, repo = sandbox
    repo_with_config(repo)
    path = repo / "event.json"
    special(path, kind)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    for var in ("GITHUB_BASE_REF", "GITHUB_REF", "GITHUB_OUTPUT"):
        monkeypatch.delenv(var, raising=False)
    result = run(["should-run", "g"], repo, outside=outside, repo=repo)
    # Fail closed: what changed cannot be told, so the gate runs, and the payload is named.
    assert result.code == 0 and "true" in result.out, (result.out, result.err)
    assert str(path) in result.err and ("not a regular file" in result.err or "bytes, over the" in result.err)


def crate(repo: Path) -> None:
    (repo / ".git").mkdir()
    (repo / "Cargo.toml").write_text(CARGO)
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n')


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_a_special_build_script_is_named_unreadable_in_the_surface(sandbox, kind):
    outside, repo = sandbox
    crate(repo)
    special(repo / "build.rs", kind)
    result = run(["surface", "g", "--static", "--format", "json", "--repo", str(repo)], repo, outside=outside,
                 repo=repo)
    doc = json.loads(result.out)
    assert result.code == 0, result.err
    assert {"path": "build.rs", "why": "build script of package x (unreadable)"} in doc["paths"]
    why = "bytes, over the 16,777,216 linkgate reads" if kind == "sparse" else "not a regular file"
    assert any("build.rs" in n and why in n for n in doc["notes"]), doc["notes"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("verb", [["cost"], ["audit"], ["should-run", "g"]])
def test_a_special_configuration_is_refused_with_one_message(sandbox, kind, verb):
    outside, repo = sandbox
    (repo / ".git").mkdir()
    special(repo / "linkgate.toml", kind)
    result = run([*verb, "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert result.code == 2, (result.code, result.err)
    why = "bytes, over the" if kind == "sparse" else "not a regular file"
    assert "linkgate.toml: it is" in result.err and why in result.err, result.err
    assert result.err.count("linkgate: error:") == 1, result.err

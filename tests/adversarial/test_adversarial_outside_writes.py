"""Class: writes outside the repository through linkgate's own state. A
repository commits ``.linkgate`` (or ``lock``, ``crash.log``, ``report.html``,
``.gitignore``, ``history.sqlite``, its ``-wal``, ``target/linkgate/.gitignore``)
as a symlink to a file or directory outside, or to its own ``src/main.rs``: the
command that would write there exits 2 naming the file, a crash writes its log to
a fresh temporary file, and the link's target is unchanged byte for byte."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from harness import run

from linkgate import cli
from linkgate.config import load
from linkgate.errors import UnsafeState
from linkgate.gate import layout

CONFIG = '[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["build.rs"]\n'
MAIN = b"fn main() { println!(\"mine\"); }\n"
VICTIM = b"the user's file\n"
REFUSED = "linkgate writes nothing through it"

# the state file linked -> whether each command writes or opens it (exit 2), else its own exit code
LINKS = [".linkgate", ".linkgate/lock", ".linkgate/crash.log", ".linkgate/report.html", ".linkgate/.gitignore",
         ".linkgate/history.sqlite", ".linkgate/history.sqlite-wal"]
TOUCHES = {
    "report html": set(LINKS) - {".linkgate/lock", ".linkgate/crash.log"},
    "cost": {".linkgate", ".linkgate/history.sqlite", ".linkgate/history.sqlite-wal"},
}
COMMANDS = {"report html": ["report", "html"], "cost": ["cost"]}


def make_repo(outside: Path, repo: Path, rel: str, target: str) -> Path:
    """The repository with *rel* a symlink to the victim; returns the victim."""
    (repo / ".git").mkdir()
    (repo / "linkgate.toml").write_text(CONFIG)
    (repo / "build.rs").write_text("fn main() {}\n")
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_bytes(MAIN)
    (outside / "victim.txt").write_bytes(VICTIM)
    (outside / "victim-dir").mkdir()
    (outside / "victim-dir" / "keep.txt").write_bytes(VICTIM)
    if rel == ".linkgate":
        victim = (outside / "victim-dir") if target == "outside" else repo / "src"
    else:
        victim = (outside / "victim.txt") if target == "outside" else repo / "src" / "main.rs"
        (repo / ".linkgate").mkdir()
    (repo / rel).symlink_to(victim)
    return victim


def digest(path: Path) -> str:
    if path.is_dir():
        return "|".join(f"{p.name}:{digest(p)}" for p in sorted(path.iterdir()))
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", ["outside", "src/main.rs"])
@pytest.mark.parametrize("rel", LINKS)
@pytest.mark.parametrize("verb", sorted(COMMANDS))
def test_a_command_writes_nothing_through_a_committed_state_link(sandbox, verb, rel, target):
    outside, repo = sandbox
    victim = make_repo(outside, repo, rel, target)
    before = digest(victim)
    result = run([*COMMANDS[verb], "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert digest(victim) == before
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    if rel in TOUCHES[verb]:
        assert result.code == 2, (result.code, result.err)
        assert REFUSED in result.err and result.err.count("linkgate: error:") == 1, result.err
    else:
        assert result.code == 0, (result.code, result.err)
        assert REFUSED not in result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", ["outside", "src/main.rs"])
@pytest.mark.parametrize("rel", [".linkgate", ".linkgate/crash.log", ".linkgate/.gitignore"])
def test_a_crash_never_writes_its_log_through_a_link(sandbox, rel, target, monkeypatch, capsys):
    outside, repo = sandbox
    victim = make_repo(outside, repo, rel, target)
    before = digest(victim)
    monkeypatch.chdir(repo)
    code = cli._crash(RuntimeError("boom"))
    assert code == 3
    assert digest(victim) == before
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    err = capsys.readouterr().err
    shown = err.split("see `", 1)[1].split("`", 1)[0]
    assert not Path(shown).is_relative_to(repo) and "RuntimeError: boom" in Path(shown).read_text()
    Path(shown).unlink()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", ["outside", "src/main.rs"])
def test_the_target_gitignore_is_never_written_through_a_link(sandbox, target):
    outside, repo = sandbox
    victim = make_repo(outside, repo, ".linkgate/lock", target)
    before = digest(victim)
    base = repo / "target" / "linkgate"
    base.mkdir(parents=True)
    (base / ".gitignore").symlink_to(victim)
    cfg = load(None, root=str(repo))
    with pytest.raises(UnsafeState, match=REFUSED):
        layout.hide_default_root(cfg, base / "g" / "bfd")
    assert digest(victim) == before


def journal(repo: Path, entry_path: str) -> None:
    original = b"attacker's bytes\n"
    doc = {"version": 1, "pid": 1, "entries": [{
        "path": entry_path, "original_b64": base64.b64encode(original).decode(),
        "original_sha256": hashlib.sha256(original).hexdigest(), "mutated_sha256": "0" * 64,
        "mode": 0o644, "mtime_ns": 0, "caches": None}]}
    (repo / ".linkgate").mkdir(exist_ok=True)
    (repo / ".linkgate" / "journal.json").write_text(json.dumps(doc))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("entry", ["../victim.txt", "{outside}/victim.txt", "link/main.rs", "src/../../victim.txt"])
def test_recover_never_restores_a_committed_journal_outside(sandbox, entry):
    outside, repo = sandbox
    make_repo(outside, repo, ".linkgate/report.html", "outside")
    (repo / "link").symlink_to(repo / "src")
    journal(repo, entry.format(outside=outside))
    result = run(["recover", "--force", "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert (outside / "victim.txt").read_bytes() == VICTIM
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    assert result.code in (2, 3) and result.err.count("linkgate: error:") == 1, result.err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", ["outside", "src/main.rs"])
@pytest.mark.parametrize("rel", [".linkgate/lock", ".linkgate/journal.json"])
def test_recover_never_opens_a_linked_lock_or_journal(sandbox, rel, target):
    outside, repo = sandbox
    journal(repo, "build.rs")
    if rel.endswith("journal.json"):
        (repo / rel).unlink()
    victim = make_repo_links(outside, repo, rel, target)
    before = digest(victim)
    result = run(["recover", "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert digest(victim) == before
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    assert result.code == 2 and REFUSED in result.err, (result.code, result.err)


def make_repo_links(outside: Path, repo: Path, rel: str, target: str) -> Path:
    (repo / ".git").mkdir()
    (repo / "linkgate.toml").write_text(CONFIG)
    (repo / "build.rs").write_text("fn main() {}\n")
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_bytes(MAIN)
    (outside / "victim.txt").write_bytes(VICTIM)
    victim = (outside / "victim.txt") if target == "outside" else repo / "src" / "main.rs"
    (repo / rel).symlink_to(victim)
    return victim


# linkgate's own files under the gate's target directory, which a repository can commit too
TARGET_FILES = ["default/linkgate-links/last-run.state", "default/linkgate-links/.last-run.state.{pid}.tmp",
                "default/linkgate-links/external-inputs.state", "default/.linkgate-lock", "linkgate/.gitignore"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("rel", TARGET_FILES)
def test_a_run_writes_nothing_through_a_committed_target_link(sandbox, rel):
    import os

    outside, repo = sandbox
    (repo / ".git").mkdir()
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_bytes(MAIN)
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n')
    (outside / "victim.txt").write_bytes(VICTIM)
    base = repo / "target" / "linkgate"
    path = repo / "target" / rel if rel.startswith("linkgate/") else base / "g" / rel.format(pid=os.getpid())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(outside / "victim.txt")
    result = run(["run", "g", "--no-history", "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert (outside / "victim.txt").read_bytes() == VICTIM
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    if rel == "linkgate/.gitignore":
        # linkgate's build directory is not a real one: one error for the command (exit 2), nothing built.
        assert result.code == 2 and REFUSED in result.err and result.err.count("linkgate: error:") == 1, result.err
        built = {p.name for p in (repo / "target" / "linkgate" / "g" / "default").iterdir()}
        assert built <= {".linkgate-lock"}, built  # the target lock taken first, nothing built
    else:
        assert result.code == 0, result.err


PROVE_CONFIG = ('[[gate]]\nname = "g"\ncargo = ["build"]\n[[gate.control]]\nname = "c"\nfile = "src/main.rs"\n'
                'replace = { pattern = "fn main", with = "fn nain" }\n')


@pytest.mark.timeout(120)
@pytest.mark.parametrize("target", ["outside", "src/main.rs"])
@pytest.mark.parametrize("rel", [".linkgate", ".linkgate/lock", ".linkgate/.gitignore", ".linkgate/journal.tmp"])
def test_prove_truncates_nothing_through_a_committed_state_link(sandbox, rel, target):
    import subprocess

    outside, repo = sandbox
    victim = make_repo(outside, repo, rel, target)
    (repo / ".git").rmdir()
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "linkgate.toml").write_text(PROVE_CONFIG)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@e"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "Cargo.toml", "linkgate.toml", "src", "build.rs"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=repo, check=True)
    before = digest(victim)
    result = run(["prove", "--repo", str(repo)], repo, outside=outside, repo=repo)
    assert digest(victim) == before
    assert (repo / "src" / "main.rs").read_bytes() == MAIN
    if rel == ".linkgate/journal.tmp":
        # A stale temporary is removed, never written through; prove runs.
        assert result.code in (0, 1), result.err
        assert not (repo / rel).is_symlink()
    else:
        assert result.code == 2 and REFUSED in result.err, (result.code, result.err)

"""Class: faults. A full disk (a 64 KiB tmpfs filled to the last byte), a
read-only file system and a missing directory, under every command that writes:
one message naming the path and the errno, a documented exit code, and nothing
half-written (the old file as it was, no temporary file left)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fsfaults import fill, remount_readonly, tmpfs
from harness import run
from lgtest import git, git_repo

from linkgate.errors import RecoveryError
from linkgate.prove.journal import Repository

LOG = b"/usr/bin/ld: cannot find -lzz: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
CI_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ci" / "repo"


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".") and p.name != ".filler")


def commands(repo: Path, out: Path) -> dict[str, list[str]]:
    (repo / "build.log").write_bytes(LOG)
    (repo / "env.sh").write_text("echo 'export A=1'\necho 'export B=\"two words\"'\n")
    return {
        "explain": ["explain", str(repo / "build.log"), "--format", "json", "-o", str(out)],
        "cost": ["cost", "--history", str(repo / "none.sqlite"), "--format", "json", "-o", str(out)],
        "report html": ["report", "html", "--history", str(repo / "none.sqlite"), "-o", str(out)],
        "env-from": ["env-from", "-o", str(out), "--", "bash", str(repo / "env.sh")],
        "run": ["run", "g", "--no-history", "--format", "json", "-o", str(out)],
        "coverage": ["coverage", "--history", str(repo / "none.sqlite"), "--format", "json", "-o", str(out)],
    }


@pytest.fixture
def repo(sandbox: tuple[Path, Path]) -> Path:
    _, root = sandbox
    (root / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncommand = ["true"]\n\n[[recipe]]\nname = "r"\n'
                                        'file = "build.rs"\nline = 1\nwhen-env = ["R"]\n')
    (root / "build.rs").write_text("fn main() {}\n")
    git_repo(root)
    return root


VERBS = ["explain", "cost", "report html", "env-from", "run", "coverage"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verb", VERBS)
def test_a_full_disk_is_one_message_and_the_old_file_stays(sandbox, repo, tmp_path, verb):
    outside, _ = sandbox
    with tmpfs(tmp_path / "full", 64) as mnt:
        out = mnt / "report.out"
        # One whole page: an append (env-from) needs a new one, as a new file does.
        previous = b"p" * 4095 + b"\n"
        out.write_bytes(previous)
        fill(mnt)
        result = run(commands(repo, out)[verb], repo, outside=outside, repo=repo)
        assert result.code == 3, result.err
        assert str(out) in result.err and "No space left on device" in result.err
        assert out.read_bytes() == previous
        assert leftovers(mnt) == []


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verb", VERBS)
def test_a_read_only_file_system_is_refused_before_anything_runs(sandbox, repo, tmp_path, verb):
    outside, _ = sandbox
    with tmpfs(tmp_path / "ro", 64) as mnt:
        out = mnt / "report.out"
        out.write_bytes(b"old\n")
        remount_readonly(mnt)
        result = run(commands(repo, out)[verb], repo, outside=outside, repo=repo)
        assert result.code in (2, 3), result.err
        assert str(mnt) in result.err or str(out) in result.err
        assert out.read_bytes() == b"old\n"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verb", VERBS)
def test_a_missing_directory_is_one_message(sandbox, repo, verb):
    outside, _ = sandbox
    out = repo / "no" / "such" / "dir" / "report.out"
    result = run(commands(repo, out)[verb], repo, outside=outside, repo=repo)
    assert result.code in (2, 3), result.err
    assert "does not exist" in result.err or "No such file" in result.err
    assert not (repo / "no").exists()


@pytest.mark.timeout(120)
def test_ci_github_write_on_a_full_disk_leaves_the_workflow_as_it_was(tmp_path, monkeypatch):
    with tmpfs(tmp_path / "full", 1024) as mnt:
        root = mnt / "repo"
        shutil.copytree(CI_FIXTURE, root)
        git_repo(root)
        git(root, "remote", "add", "origin", "git@github.com:rtlab/rtcore.git")
        monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
        workflow = root / ".github" / "workflows" / "ci.yml"
        before = workflow.read_bytes()
        fill(mnt)
        result = run(["ci", "github", "xla-link", "--write"], root, outside=tmp_path / "full", repo=root)
        assert result.code == 3, result.err
        assert "No space left on device" in result.err and "ci.yml" in result.err
        assert workflow.read_bytes() == before
        assert leftovers(workflow.parent) == []


@pytest.mark.timeout(120)
def test_prove_s_journal_on_a_full_disk_changes_no_file(tmp_path):
    with tmpfs(tmp_path / "full", 64) as mnt:
        (mnt / "build.rs").write_bytes(b"fn main() { println!(\"cargo:rustc-link-lib=z\"); }\n" * 20)
        before = (mnt / "build.rs").read_bytes()
        fill(mnt)
        repo = Repository(mnt)
        with pytest.raises(RecoveryError, match="No space left on device"):
            with repo.locked():
                repo.mutate("build.rs", b"fn main() {}\n" * 400)
        assert (mnt / "build.rs").read_bytes() == before
        assert [p.name for p in mnt.iterdir() if p.name.endswith((".tmp", ".linkgate-tmp"))] == []


@pytest.mark.timeout(120)
def test_prove_s_mutation_on_a_full_disk_leaves_the_file(tmp_path):
    with tmpfs(tmp_path / "full", 64) as mnt:
        (mnt / "build.rs").write_bytes(b"x" * 100)
        repo = Repository(mnt)
        with repo.locked():
            repo.write_journal([])  # the state directory and its journal exist first
            fill(mnt)
            with pytest.raises(RecoveryError, match="No space left on device"):
                repo.mutate("build.rs", b"y" * 30000)
        assert (mnt / "build.rs").read_bytes() == b"x" * 100


@pytest.mark.timeout(120)
def test_prove_s_lock_on_a_read_only_checkout_is_one_message(tmp_path):
    with tmpfs(tmp_path / "ro", 64) as mnt:
        remount_readonly(mnt)
        with pytest.raises(RecoveryError, match="cannot create the lock"):
            Repository(mnt).lock()


def test_env_from_appends_whole_or_not_at_all(sandbox, repo, tmp_path):
    outside, _ = sandbox
    target = tmp_path / "github_env"
    target.write_text("EARLIER=1\n")
    result = run(commands(repo, target)["env-from"], repo, outside=outside, repo=repo)
    assert result.code == 0, result.err
    assert target.read_text() == "EARLIER=1\nA=1\nB=two words\n"


@pytest.mark.timeout(120)
def test_should_run_that_cannot_set_its_output_fails_the_step(sandbox, repo, tmp_path, monkeypatch):
    """A step output that is never written reads as not true: the gate would be
    skipped. should-run fails the step instead (exit 3)."""
    outside, _ = sandbox
    with tmpfs(tmp_path / "full", 64) as mnt:
        output = mnt / "github_output"
        output.write_bytes(b"o" * 4095 + b"\n")
        fill(mnt)
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
        monkeypatch.setenv("GITHUB_OUTPUT", str(output))
        result = run(["should-run", "g"], repo, outside=outside, repo=repo)
        assert result.code == 3 and "No space left on device" in result.err, result.err

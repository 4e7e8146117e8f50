"""--repo means the same on every command: the repository to work on, whatever the cwd."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ci" / "repo"


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(the repository, an unrelated directory that is the cwd)."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    git_repo(repo)
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    return repo, cwd


def test_read_commands_take_the_repository_from_repo(elsewhere: tuple[Path, Path],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo, cwd = elsewhere
    assert main(["matrix", "--repo", str(repo)]) == 0
    legs = json.loads(capsys.readouterr().out)["include"]
    assert {(leg["gate"], leg["linker"]) for leg in legs} == {("xla-link", "default"), ("xla-link", "bfd")}
    assert main(["surface", "xla-link", "--static", "--repo", str(repo), "-f", "json"]) == 0
    paths = {p["path"] for p in json.loads(capsys.readouterr().out)["paths"]}
    assert {"build.rs", "Cargo.toml"} <= paths
    assert main(["coverage", "--repo", str(repo), "-f", "json"]) == 0
    assert {r["name"] for r in json.loads(capsys.readouterr().out)["recipes"]} == {"vendored", "rt-dist"}
    assert main(["cost", "--repo", str(repo), "-f", "json"]) == 0
    assert str(repo / ".linkgate" / "history.sqlite") in capsys.readouterr().out
    assert main(["report", "html", "--repo", str(repo), "-o", "page.html"]) == 0
    assert "linkgate report for repo" in (cwd / "page.html").read_text()
    assert not (cwd / ".linkgate").exists()


def test_replay_and_sweep_look_for_recordings_in_repo(elsewhere: tuple[Path, Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    repo, _ = elsewhere
    for argv in (["replay", "xla-link"], ["sweep", "xla-link", "-q"]):
        assert main([*argv, "--repo", str(repo), "--linker", "bfd"]) == 3
        err = capsys.readouterr().err
        assert "no recorded link for gate 'xla-link' under bfd" in err and str(repo) in err


def test_init_refuses_over_the_repositorys_configuration(elsewhere: tuple[Path, Path],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    repo, cwd = elsewhere
    assert main(["init", "--repo", str(repo)]) == 2
    assert f"{repo / 'linkgate.toml'} already holds a linkgate configuration" in capsys.readouterr().err
    assert not (cwd / "linkgate.toml").exists()


def test_without_repo_the_cwd_decides(elsewhere: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix"]) == 2
    assert "no linkgate configuration found" in capsys.readouterr().err

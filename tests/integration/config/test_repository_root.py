"""The repository root is the git top-level (or --repo), never --config's directory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from lgtest import LINK_SH, git, git_repo, sha, toml_str

from linkgate import config as config_mod
from linkgate.cli import main

# The gate links (lgtest.LINK_SH) only when it runs at the root, where root-marker lives.
_AT_ROOT = "test -f root-marker || { echo 'not at the root' >&2; exit 1; }; " + LINK_SH
GATE = """
[[gate]]
name = "g"
command = ["sh", "-c", """ + toml_str(_AT_ROOT).replace("{", "{{").replace("}", "}}") + """]

[[gate.control]]
name = "c"
file = "{file}"
delete = "NEEDED"
"""


def make(tmp_path: Path, config_at: str = "ci/linkgate.toml", file: str = "lib.txt") -> Path:
    root = tmp_path / "repo"
    (root / "ci").mkdir(parents=True)
    (root / "root-marker").write_text("")
    (root / "lib.txt").write_text("NEEDED\n")
    (root / config_at).write_text(GATE.format(file=file))
    git_repo(root)
    return root


def test_config_in_a_subdirectory_does_not_move_the_root(tmp_path, monkeypatch, capsys):
    root = make(tmp_path)
    (root / "sub").mkdir()
    for cwd in (root, root / "sub", root / "ci"):
        monkeypatch.chdir(cwd)
        cfg = config_mod.load(str(root / "ci/linkgate.toml"))
        assert cfg.root == root.resolve()
    monkeypatch.chdir(root)
    assert main(["run", "-q", "--config", "ci/linkgate.toml"]) == 0, capsys.readouterr()
    # The control's file is relative to the root: ci/lib.txt does not exist.
    assert main(["prove", "-q", "--config", "ci/linkgate.toml"]) == 1  # not reproduced: the gate ignores lib.txt
    assert (root / ".linkgate").is_dir() and not (root / "ci" / ".linkgate").exists()


def test_repo_option_names_the_root_from_anywhere(tmp_path, monkeypatch, capsys):
    root = make(tmp_path, config_at="linkgate.toml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["run", "-q", "--repo", str(root)]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["should-run", "g", "--repo", str(root), "--base", "HEAD"]) == 0
    assert capsys.readouterr().out.strip() == "true"  # no paths: always runs


def test_config_outside_git_keeps_its_directory_as_root(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "linkgate.toml").write_text(GATE.format(file="lib.txt"))
    (tmp_path / "p" / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "p" / "sub")
    assert config_mod.load().root == (tmp_path / "p").resolve()


@pytest.fixture
def with_submodule(tmp_path: Path) -> Path:
    lib = tmp_path / "native"
    lib.mkdir()
    (lib / "zl.c").write_text("int zl(void) { return 1; } /* NEEDED */\n")
    git_repo(lib)
    root = make(tmp_path, config_at="linkgate.toml", file="vendor/native/zl.c")
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/native")
    git(root, "commit", "-qm", "submodule")
    return root


def test_dirty_check_covers_files_inside_a_submodule(with_submodule, monkeypatch, capsys):
    root = with_submodule
    c_file = root / "vendor/native/zl.c"
    c_file.write_text(c_file.read_text() + "/* local edit, not committed */\n")
    edited = sha(c_file)
    monkeypatch.chdir(root)
    assert main(["prove", "-q"]) == 2
    err = capsys.readouterr().err
    assert "vendor/native/zl.c has uncommitted changes" in err
    assert f"in the repository at {root / 'vendor/native'}" in err
    assert sha(c_file) == edited


def test_clean_file_inside_a_submodule_is_mutated_and_restored(with_submodule, monkeypatch, capsys):
    root = with_submodule
    c_file = root / "vendor/native/zl.c"
    before = sha(c_file)
    monkeypatch.chdir(root)
    assert main(["prove", "-q"]) == 1  # the gate ignores the file: not reproduced, but it ran
    assert sha(c_file) == before
    assert subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""

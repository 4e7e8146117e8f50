"""gitindex on real repositories: submodules, a tracked lockfile, paths git refuses to check."""

from __future__ import annotations

from pathlib import Path

from lgtest import git, git_repo

from linkgate.ci import gitindex


def test_outside_git_nothing_is_known(tmp_path: Path) -> None:
    index = gitindex.read(tmp_path)
    assert index == gitindex.GitIndex(in_git=False)
    assert gitindex.ignored(tmp_path, ["Cargo.lock"], index).ignored == frozenset()


def test_submodules_and_the_lockfile_come_from_the_index(tmp_path: Path) -> None:
    sub = tmp_path / "upstream"
    sub.mkdir()
    (sub / "a.c").write_text("int a;\n")
    git_repo(sub)
    root = tmp_path / "repo"
    (root / "crates" / "x").mkdir(parents=True)
    (root / "crates" / "x" / "Cargo.lock").write_text("version = 4\n")
    (root / ".gitignore").write_text("/Cargo.lock\n")
    (root / "Cargo.lock").write_text("version = 4\n")
    git_repo(root)
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "third_party/up")
    git(root, "commit", "-qm", "submodule")
    index = gitindex.read(root)
    assert index.submodules == ("third_party/up",) and index.gitmodules and index.lockfile
    assert index.checks_out_submodules
    assert index.submodule_of("third_party/up/a.c") == "third_party/up"
    assert index.submodule_of("third_party/upper.c") is None
    # git refuses a pathspec inside a submodule (exit 128); the superproject cannot ignore it anyway.
    check = gitindex.ignored(root, ["Cargo.lock", "third_party/up/a.c"], index)
    assert check == gitindex.IgnoreCheck(frozenset({"Cargo.lock"}), ())


def test_one_path_git_refuses_does_not_hide_what_it_ignores(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "real").mkdir(parents=True)
    (root / "real" / "x.c").write_text("int x;\n")
    (root / "link").symlink_to("real")
    (root / ".gitignore").write_text("Cargo.lock\n")
    git_repo(root)
    index = gitindex.read(root)
    # "beyond a symbolic link": git exits 128 for the whole batch.
    check = gitindex.ignored(root, ["Cargo.lock", "link/x.c", "build.rs"], index)
    assert check.ignored == {"Cargo.lock"}
    assert check.unchecked == ("link/x.c",)

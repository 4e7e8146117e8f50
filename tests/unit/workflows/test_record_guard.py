"""The last guard before a record: a subcommand cargo does not build in, no known plugin and no
alias of the repository's cargo configuration never becomes a record."""

from __future__ import annotations

from pathlib import Path

from linkgate.workflows.invocations import foreign_subcommand


def test_built_ins_plugins_front_ends_and_the_repositorys_aliases_pass(tmp_path: Path) -> None:
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text('[alias]\nci = "test --release"\n')
    (tmp_path / "crates" / "a").mkdir(parents=True)
    for argv in (("cargo", "build"), ("cargo", "+nightly", "b"), ("cargo", "nextest", "r"), ("cross", "test"),
                 ("cargo", "hack", "check", "--each-feature"), ("napi", "build", "--release"), ("cargo", "ci")):
        assert foreign_subcommand(tmp_path, argv, "") is None, argv
    # The alias is found from a member's directory too (cargo reads config files upwards).
    assert foreign_subcommand(tmp_path, ("cargo", "ci"), "crates/a") is None


def test_anything_else_is_named(tmp_path: Path) -> None:
    assert foreign_subcommand(tmp_path, ("cargo", "ci"), "") == "ci"  # no config defines it here
    assert foreign_subcommand(tmp_path, ("cross", "frobnicate", "--features", "x"), "") == "frobnicate"
    assert foreign_subcommand(tmp_path, ("cargo", "hack", "frob", "--each-feature"), "") == "frob"
    assert foreign_subcommand(tmp_path, ("cargo", "{{msrv}}", "check"), "") == "{{msrv}}"
    # A working directory outside the repository is never searched for a config.
    (tmp_path / "repo").mkdir()
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text('[alias]\nci = "test"\n')
    assert foreign_subcommand(tmp_path / "repo", ("cargo", "ci"), "..") == "ci"

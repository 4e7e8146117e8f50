"""Which cargo subcommands can link, resolved the way cargo resolves them."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.cargo.subcommand import judge


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    """An empty CARGO_HOME, so the machine's own aliases never leak in."""
    (tmp_path / "cargo-home").mkdir()
    return {"CARGO_HOME": str(tmp_path / "cargo-home")}


@pytest.mark.parametrize(
    "args",
    [["check"], ["c"], ["clippy", "--all-targets"], ["doc"], ["d"], ["fmt"], ["metadata"], ["tree"],
     ["fix"], ["rustdoc"], ["miri", "test"], ["+nightly", "check"], ["package"], ["hack", "check", "--each-feature"],
     ["hack", "--feature-powerset", "clippy"]],
)
def test_never_links(args: list[str], tmp_path: Path, home: dict[str, str]) -> None:
    j = judge(args, tmp_path, home)
    assert j.links is False, j
    assert j.reason


@pytest.mark.parametrize(
    "args",
    [["build"], ["b", "--bins"], ["test", "--no-run"], ["t"], ["+1.95", "test", "--release"], ["bench", "--no-run"],
     ["run"], ["rustc", "--bin", "x"], ["install", "--path", "."], ["hack", "test", "--no-run", "--feature-powerset"]],
)
def test_links(args: list[str], tmp_path: Path, home: dict[str, str]) -> None:
    assert judge(args, tmp_path, home).links is True


def test_alias_from_cargo_config_is_followed(tmp_path: Path, home: dict[str, str]) -> None:
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text(
        '[alias]\nci = "lint --workspace"\nlint = ["clippy", "--all-targets"]\nlk = "test --no-run"\nbuild = "check"\n'
    )
    sub = tmp_path / "crates" / "app"
    sub.mkdir(parents=True)
    j = judge(["ci"], sub, home)  # found from a subdirectory, alias to alias
    assert (j.links, j.subcommand) == (False, "clippy")
    assert "alias 'ci'" in j.via and "alias 'lint'" in j.via and str(tmp_path / ".cargo" / "config.toml") in j.via
    assert judge(["lk"], sub, home).links is True
    # A built-in command shadows a user alias of the same name, as in cargo.
    assert judge(["build"], sub, home).links is True


def test_alias_from_the_environment_and_cargo_home(tmp_path: Path, home: dict[str, str]) -> None:
    Path(home["CARGO_HOME"], "config.toml").write_text('[alias]\nmine = "doc --no-deps"\n')
    assert judge(["mine"], tmp_path, home).links is False
    assert judge(["mine"], tmp_path, {**home, "CARGO_ALIAS_MINE": "build"}).links is True


def test_unknown_and_looping_subcommands_cannot_be_judged(tmp_path: Path, home: dict[str, str]) -> None:
    j = judge(["nextest", "archive"], tmp_path, home)
    assert j.links is None and "cargo-nextest" in j.reason
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text('[alias]\nx = "y"\ny = "x"\n')
    assert judge(["x"], tmp_path, home).links is None


def test_subcommand_must_come_first(tmp_path: Path, home: dict[str, str]) -> None:
    j = judge(["--locked", "build"], tmp_path, home)
    assert j.links is False and "first argument must be the cargo subcommand" in j.reason

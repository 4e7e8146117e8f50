"""`should-run` answers true when the change alters the gate's own definition.

A gate's env decides what it links (libz-sys with LIBZ_SYS_STATIC "1" builds
the vendored zlib, with "0" it links the system one), yet no paths filter is
expected to name the configuration file. Another gate's table, a comment, or
the rest of a Cargo.toml holding the configuration are not the gate's definition.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import git

from linkgate.cli import main

GATES = """
[[gate]]
name = "zlib-link"
cargo = ["test", "--release", "--no-run"]
paths = ["src/zlib/**"]
env = {{ LIBZ_SYS_STATIC = "{static}" }}

[[gate]]
name = "other"
cargo = ["test", "--no-run"]
paths = ["other/**"]
env = {{ OTHER = "{other}" }}
"""
MANIFEST = """[package]
name = "libz-sys"
version = "{version}"
edition = "2021"

[workspace.metadata.linkgate]
""" + GATES.replace("[[gate]]", "[[workspace.metadata.linkgate.gate]]")


def make_repo(root: Path, name: str, base: str, head: str) -> Path:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / name).write_text(base)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "checkout", "-qb", "topic")
    (root / name).write_text(head)
    git(root, "commit", "-qam", "change")
    return root


def should_run(root: Path, config: str, monkeypatch: pytest.MonkeyPatch,
               capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    capsys.readouterr()
    assert main(["should-run", "zlib-link", "--base", "main", "--config", config]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize(("base", "head", "expected", "why"), [
    (dict(static="1", other="a"), dict(static="0", other="a"), "true",
     "; linkgate.toml defines gate zlib-link, and the change alters its env\n"),
    (dict(static="1", other="a"), dict(static="1", other="b"), "false",
     "with HEAD; none of 1 changed file(s) matches the filter\n"),
])
def test_linkgate_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                       base: dict[str, str], head: dict[str, str], expected: str, why: str) -> None:
    root = make_repo(tmp_path / "repo", "linkgate.toml", GATES.format(**base), GATES.format(**head))
    out, err = should_run(root, "linkgate.toml", monkeypatch, capsys)
    assert (out, err.endswith(why)) == (expected + "\n", True), err


def test_a_comment_is_not_a_definition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    text = GATES.format(static="1", other="a")
    root = make_repo(tmp_path / "repo", "linkgate.toml", text, "# reviewed\n" + text)
    assert should_run(root, "linkgate.toml", monkeypatch, capsys)[0] == "false\n"


@pytest.mark.parametrize(("head", "expected"), [
    (dict(version="0.1.0", static="0", other="a"), "true"),
    (dict(version="0.2.0", static="1", other="a"), "false"),  # the manifest, not the gate: the filter decides
])
def test_workspace_metadata_in_cargo_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str], head: dict[str, str],
                                          expected: str) -> None:
    base = MANIFEST.format(version="0.1.0", static="1", other="a")
    root = make_repo(tmp_path / "repo", "Cargo.toml", base, MANIFEST.format(**head))
    out, err = should_run(root, "Cargo.toml", monkeypatch, capsys)
    assert out == expected + "\n", err
    if expected == "true":
        assert err.endswith("; Cargo.toml defines gate zlib-link, and the change alters its env\n")


def test_the_gates_own_filter_is_not_what_it_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = GATES.format(static="1", other="a")
    widened = text.replace('paths = ["src/zlib/**"]', 'paths = ["src/zlib/**", "build.rs"]')
    root = make_repo(tmp_path / "repo", "linkgate.toml", text, widened)
    assert should_run(root, "linkgate.toml", monkeypatch, capsys)[0] == "false\n"

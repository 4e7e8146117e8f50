"""The surface of a cc-style -sys crate (tests/fixtures/ccsys), built for real under two linkers.

`zsys`'s build script compiles vendored C by calling the compiler itself and
prints only rerun-if-env-changed lines, so cargo watches none of its C
sources (FACTS.md). The surface must still list the script, both sources and
the header directory, in built mode and in static mode, and a filter naming
only the script must be reported as missing them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}
SOURCES = {"zsys/vendor/zlite/deflate.c", "zsys/vendor/zlite/checksum.c"}
pytestmark = pytest.mark.slow


def git(root: Path, *argv: str) -> str:
    return subprocess.run(["git", *argv], cwd=root, env=GIT_ENV, check=True, capture_output=True, text=True).stdout


def set_paths(root: Path, paths: list[str]) -> None:
    text = (FIXTURE / "linkgate.toml").read_text()
    anchor = 'linkers = ["default", "bfd"]\n'
    assert anchor in text
    (root / "linkgate.toml").write_text(text.replace(anchor, anchor + f"paths = {json.dumps(paths)}\n"))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The fixture as a git repository, linked once by `surface --build` under both linkers."""
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    root = tmp_path_factory.mktemp("ccsys") / "ws"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("target", ".linkgate"))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "fixture")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        assert main(["surface", "calls", "--build", "--format", "json", "--output", str(root.parent / "b.json")]) == 0
    yield root


def surface(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    monkeypatch.chdir(root)
    capsys.readouterr()
    rc = main(["surface", "calls", "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("mode", ["built", "static"])
def test_script_sources_and_header_dir_are_in_the_surface(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    rc, doc = surface(workspace, monkeypatch, capsys, *(["--static"] if mode == "static" else []))
    assert (rc, doc["mode"]) == (0, mode)
    verb = "emits" if mode == "built" else "appears to emit"
    whose = f"the build script of package zsys {verb} rustc-link-lib=static=zlite (and 1 more link directives)"
    paths = {p["path"]: p["why"] for p in doc["paths"]}
    assert paths["zsys/build.rs"] == (
        f"build script of package zsys {verb} rustc-link-lib=static=zlite (and 1 more link directives)")
    for source in SOURCES:
        assert paths[source] == f"compiled by build script (const SOURCES) at zsys/build.rs:23; {whose}"
    assert paths["zsys/vendor/zlite/**"] == f"compiler include flag -Ivendor/zlite at zsys/build.rs:23; {whose}"
    # It printed rerun-if-env-changed, which drops cargo's whole-package default.
    assert "zsys/**" not in paths
    env = {e["var"]: e["why"] for e in doc["env"]}
    assert set(env) == {"CC", "CFLAGS"}
    assert env["CC"].startswith("rerun-if-env-changed: reruns the build script of package zsys")


def test_a_filter_naming_only_the_build_script_misses_the_c_sources(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_paths(workspace, ["zsys/build.rs"])
    for mode in ([], ["--static"]):
        rc, doc = surface(workspace, monkeypatch, capsys, "--check-filter", *mode)
        assert rc == 1
        missed = {f["message"].split(": ", 1)[0].split(" (", 1)[0]
                  for f in doc["findings"] if f["rule"] == "filter-misses-surface"}
        assert SOURCES | {"zsys/vendor/zlite/**"} <= missed
        assert "zsys/build.rs" not in missed

    # should-run agrees that such a filter sleeps through a change that breaks the link.
    source = workspace / "zsys/vendor/zlite/checksum.c"
    original = source.read_text()
    try:
        source.write_text(original.replace("% 65521", "% 65519"))
        git(workspace, "commit", "-qam", "change the vendored C")
        capsys.readouterr()
        assert main(["should-run", "calls", "--base", "HEAD~1"]) == 0
        assert capsys.readouterr().out == "false\n"

        set_paths(workspace, ["zsys/build.rs", "zsys/vendor/**", "**/Cargo.toml", "Cargo.lock"])
        assert main(["should-run", "calls", "--base", "HEAD~1"]) == 0
        assert capsys.readouterr().out == "true\n"
        rc, doc = surface(workspace, monkeypatch, capsys, "--check-filter")
        assert rc == 0, doc["findings"]
    finally:
        git(workspace, "reset", "-q", "--hard", "HEAD~1")
        (workspace / "linkgate.toml").write_text((FIXTURE / "linkgate.toml").read_text())


def test_an_unreadable_build_script_is_a_note_not_a_drop(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = workspace / "zsys" / "build.rs"
    moved = workspace.parent / "build.rs.away"
    script.rename(moved)
    script.symlink_to(workspace / "zsys" / "gone.rs")  # dangling: cargo's records still name the package
    try:
        rc, doc = surface(workspace, monkeypatch, capsys)
    finally:
        script.unlink()
        moved.rename(script)
    assert rc == 0
    assert "zsys/build.rs" in {p["path"] for p in doc["paths"]}
    notes = [n for n in doc["notes"] if n.startswith("package zsys emits")]
    assert len(notes) == 1
    assert "cannot read" in notes[0] and "zsys/build.rs" in notes[0]
    assert notes[0].endswith("what its build script compiles is not in the surface")

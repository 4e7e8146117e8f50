"""The surface of a libz-sys-shaped crate (tests/fixtures/zngsys), built for real.

Its helper joins a directory given without a trailing slash (`Some("arch/generic")`,
turned into "arch/generic/" by `map_or`) with file stems; a pkg-config branch
runs only when ZMINI_STATIC is not "1"; an "ng" flavour sits in a module
behind a feature the gate leaves off. Built mode must list what the recorded
build compiled and say "may" about a probe it never made.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "zngsys"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}
DEFAULT = {"vendor/zlib/adler32.c", "vendor/zlib/arch/generic/fold.c", "vendor/zlib/**"}
NG = {"vendor/ng/adler32.c", "vendor/ng/deflate_ng.c", "vendor/ng/**"}
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    root = tmp_path_factory.mktemp("zngsys") / "ws"
    shutil.copytree(FIXTURE, root)
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run(["git", *argv], cwd=root, env=GIT_ENV, check=True, capture_output=True)
    yield root


def surface(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str) -> dict:  # type: ignore[type-arg]
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["surface", "zmini-link", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_static_joins_the_directory_and_its_file(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = surface(workspace, monkeypatch, capsys, "--static")
    paths = {p["path"] for p in doc["paths"]}
    assert DEFAULT | NG <= paths
    assert "vendor/zlib/arch/genericfold.c" not in paths
    # The gate's env decides which branch runs: its configuration file is part of the surface.
    assert "linkgate.toml" in paths
    assert not [n for n in doc["notes"] if "does not exist" in n]


def test_built_lists_what_the_recorded_build_compiled(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = surface(workspace, monkeypatch, capsys, "--build")
    paths = {p["path"]: p for p in doc["paths"]}
    assert DEFAULT <= set(paths)
    assert not NG & set(paths)  # the ng module did not run: its adler32.c shares only a stem
    assert not any(p.get("possible") for p in doc["paths"])
    assert not [n for n in doc["notes"] if "does not exist" in n]
    (left,) = [n for n in doc["notes"] if "did not compile or build" in n]
    assert left.startswith("package zmini-sys: its build script also names vendor/ng/")
    # No probe in the record: no claim that it links a system zmini, and no pkg-config variables.
    (probe,) = [n for n in doc["notes"] if "pkg-config" in n]
    assert probe.startswith("build.rs:30: package zmini-sys may link the system library zmini found by pkg-config")
    assert "the recorded build did not probe it (it emits rustc-link-lib=static=zmini)" in probe
    assert "ZMINI_NO_PKG_CONFIG" not in {e["var"] for e in doc["env"]}


def test_built_reports_a_probe_the_record_shows(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = workspace / "linkgate.toml"
    original = config.read_text()
    config.write_text(original.replace('ZMINI_STATIC = "1"', 'ZMINI_STATIC = "0"'))
    try:
        doc = surface(workspace, monkeypatch, capsys, "--build")
    finally:
        config.write_text(original)
    (probe,) = [n for n in doc["notes"] if "pkg-config" in n]
    assert probe.startswith("build.rs:30: package zmini-sys probed the system library zmini with pkg-config "
                            "(pkg_config::probe_library) in the recorded build, which emits "
                            "rustc-link-lib=static=zmini:")

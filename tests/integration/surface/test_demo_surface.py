"""The surface of the demo workspace, built for real: its build script compiles
native/deep.c and native/helper.c straight into shared libraries (`cc -shared
x.c -o libx.so`, no object file left in OUT_DIR) and the other two sources
through objects into archives. Every one of them changes the link.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main

DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e"}
pytestmark = pytest.mark.slow


def _demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cargo: list[str] | None = None) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    if cargo is not None:
        config = root / "linkgate.toml"
        old = '["test", "--release", "--test", "link_smoke", "--no-run"]'
        assert old in config.read_text()
        config.write_text(config.read_text().replace(old, json.dumps(cargo)))
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "demo"]):
        subprocess.run(["git", *argv], cwd=root, env=GIT_ENV, check=True, capture_output=True)
    monkeypatch.chdir(root)
    return root


def _surface(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(["surface", "smoke", "--build", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_sources_built_straight_into_shared_libraries_are_in_the_built_surface(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _demo(tmp_path, monkeypatch)
    doc = _surface(capsys)
    paths = {p["path"]: p for p in doc["paths"]}
    for source in ("native/core.c", "native/nutil.c", "native/deep.c", "native/helper.c"):
        assert source in paths, (source, doc["notes"])
        assert not paths[source].get("possible"), paths[source]
    assert not [n for n in doc["notes"] if "did not compile or build" in n]


def test_a_gate_built_for_an_explicit_target_has_its_build_script_in_the_surface(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Under --target cargo records the script's output path from the target directory's root
    # (<triple>/release/build/...), one level above the profile's parent it is read from.
    host = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    triple = next(line.split()[1] for line in host.splitlines() if line.startswith("host:"))
    _demo(tmp_path, monkeypatch, ["test", "--release", "--test", "link_smoke", "--no-run", "--target", triple])
    doc = _surface(capsys)
    paths = {p["path"] for p in doc["paths"]}
    assert {"build.rs", "native/**", "native/core.c", "native/deep.c"} <= paths, doc["notes"]
    assert not [n for n in doc["notes"] if "kept no output" in n]

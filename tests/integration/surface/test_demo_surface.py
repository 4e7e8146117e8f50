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


def test_sources_built_straight_into_shared_libraries_are_in_the_built_surface(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "demo"]):
        subprocess.run(["git", *argv], cwd=root, env=GIT_ENV, check=True, capture_output=True)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["surface", "smoke", "--build", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    paths = {p["path"]: p for p in doc["paths"]}
    for source in ("native/core.c", "native/nutil.c", "native/deep.c", "native/helper.c"):
        assert source in paths, (source, doc["notes"])
        assert not paths[source].get("possible"), paths[source]
    assert not [n for n in doc["notes"] if "did not compile or build" in n]

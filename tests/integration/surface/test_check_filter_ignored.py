"""`surface --check-filter` never asks a filter for what git ignores, as audit and ci github do not.

The repository is shaped like libz-sys: a git-ignored Cargo.lock and vendored
C in a submodule. `git check-ignore` stops with exit 128 on a path inside a
submodule; the other paths must still be judged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "protocol.file.allow", "GIT_CONFIG_VALUE_0": "always"}


def git(cwd: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=cwd, env=GIT_ENV, check=True, capture_output=True)


def test_an_ignored_lockfile_is_a_note_even_beside_a_submodule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    vendored = tmp_path / "zlite"
    shutil.move(root / "zsys/vendor/zlite", vendored)
    git(vendored, "init", "-q")
    git(vendored, "add", "-A")
    git(vendored, "commit", "-qm", "zlite")
    config = root / "linkgate.toml"
    config.write_text(config.read_text().replace(
        'linkers = ["default", "bfd"]\n', 'linkers = ["default", "bfd"]\npaths = ["zsys/**", "**/Cargo.toml"]\n'))
    (root / ".gitignore").write_text("/target\nCargo.lock\n")
    (root / "Cargo.lock").write_text("version = 3\n")
    git(root, "init", "-q")
    git(root, "submodule", "add", "-q", str(vendored), "zsys/vendor/zlite")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "fixture")

    monkeypatch.chdir(root)
    rc = main(["surface", "calls", "--static", "--check-filter", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert "Cargo.lock" in {p["path"] for p in doc["paths"]}
    assert "zsys/vendor/zlite/deflate.c" in {p["path"] for p in doc["paths"]}
    assert [f for f in doc["findings"] if f["rule"] == "filter-misses-surface"] == []
    assert [f["message"] for f in doc["findings"] if f["rule"] == "surface-ignored-by-git"] == [
        "Cargo.lock: every build reads it; git ignores it, so no pull request changes it "
        "and filter calls need not name it"
    ]
    assert rc == 0

"""`cargo linkgate ...`: real cargo finds `cargo-linkgate` on PATH and passes
`linkgate` as its first argument, which the entry point drops."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linkgate.cli import cargo_main

BIN = Path(sys.executable).parent  # the venv's bin, where pip put both entry points


def cargo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("cargo")
    assert exe, "cargo is required"
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run([exe, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_cargo_linkgate_version_is_linkgate_version(tmp_path: Path) -> None:
    assert (BIN / "cargo-linkgate").is_file(), "reinstall the venv (make venv): cargo-linkgate is an entry point"
    via_cargo = cargo("linkgate", "--version", cwd=tmp_path)
    direct = subprocess.run([str(BIN / "linkgate"), "--version"], capture_output=True, text=True)
    assert via_cargo.returncode == 0, via_cargo.stderr
    assert via_cargo.stdout == direct.stdout and direct.stdout.startswith("linkgate, version ")


def test_cargo_linkgate_runs_a_command_in_the_workspace(demo_workspace: Path) -> None:
    done = cargo("linkgate", "matrix", cwd=demo_workspace)
    assert done.returncode == 0, done.stderr
    legs = json.loads(done.stdout)["include"]
    assert {leg["gate"] for leg in legs} == {"smoke"}


def test_only_a_leading_linkgate_is_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    assert cargo_main(["linkgate", "--version"]) == 0
    assert capsys.readouterr().out.startswith("linkgate, version ")
    # `cargo-linkgate --version` run by hand works too; a second `linkgate` is an unknown command.
    assert cargo_main(["--version"]) == 0
    capsys.readouterr()
    assert cargo_main(["linkgate", "linkgate"]) == 2
    assert "no such command 'linkgate'" in capsys.readouterr().err

"""`linkgate demo` (what `make demo` runs) proves every one of its controls under its own linkers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from linkgate.cli import main
from linkgate.commands.demo import _path_hint


def test_demo_proves_all_its_controls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "drop-deep-after-archives [default]: caught" in out
    assert "drop-deep-after-archives [bfd]: caught" in out
    # rust-lld accepts any archive order: the control names bfd, and is skipped under default with why.
    assert "archive-order [default]: skipped" in out
    assert "the control names linkers = [bfd]; it is neither run nor judged under default" in out
    assert "archive-order [bfd]: caught" in out
    assert "linkgate prove: exit 0" in out
    assert "demo OK" in out
    # The archive-order diagnosis is shown whole, never cut mid-word.
    assert "which comes before it on the link line (`-lnutil` (libnutil.a) then `-lcore` (libcore.a))" in out


def test_demo_copy_writes_the_workspace_for_the_walkthrough(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "nativelink"
    assert main(["demo", "--copy", str(dest)]) == 0
    assert (dest / "build.rs").is_file() and (dest / "Cargo.toml").is_file()
    assert not (dest / "linkgate.toml").exists()  # `linkgate init` writes it: step 1 of the walkthrough
    status = subprocess.run(["git", "status", "--porcelain"], cwd=dest, capture_output=True, text=True)
    assert status.returncode == 0 and status.stdout == ""
    assert f"next: cd {dest} && linkgate init" in capsys.readouterr().out


def test_demo_copy_refuses_a_directory_that_holds_something(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    assert main(["demo", "--copy", str(tmp_path)]) == 2
    assert "already exists and is not an empty directory" in capsys.readouterr().err
    assert (tmp_path / "mine.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_demo_says_how_to_reach_linkgate_when_path_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    venv_bin = Path(sys.executable).parent
    assert (venv_bin / "linkgate").exists()
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    hint = _path_hint()
    assert hint is not None and str(venv_bin) in hint and "not on PATH" in hint
    monkeypatch.setenv("PATH", f"{venv_bin}:/usr/bin:/bin")
    assert _path_hint() is None

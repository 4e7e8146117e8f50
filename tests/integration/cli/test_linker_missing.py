"""A linker that is not installed is `linker-missing` (exit 5), never a link verdict.

The PATH is real: every directory of the test's own PATH, except that each one
holding mold is replaced by a directory of links to all its other programs, so
cargo, cc and the other linkers are found and mold is not.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from linkgate.cli import main
from linkgate.errors import EXIT_LINKER_MISSING

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"


def path_without_mold(farm: Path) -> str:
    dirs = []
    for i, d in enumerate(os.environ["PATH"].split(os.pathsep)):
        if not (Path(d) / "mold").exists():
            dirs.append(d)
            continue
        own = farm / str(i)
        own.mkdir(parents=True)
        for entry in Path(d).iterdir():
            if entry.name not in ("mold", "ld.mold"):
                (own / entry.name).symlink_to(entry)
        dirs.append(str(own))
    path = os.pathsep.join(dirs)
    assert shutil.which("mold", path=path) is None and shutil.which("cargo", path=path) is not None
    return path


@pytest.fixture
def ccsys(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["default", "mold"]'))
    monkeypatch.chdir(ws)
    return ws


def _assert_linker_missing(code, out, err):
    assert code == EXIT_LINKER_MISSING, (code, out, err)
    assert "linker-missing" in err and "'mold' needs mold" in err and "apt-get install mold" in err, err
    assert "link-failed" not in out + err and "linker-not-found" not in out + err


@pytest.mark.parametrize("mode", ["replay", "rebuild"])
def test_run_with_mold_not_installed_is_linker_missing(ccsys, tmp_path, monkeypatch, capsys, mode):
    cfg = ccsys / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace("[[gate]]\n", f'[[gate]]\nlinker-matrix = "{mode}"\n'))
    monkeypatch.setenv("PATH", path_without_mold(tmp_path / "farm"))
    code = main(["run", "-q", "--no-history"])
    out, err = capsys.readouterr()
    _assert_linker_missing(code, out, err)
    assert not (ccsys / "target" / "linkgate").exists()  # nothing was built


def test_prove_sweep_and_replay_with_mold_not_installed_are_linker_missing(ccsys, tmp_path, monkeypatch, capsys):
    # Recordings made while mold was there; then mold is gone.
    assert main(["run", "-q", "--no-history"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("PATH", path_without_mold(tmp_path / "farm"))
    for argv in (["prove", "-q", "--no-history"], ["sweep", "calls", "-q"], ["replay", "calls"]):
        code = main(argv)
        out, err = capsys.readouterr()
        _assert_linker_missing(code, out, err)
    # The default linker alone still runs.
    assert main(["replay", "calls", "--linker", "default"]) == 0

"""Several `linkgate run` of one gate at once, as two CI jobs on one self-hosted
runner or a developer's second terminal do: each waits for the target
directory's lock, then judges a build of its own; none reports a false error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lgtest import git_repo

CCSYS = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"


@pytest.mark.timeout(600)
def test_concurrent_runs_of_one_gate_all_judge_linked(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(CCSYS, ws, ignore=shutil.ignore_patterns("target", ".linkgate"))
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["bfd"]'))
    (ws / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(ws)
    env = {**os.environ, "LINKGATE_HISTORY": str(tmp_path / "h.sqlite")}
    argv = [sys.executable, "-m", "linkgate", "run", "-q", "--format", "json"]
    first = subprocess.run(argv, cwd=ws, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    procs = [subprocess.Popen(argv, cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    outcomes = [(p.wait(), *p.communicate()) for p in procs]
    for code, out, err in outcomes:
        assert code == 0, err
        assert '"verdict": "linked"' in out

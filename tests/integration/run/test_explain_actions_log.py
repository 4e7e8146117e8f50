"""`explain` on a log downloaded from GitHub Actions: every line starts with a
timestamp (`2026-12-01T10:00:00.1234567Z `). The classification must be the
one the same log gets without them: the archive order read from rustc's command
line, the referencing function, and cargo's JSON messages.

Real cargo, cc, ar and GNU ld on tests/fixtures/ordersys (two archives in the
wrong order).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ordersys"
STAMP = "2026-12-01T10:00:00.1234567Z "


def _explain(log: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(["explain", str(log), "--format", "json"]) == 1
    return json.loads(capsys.readouterr().out)["diagnostics"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("json_messages", [False, True], ids=["human", "json"])
def test_timestamped_actions_log_is_classified_as_the_plain_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], json_messages: bool
) -> None:
    root = tmp_path / "ordersys"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    env = {**os.environ, "RUSTFLAGS": "-Clinker-features=-lld", "CARGO_TARGET_DIR": str(tmp_path / "target")}
    argv = ["cargo", "test", "-p", "app", "--test", "calls", "--no-run", "--offline"]
    if json_messages:
        argv.append("--message-format=json")
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    text = done.stdout if json_messages else done.stderr
    plain, stamped = tmp_path / "plain.log", tmp_path / "stamped.log"
    plain.write_text(text)
    stamped.write_text("".join(STAMP + line for line in text.splitlines(keepends=True)))
    monkeypatch.chdir(tmp_path)

    expected = _explain(plain, capsys)
    assert [d["kind"] for d in expected] == ["archive-order"]
    got = _explain(stamped, capsys)
    assert [d["kind"] for d in got] == ["archive-order"], got
    assert got[0]["message"] == expected[0]["message"]
    assert got[0]["hint"] == expected[0]["hint"]
    assert got[0]["referenced_from"] == expected[0]["referenced_from"]
    assert not any(STAMP.strip() in example for example in got[0]["examples"])

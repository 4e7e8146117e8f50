"""Prove and run reports leave a phrase out when its value is unknown, never print a hole."""

from __future__ import annotations

import io

from rich.console import Console

from linkgate.gate.report import build_report as run_report
from linkgate.gate.run import LINK_FAILED, GateResult
from linkgate.prove.lock import RepositoryLock
from linkgate.prove.report import build_report
from linkgate.prove.run import ERROR, ControlOutcome


def human(report) -> str:
    buf = io.StringIO()
    report.human(report, Console(file=buf, width=200, color_system=None))
    return buf.getvalue()


def test_a_control_with_no_file_prints_no_empty_parentheses() -> None:
    # A drop-directive control whose replay was refused has no file and no mutation.
    out = ControlOutcome("drop-z", "app-link", "bfd", "", "", replayed=True)
    out.outcome, out.reason = ERROR, "no recorded link for gate 'app-link' under bfd"
    report = build_report([out])
    text = human(report)
    assert "on gate app-link\n" in text and "()" not in text
    md = report.markdown(report)
    assert "#### `drop-z`\n" in md and "mutation of" not in md and "``" not in md
    assert report.findings[0].file is None


def test_a_link_failure_with_no_known_target_says_so_plainly() -> None:
    res = GateResult(gate="app-link", linker="bfd", verdict=LINK_FAILED, target_dir="/t", argv=["cargo"])
    md = run_report([res]).markdown(run_report([res]))
    assert "app-link [bfd]: a link failed</summary>" in md and "?" not in md


def test_a_held_lock_without_a_known_pid_names_none(tmp_path) -> None:
    message = RepositoryLock(tmp_path)._held([], shared=True).render()
    assert "(pid" not in message and "another linkgate process is mutating files in" in message


def test_a_lock_held_by_several_readers_is_told_in_the_plural(tmp_path) -> None:
    message = RepositoryLock(tmp_path)._held([(11, False), (12, False)], shared=False).render()
    assert "other linkgate processes (pid 11, 12) are building in" in message, message
    single = RepositoryLock(tmp_path)._held([(11, False)], shared=False).render()
    assert "another linkgate process (pid 11) is building in" in single, single

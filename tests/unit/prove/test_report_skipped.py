"""A (control, linker) pair skipped by the control's own `linkers`: in every format, never a
finding, never a pass that hides a miss."""

from __future__ import annotations

from linkgate.config import Control, Gate
from linkgate.errors import EXIT_FINDING, EXIT_OK
from linkgate.prove.report import build_report
from linkgate.prove.run import CAUGHT, NOT_REPRODUCED, skipped
from linkgate.report import render

GATE = Gate(name="g", cargo=("test", "--no-run"), linkers=("default", "bfd"))
CONTROL = Control(name="swap", file="build.rs", delete="x", linkers=("bfd",))


def outcomes(bfd_outcome: str) -> list:  # type: ignore[type-arg]
    from linkgate.prove.run import ControlOutcome

    (skip,) = skipped(GATE, CONTROL)
    judged = ControlOutcome("swap", "g", "bfd", "build.rs", "-x\n", bfd_outcome, "why")
    return [skip, judged]


def test_skipped_pair_in_every_format() -> None:
    report = build_report(outcomes(CAUGHT))
    assert report.exit_code == EXIT_OK
    assert report.findings == []
    (skip,) = [c for c in report.document["controls"] if c["linker"] == "default"]
    assert skip["outcome"] == "skipped" and skip["mutated"] is None and skip["restored"] is None
    assert skip["reason"] == "the control names linkers = [bfd]; it is neither run nor judged under default"
    junit = render(report, "junit")
    assert junit.count("<skipped") == 1 and 'skipped="1"' in junit and 'failures="0"' in junit
    md = render(report, "markdown")
    assert "| `swap` | `g` | default | - | - | **skipped** |" in md
    assert "#### `swap`: mutation of `build.rs`" in md
    assert "1 of 1 (control, linker) pairs caught, 1 skipped" in report.summary


def test_a_skip_never_hides_a_miss() -> None:
    report = build_report(outcomes(NOT_REPRODUCED))
    assert report.exit_code == EXIT_FINDING
    assert [f.rule for f in report.findings] == ["not-reproduced"]

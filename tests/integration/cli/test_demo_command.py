"""`linkgate demo` (what `make demo` runs) proves every one of its controls under its own linkers."""

from __future__ import annotations

import pytest

from linkgate.cli import main


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

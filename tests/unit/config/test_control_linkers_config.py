"""`[[gate.control]] linkers = [...]`: a subset of the gate's linkers, else exit 2 naming file:line:key."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate import config
from linkgate.cli import main
from linkgate.errors import ConfigError

GATE = '[[gate]]\nname = "g"\ncargo = ["test", "--no-run"]\nlinkers = ["default", "bfd"]\n'
CONTROL = '\n[[gate.control]]\nname = "swap"\nfile = "build.rs"\ndelete = "x"\n'


def test_subset_is_kept(tmp_path: Path) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GATE + CONTROL + 'linkers = ["bfd"]\n' + CONTROL.replace("swap", "all"))
    (swap, every) = config.load(cfg).gates[0].controls
    assert swap.linkers == ("bfd",)
    assert swap.runs_under(("default", "bfd")) == ("bfd",)
    assert every.linkers == ()
    assert every.runs_under(("default", "bfd")) == ("default", "bfd")


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ('["mold"]', "linker 'mold' is not one of the gate's linkers (default, bfd)"),
        ('["bdf"]', "did you mean 'bfd'"),
        ("[]", "must name at least one linker"),
        ('["bfd", "bfd"]', "a linker is listed twice"),
        ('"bfd"', "expected a list of strings"),
    ],
)
def test_bad_control_linkers(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, needle: str) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GATE + CONTROL + f"linkers = {value}\n")
    with pytest.raises(ConfigError) as info:
        config.load(cfg)
    rendered = info.value.render()
    assert needle in rendered
    assert info.value.line == 10, rendered
    # Through the command line: exit 2 and one message, no traceback.
    assert main(["prove", "--config", str(cfg), "--repo", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("linkgate: error:") == 1 and "Traceback" not in err
    assert "linkgate.toml:10: gate.g.control[0].linkers: " in err

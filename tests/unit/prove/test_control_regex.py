"""A control's patterns run on RE2: `(a+)+$` over a long line is linear work, and a
pattern RE2 cannot run is one configuration error naming file:line:key."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate import config
from linkgate.errors import ConfigError
from linkgate.prove.controls import plan

BOMB_LINE = "a" * 40 + "b\n"


def load(repo: Path, control: str, data: str = BOMB_LINE * 50 + "keep\n") -> config.Config:
    (repo / "data.txt").write_text(data)
    (repo / "linkgate.toml").write_text(
        '[[gate]]\nname = "g"\ncargo = ["build"]\n\n[[gate.control]]\nname = "c"\nfile = "data.txt"\n' + control)
    return config.load(repo / "linkgate.toml", root=repo)


def planned(cfg: config.Config) -> str:
    gate = cfg.gates[0]
    return plan(cfg, gate, gate.controls[0]).mutated.decode()


@pytest.mark.timeout(20)
def test_a_catastrophic_delete_pattern_that_matches_nothing_is_refused_quickly(tmp_path: Path) -> None:
    cfg = load(tmp_path, 'delete = "(a+)+$"\n')
    with pytest.raises(ConfigError) as err:
        planned(cfg)
    assert (err.value.line, err.value.key) == (8, "control.c.delete")
    assert "delete pattern '(a+)+$' matches no line of data.txt" in str(err.value)


@pytest.mark.timeout(20)
def test_a_catastrophic_delete_pattern_that_matches_deletes_as_python_would(tmp_path: Path) -> None:
    # `$` matches before the line's newline, as re.search does on a line read with its end.
    cfg = load(tmp_path, 'delete = "(a+)+b$"\n')
    assert planned(cfg) == "keep\n"


@pytest.mark.timeout(20)
def test_a_catastrophic_replace_pattern_and_a_group_reference(tmp_path: Path) -> None:
    cfg = load(tmp_path, 'replace = { pattern = "^((a+)+)b$", with = "\\\\1c" }\n')
    assert planned(cfg) == ("a" * 40 + "c\n") * 50 + "keep\n"


@pytest.mark.parametrize(("control", "key"), [
    ('delete = "(a)\\\\1"\n', "gate.g.control[0].delete"),
    ('delete = "x(?=y)"\n', "gate.g.control[0].delete"),
    ('replace = { pattern = "(?<=a)b", with = "c" }\n', "gate.g.control[0].replace.pattern"),
    ('delete = "x"\nexpect-match = "(?!y)z"\n', "gate.g.control[0].expect-match"),
])
def test_a_pattern_re2_cannot_run_is_a_configuration_error(tmp_path: Path, control: str, key: str) -> None:
    with pytest.raises(ConfigError) as err:
        load(tmp_path, control)
    assert err.value.key == key and err.value.line == (9 if "expect-match" in key else 8)
    assert "cannot be run by RE2" in str(err.value) and "backreferences and lookaround" in str(err.value)


def test_a_replacement_naming_a_missing_group(tmp_path: Path) -> None:
    cfg = load(tmp_path, 'replace = { pattern = "a(b)", with = "\\\\2" }\n')
    with pytest.raises(ConfigError) as err:
        planned(cfg)
    assert err.value.key == "control.c.replace.with" and "bad replacement" in str(err.value)

"""Every bad configuration: exit 2, one line naming file:line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate import config
from linkgate.cli import main
from linkgate.errors import ConfigError

GOOD = '[[gate]]\nname = "a"\ncargo = ["test", "--no-run"]\n'


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ('[[gate]]\nname = "a"\ncargo = ["test"\n', 3, "invalid TOML"),
        (GOOD + 'linkres = ["bfd"]\n', 4, "did you mean 'linkers'"),
        (GOOD + "target_dir = 'x'\n", 4, "did you mean 'target-dir'"),
        ('[[gate]]\nname = "a"\ncargo = "test"\n', 3, "expected a list of strings"),
        ('[[gate]]\ncargo = ["test"]\n', 1, "gate has no name"),
        (GOOD + '\n[[gate]]\nname = "a"\ncargo = ["build"]\n', 6, "duplicate gate name 'a'"),
        ('[[gate]]\nname = "a"\ncargo = ["test"]\ncommand = ["make"]\n', 4, "not both"),
        ('[[gate]]\nname = "a"\n', 1, "neither cargo"),
        (GOOD + 'linkers = ["bdf"]\n', 4, "did you mean 'bfd'"),
        (GOOD + 'linker-matrix = "replays"\n', 4, "did you mean 'replay'"),
        (GOOD + 'divergence = "fial"\n', 4, "gate.a.divergence: must be 'warn', 'fail' or 'off'"),
        (GOOD + 'divergence = true\n', 4, "gate[0].divergence: expected a string"),
        (GOOD + 'divergence-kinds = { neded = "off" }\n', 4,
         "gate.a.divergence-kinds.neded: unknown kind of divergence 'neded'"),
        (GOOD + 'divergence-kinds = { neded = "off" }\n', 4, "did you mean 'needed'"),
        (GOOD + 'divergence-kinds = { lto-skiped = "off" }\n', 4, "did you mean 'lto-skipped'"),
        (GOOD + 'divergence-kinds = { functions = "of" }\n', 4,
         "gate.a.divergence-kinds.functions: must be 'warn', 'fail' or 'off', not 'of'"),
        (GOOD + 'divergence-kinds = { functions = 1 }\n', 4, "gate[0].divergence-kinds.functions: expected a string"),
        (GOOD + 'divergence-kinds = "fail"\n', 4, "gate[0].divergence-kinds: expected a table"),
        (GOOD + '\n[gate.divergence-kinds]\nneeded = "fail"\nsection = "off"\n', 7,
         "gate.a.divergence-kinds.section: unknown kind of divergence"),
        (GOOD + '\n[gate.divergence-kinds]\nneeded = "fial"\n', 6, "did you mean 'fail'"),
        (GOOD + 'divergence-threshold = 101\n', 4, "gate.a.divergence-threshold: must be a percentage"),
        (GOOD + 'divergence-threshold = "2 %"\n', 4, "expected an integer"),
        (GOOD + 'env = { X = 1 }\n', 4, "gate[0].env.X: expected a string, got the integer 1"),
        ('[[gate]]\nname = "a"\ncargo = ["test", "--target-dir=x"]\n', 3, "set by linkgate itself"),
        (GOOD + '\n[[gate.control]]\nname = "c"\nfile = "build.rs"\n', 5, "exactly one of delete, replace or patch"),
        (GOOD + '\n[[gate.control]]\nname = "c"\nfile = "build.rs"\ndelete = "("\n', 8, "invalid regular expression"),
        (GOOD + '\n[audit]\nseverity = { never-linked = "fatal" }\n', 6, "severity must be one of"),
        (GOOD + '\n[[audit.ignore]]\nfinding = "never-linked"\n', 5, "needs a reason"),
        ('[[gate]]\nname = "a"\nlinkers = ["bfd"]\ncargo = ["check", "--all-targets"]\n', 4, "can never fail on a link"),
        ('[[gate]]\nname = "a"\ncargo = ["+nightly", "clippy"]\n', 3, "never invokes the linker"),
        ('[[gate]]\nname = "a"\ncargo = ["doc"]\n', 3, "rustdoc"),
        ('[[gate]]\nname = "a"\ncargo = ["--locked", "build"]\n', 3, "first argument must be the cargo subcommand"),
        (GOOD + '\n[[gate.control]]\nname = "c"\nfile = "build.rs"\ndelete = "x"\nexpect-kind = "undefined"\n', 9,
         "did you mean 'undefined-symbol'"),
        (GOOD + '\n[[gate.control]]\nname = "c"\nfile = "build.rs"\nexpect-kind = "dso_missing"\ndelete = "x"\n', 8,
         "unknown diagnostic kind 'dso_missing'"),
    ],
)
def test_bad_config_names_file_line_and_key(tmp_path: Path, capsys, text: str, line: int, needle: str) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError) as info:
        config.load(cfg)
    assert needle in info.value.render()
    assert info.value.line == line, info.value.render()
    rc = main(["run", "--config", str(cfg)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"{cfg}:{line}" in err.splitlines()[0]


@pytest.mark.parametrize(
    ("line", "key", "message"),
    [
        ("env = { A = 1 }", "gate[0].env.A", "expected a string, got the integer 1"),
        ("env = { A = 1.5 }", "gate[0].env.A", "expected a string, got the float 1.5"),
        ('env = { A = "x", "B C" = true }', 'gate[0].env."B C"', "expected a string, got the boolean true"),
        ("env = { A = [] }", "gate[0].env.A", "expected a string, got an empty array"),
        ('linkers = ["default", 2]', "gate[0].linkers[1]", "expected a string, got the integer 2"),
        ('paths = ["src/**", { a = "b" }]', "gate[0].paths[1]", "expected a string, got a table"),
        ("env = 1979-05-27", "gate[0].env", "expected a table of strings, got the date 1979-05-27"),
        ("why = 3", "gate[0].why", "expected a string, got the integer 3"),
        ("linkers = 7", "gate[0].linkers", "expected a list of strings, got the integer 7"),
    ],
)
def test_type_errors_name_the_member_and_its_type(tmp_path: Path, line: str, key: str, message: str) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GOOD + line + "\n")
    with pytest.raises(ConfigError) as info:
        config.load(cfg)
    assert info.value.key == key
    assert message in info.value.render()
    assert info.value.line == 4


def test_cargo_toml_metadata_is_read(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\n\n'
        '[[package.metadata.linkgate.gate]]\nname = "g"\ncargo = ["build"]\nlinkres = []\n'
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        config.load()
    assert info.value.line == 8
    assert info.value.key == "package.metadata.linkgate.gate[0].linkres"


def test_linkgate_toml_wins_and_gates_are_frozen(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "linkgate.toml").write_text(GOOD + 'linkers = ["default", "mold"]\nenv = { A = "1" }\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    cfg = config.load()
    gate = cfg.gate("a")
    assert gate.linkers == ("default", "mold") and gate.env == {"A": "1"}
    assert cfg.root == tmp_path.resolve()


def test_no_configuration_is_a_clear_error(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    assert "no linkgate configuration found" in capsys.readouterr().err


def test_alias_to_check_is_refused_with_where_it_was_found(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the repository root (and so the alias's config) is found from here
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text('[alias]\nci-lint = "clippy --workspace"\n')
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text('[[gate]]\nname = "a"\ncargo = ["ci-lint"]\n')
    assert main(["run", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"{cfg}:3: gate.a.cargo:" in err
    assert "alias 'ci-lint'" in err and "cargo clippy" in err

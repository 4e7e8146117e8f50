"""What a newcomer meets first: a mistyped command or linker, no configuration yet, `-o x.json`
without `-f`, and `cargo linkgate --help` (real repositories in tmp_path, main() in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import cargo_main, main


def test_a_mistyped_command_gets_the_closest_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rnu"]) == 2
    err = capsys.readouterr().err
    assert "no such command 'rnu' (did you mean 'run'?)" in err
    assert "`linkgate --help` lists the commands" in err


def test_a_word_close_to_nothing_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["zzzzqqq"]) == 2
    err = capsys.readouterr().err
    assert "no such command 'zzzzqqq': `linkgate --help` lists the commands" in err


def test_cargo_linkgate_help_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert cargo_main(["linkgate", "--help"]) == 0
    assert capsys.readouterr().out.startswith("Usage: cargo linkgate [OPTIONS] COMMAND")


def test_no_configuration_points_at_init(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "README").write_text("no configuration yet\n")
    git_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    assert "run `linkgate init`" in capsys.readouterr().err


def test_a_mistyped_linker_gets_the_closest_one(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n')
    git_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--linker", "mlod"]) == 2
    assert "did you mean 'mold'?" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "fmt"), [("out.json", "json"), ("out.md", "markdown"),
                                          ("out.sarif", "sarif"), ("out.xml", "junit")])
def test_output_suffix_chooses_the_format(tmp_path: Path, name: str, fmt: str) -> None:
    log = tmp_path / "build.log"
    log.write_text("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x5): undefined reference to `x_fn'\n"
                   "collect2: error: ld returned 1 exit status\n")
    out = tmp_path / name
    assert main(["explain", str(log), "-o", str(out)]) == 1
    text = out.read_text()
    if fmt == "json":
        assert json.loads(text)["diagnostics"][0]["symbol"] == "x_fn"
    elif fmt == "sarif":
        assert json.loads(text)["version"] == "2.1.0"
    elif fmt == "junit":
        assert text.startswith("<?xml")
    else:
        assert "x_fn" in text and not text.lstrip().startswith("{")


def test_an_explicit_format_wins_over_the_suffix(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text("/usr/bin/ld: cannot find -lfoo: No such file or directory\n")
    out = tmp_path / "out.json"
    main(["explain", str(log), "-o", str(out), "-f", "human"])
    assert not out.read_text().lstrip().startswith("{")

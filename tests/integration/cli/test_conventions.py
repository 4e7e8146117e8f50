"""One command-line convention: every command's --help, walked.

Same option names and short forms everywhere they apply (--repo with --config,
-f/--format, -o/--output, -q/--quiet); summaries that are whole sentences; an
example in every command's help that the command's own parser accepts.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from linkgate.cli import EXAMPLES, cli, main


def command_paths() -> list[tuple[str, ...]]:
    ctx = click.Context(cli)
    out: list[tuple[str, ...]] = []

    def walk(group: click.Group, prefix: tuple[str, ...]) -> None:
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            assert sub is not None, name
            out.append((*prefix, name))
            if isinstance(sub, click.Group):
                walk(sub, (*prefix, name))

    walk(cli, ())
    return out


PATHS = command_paths()


def help_of(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*path, "--help"]) == 0
    return capsys.readouterr().out


def test_the_walk_finds_every_command() -> None:
    names = {p[0] for p in PATHS}
    assert {"run", "explain", "surface", "replay", "sweep", "cost", "coverage", "ci", "report"} <= names
    assert ("ci", "github") in PATHS and ("report", "merge") in PATHS and ("history", "import") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_options_follow_one_convention(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(path, capsys)
    options = set(re.findall(r"^\s+(?:(-[a-zA-Z]), )?(--[a-z][a-z-]*)", text, re.M))
    longs = {long: short for short, long in options}
    if "--config" in longs:
        assert "--repo" in longs, f"{' '.join(path)}: --config without --repo"
    for long, short in {"--format": "-f", "--output": "-o", "--quiet": "-q"}.items():
        if long in longs:
            assert longs[long] == short, f"{' '.join(path)}: {long} without {short}"
    if "--repo" in longs:
        assert "--repo DIR" in text or "--repo DIRECTORY" in text, f"{' '.join(path)}: --repo takes a directory"


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_help_has_an_example_the_parser_accepts(path: tuple[str, ...], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert " ".join(path) in EXAMPLES, f"`linkgate {' '.join(path)}` has no examples: add them to linkgate.cli.EXAMPLES"
    text = help_of(path, capsys)
    assert "\nExamples:\n" in text.replace("  Examples:", "Examples:"), f"{' '.join(path)} has no example"
    monkeypatch.chdir(tmp_path)
    for example in EXAMPLES[" ".join(path)]:
        assert f"    {example}\n" in text
        argv = shlex.split(example.split("| ")[-1])
        assert argv[0] == "linkgate"
        command: click.Command = cli
        ctx = click.Context(cli)
        rest = argv[1:]
        while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
            found = command.get_command(ctx, rest[0])
            assert found is not None, example
            command, rest = found, rest[1:]
        if isinstance(command, click.Group):
            continue  # a group's example names a subcommand, checked with that subcommand
        # Parsing only: unknown options, bad choices and missing arguments fail here.
        command.make_context(argv[1], list(rest))


def listed_summaries(text: str) -> list[str]:
    section = text.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    rows: list[str] = []
    for line in section.splitlines():
        m = re.match(r"^  (\S+)\s+(.*)$", line)
        if m and not line.startswith("    "):
            rows.append(m[2])
        elif rows:
            rows[-1] += " " + line.strip()
    return rows


@pytest.mark.parametrize("path", [()] + [p for p in PATHS if isinstance(
    cli.get_command(click.Context(cli), p[0]), click.Group) and len(p) == 1], ids=lambda p: " ".join(p) or "linkgate")
def test_command_summaries_are_whole_sentences(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    rows = listed_summaries(help_of(path, capsys))
    assert rows
    for row in rows:
        assert not row.endswith("...") and row.endswith("."), f"{' '.join(path)}: cut summary {row!r}"
        assert row.count("(") == row.count(")"), row

"""drop-directive controls: a link-line argument or a rustc-link-lib value, never with a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate import config
from linkgate.errors import ConfigError
from linkgate.replay.controls import matcher
from linkgate.replay.directives import SourceDirective, lib_argument

GOOD = '[[gate]]\nname = "a"\ncargo = ["test", "--no-run"]\n\n[[gate.control]]\nname = "c"\n'


def load(tmp_path: Path, text: str) -> config.Control:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GOOD + text)
    return config.load(cfg).gates[0].controls[0]


def directive(key: str, value: str) -> SourceDirective:
    return SourceDirective(key, value, "p", None, None, "output", 1)


def test_argument_form(tmp_path):
    c = load(tmp_path, 'drop-directive = "-lc"\n')
    assert c.drops_directive and c.drop_directive == "-lc" and c.drop_lib is None and c.file == ""
    match = matcher(c)
    assert match(directive("rustc-link-arg", "-lc"))
    assert match(directive("rustc-link-lib", "dylib=c"))
    assert not match(directive("rustc-link-arg", "-lcore"))


def test_lib_form(tmp_path):
    c = load(tmp_path, 'drop-directive = { lib = "static=flatcc_parsing" }\n')
    assert c.drop_lib == "static=flatcc_parsing" and c.drop_directive is None
    match = matcher(c)
    assert match(directive("rustc-link-lib", "static=flatcc_parsing"))
    assert not match(directive("rustc-link-arg", "-lflatcc_parsing"))


@pytest.mark.parametrize(
    ("value", "expected"),
    [("foo", "-lfoo"), ("static=foo", "-lfoo"), ("static:+verbatim=libfoo.a", "-l:libfoo.a"),
     ("dylib=foo:bar", "-lbar")],
)
def test_lib_argument(value, expected):
    assert lib_argument(value) == expected


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ('drop-directive = "-lc"\nfile = "build.rs"\n', 8, "changes no file"),
        ('drop-directive = { name = "x" }\n', 7, "unknown key 'name'"),
        ('drop-directive = 3\n', 7, "a string or a table"),
        ('drop-directive = "-lc"\ndelete = "x"\nfile = "b"\n', 5, "exactly one of"),
    ],
)
def test_bad_drop_directive(tmp_path, text, line, needle):
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    assert needle in info.value.render() and info.value.line == line, info.value.render()

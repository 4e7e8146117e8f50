"""The one YAML emitter: what it refuses, how it quotes, and that what it writes
reads back the same under YAML 1.1 (PyYAML) and YAML 1.2 (ruamel.yaml)."""

from __future__ import annotations

import pytest
import yaml
from ruamel.yaml import YAML

from linkgate import yamlemit


def both(text: str) -> tuple[object, object]:
    return yaml.safe_load(text), YAML(typ="safe", pure=True).load(text)


@pytest.mark.parametrize(("char", "words"), [
    ("\u2028", "U+2028 LINE SEPARATOR at character 3 (YAML 1.1 parsers, PyYAML and libyaml, read it as a line"),
    ("\u2029", "U+2029 PARAGRAPH SEPARATOR"),
    ("\x85", "NEL (U+0085)"),
    ("\r", "a line break"),
    ("\x1b", "the control character U+001B"),
    ("\x7f", "the control character U+007F"),
    ("\x9b", "the control character U+009B"),
    ("\ufeff", "a byte-order mark (U+FEFF)"),
    ("\ufffe", "U+FFFE"),
    ("\ud800", "a lone surrogate (U+D800)"),
])
def test_a_character_no_workflow_can_carry_is_named_with_its_position(char: str, words: str) -> None:
    found = yamlemit.problem(f"ab{char}c", multiline=True)
    assert found is not None and words in found and "at character 3" in found


def test_tabs_pass_and_line_feeds_only_in_a_block() -> None:
    assert yamlemit.problem("a\tb") is None
    assert yamlemit.problem("a\nb", multiline=True) is None
    assert yamlemit.problem("a\nb") == "holds a line break at character 2"


@pytest.mark.parametrize("value", ["yes", "on", "No", "y", "12:30", "1e3", "0o17", "1_000", "0x10", "~", "null",
                                   "2001-12-14", "=", "<<", "+1", ".5", "true", "- a", "a: b", "a #b", "*x", "'q'",
                                   " lead", "trail ", "", "[a]", "%x", "@x", "`x`"])
def test_a_scalar_both_versions_would_not_read_as_that_string_is_quoted(value: str) -> None:
    text = f"k: {yamlemit.scalar(value)}\n"
    assert both(text) == ({"k": value}, {"k": value})
    assert yamlemit.scalar(value) != value


@pytest.mark.parametrize("value", ["xla-link", "v1.2", "1st", "my.gate", "native/**", "${{ runner.os }}", "ü"])
def test_a_plain_scalar_stays_plain(value: str) -> None:
    assert yamlemit.scalar(value) == value or value == "native/**"
    assert both(f"k: {yamlemit.scalar(value)}\n") == ({"k": value}, {"k": value})


def test_inside_a_flow_sequence_a_comma_is_quoted() -> None:
    text = yamlemit.dump({"runs-on": ["self-hosted", "a,b", "[x]"]}, 0)
    assert both(text) == ({"runs-on": ["self-hosted", "a,b", "[x]"]},) * 2


def test_dump_reads_back_under_both_versions() -> None:
    data = {"env": {"A": "yes", "B": "12:30", "C": "on", "D": "line one\n  two\n", "E": " x\n", "F": "a\n\n"},
            "n": 3, "ok": False, "steps": [{"run": "echo 'it''s'\n"}, {"uses": "a/b@c"}]}
    text = yamlemit.dump(data, 2)
    assert both(text) == (data, data)
    assert text.startswith("  env:\n")


def test_dump_refuses_a_separator_naming_where_it_is() -> None:
    with pytest.raises(yamlemit.UnsafeValue) as caught:
        yamlemit.dump({"jobs": {"g": {"env": {"A": "x\u2028evil: 1"}}}}, 0)
    assert "jobs.g.env.A holds U+2028 LINE SEPARATOR" in caught.value.message
    assert "nothing was written" in caught.value.message


def test_a_comment_cannot_end_its_line_early() -> None:
    line = yamlemit.comment("why\u2028  evil:\x85x\u2029y\nz\x1b")
    assert line == "# why\\u2028  evil:\\x85x\\u2029y\\x0Az\\x1B"
    doc = yaml.safe_load("a: 1\n" + line + "\n")
    assert doc == {"a": 1}


def test_quoted_refuses_what_it_cannot_carry() -> None:
    assert yamlemit.quoted("it's") == "'it''s'"
    with pytest.raises(yamlemit.UnsafeValue):
        yamlemit.quoted("a\x85b")

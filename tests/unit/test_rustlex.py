"""The tokenizer's regular-expression path gives exactly the tokens of its
character-by-character reference, on generated text full of the places where
the two could part (raw strings, byte and C strings, lifetimes, comments,
escapes, non-ASCII letters and digits, unterminated literals)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from linkgate import rustlex

PIECES = st.sampled_from([
    "r", "b", "c", "br", "cr", "r#", "#", '"', "'", "\\", "\\n", "\\u{e9}", "\\x41", "/", "*", "//", "/*", "*/",
    "\n", " ", "\t", "\r", "\x1c", "\x00", "a", "_", "x1", "1", "1.", ".", "..", "2.5", "é", "²", "٣", "ℕ", "::", "=>",
    "->", "!", "(", ")", "{", "}", "[", "]", "<", ">", "=", "-", "+", "&", "|", ",", ";", "'a", "'static", "$",
    "println", "cargo:rerun-if-changed=", "\u2028", "🦀",
])


@pytest.mark.timeout(300)
@settings(max_examples=3000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=40).map("".join))
@example('abc"x"')
@example('1.é')
@example('br#"x"# r#type b"\\"" c"é" \'a\' \'\\u{1F600}\' /* /* */ */ x²')
def test_the_fast_path_gives_the_reference_tokens(text: str) -> None:
    assert rustlex._tokenize(text, fast=True) == rustlex._tokenize(text, fast=False)


def test_a_string_is_one_token_with_its_escapes_resolved() -> None:
    tokens = rustlex.tokenize('println!("cargo:rerun-if-changed=caf\\u{e9}.c");\n// "not read"\nx')
    assert [(t.kind, t.text, t.line) for t in tokens] == [
        ("ident", "println", 1), ("punct", "!", 1), ("punct", "(", 1), ("str", "cargo:rerun-if-changed=café.c", 1),
        ("punct", ")", 1), ("punct", ";", 1), ("ident", "x", 3)]

"""PlainConsole renders markup exactly as rich does, without importing rich."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.markup import escape as rich_escape

from linkgate.console import PlainConsole, escape, strip_markup

TEXT = st.text(alphabet=st.sampled_from(list("ab[]/\\#@: x-1")), max_size=30)


def rich_plain(markup: str) -> str:
    buf = io.StringIO()
    Console(file=buf, no_color=True, highlight=False, soft_wrap=True, emoji=False).print(markup)
    return buf.getvalue()


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_escape_and_strip_match_rich(text: str) -> None:
    assert escape(text) == rich_escape(text)
    assert strip_markup(escape(text)) + "\n" == rich_plain(escape(text))


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT, st.sampled_from(["bold", "dim", "bold red", "yellow", "cyan"]))
def test_styled_text_renders_like_rich(a: str, b: str, style: str) -> None:
    markup = f"[{style}]{escape(a)}[/] \\[{escape(b)}"
    buf = io.StringIO()
    PlainConsole(buf).print(markup)
    assert buf.getvalue() == rich_plain(markup)


def test_markup_false_prints_verbatim() -> None:
    buf = io.StringIO()
    PlainConsole(buf).print("[bold]x[/] :x:", markup=False)
    assert buf.getvalue() == "[bold]x[/] :x:\n"

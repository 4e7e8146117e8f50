"""Stars and globstars, and the end of parse (the tail of lib/parse.js).

This is where most of paths-filter's surprises come from: ``a/**`` compiles
to ``a(?:/...|$)`` so it matches ``a`` itself, ``a/**/b`` also matches
``ab``, and a trailing ``*`` or ``]`` accepts one trailing slash.
"""

from __future__ import annotations

import re

from linkgate.picomatch.constants import (
    GLOBSTAR,
    NO_DOT_SLASH,
    NO_DOTS_SLASH,
    ONE_CHAR,
    SLASH_LITERAL,
    STAR,
    escape_last,
)
from linkgate.picomatch.tokens import Token, TokenStream


def _js_concat(left: str | None, right: str) -> str:
    # JavaScript turns an undefined left operand into the text "undefined".
    return ("undefined" if left is None else left) + right


def on_star(p: TokenStream, value: str) -> None:
    state, prev = p.state, p.prev
    if prev.type == "globstar" or prev.star:
        prev.type, prev.star = "star", True
        prev.value += value
        prev.output = STAR
        state.backtrack = True
        return
    rest = p.remaining()
    if re.match(r"\([^?]", rest):
        p.extglob_open("star", value)
        return
    if prev.type == "star":
        _on_second_star(p, value, rest)
        return
    tok = Token("star", value, STAR)
    if state.index == state.start or prev.type in ("slash", "dot"):
        guard = NO_DOT_SLASH if prev.type == "dot" else NO_DOTS_SLASH
        state.output += guard
        prev.output = _js_concat(prev.output, guard)
        if p.peek() != "*":
            state.output += ONE_CHAR
            prev.output = _js_concat(prev.output, ONE_CHAR)
    p.push(tok)


def _on_second_star(p: TokenStream, value: str, rest: str) -> None:
    state, prev = p.state, p.prev
    prior = prev.prev
    assert prior is not None
    before = prior.prev
    is_start = prior.type in ("slash", "bos")
    after_star = before is not None and before.type in ("star", "globstar")
    is_brace = state.braces > 0 and prior.type in ("comma", "brace")
    is_extglob = bool(p.extglobs) and prior.type in ("pipe", "paren")
    if not is_start and prior.type != "paren" and not is_brace and not is_extglob:
        p.push(Token("star", value, ""))
        return

    # Consecutive `/**` segments collapse into one globstar.
    while rest[:3] == "/**":
        after = p.input[state.index + 4] if state.index + 4 < len(p.input) else ""
        if after and after != "/":
            break
        rest = rest[3:]
        state.index += 3

    prior_prev = prior.prev
    if prior.type == "bos" and p.eos():
        prev.type, prev.output = "globstar", GLOBSTAR
        prev.value += value
        state.output = prev.output
        return
    if prior.type == "slash" and prior_prev is not None and prior_prev.type != "bos" and not after_star and p.eos():
        # `x/**` at the end: the slash and globstar become optional together,
        # which is why `src/**` matches `src`.
        state.output = state.output[: -len((prior.output or "") + (prev.output or ""))]
        prior.output = f"(?:{prior.output}"
        prev.type, prev.output = "globstar", GLOBSTAR + "|$)"
        prev.value += value
        state.output += prior.output + prev.output
        return
    if prior.type == "slash" and prior_prev is not None and prior_prev.type != "bos" and rest[:1] == "/":
        end = "|$" if len(rest) > 1 else ""
        state.output = state.output[: -len((prior.output or "") + (prev.output or ""))]
        prior.output = f"(?:{prior.output}"
        prev.type = "globstar"
        prev.output = f"{GLOBSTAR}{SLASH_LITERAL}|{SLASH_LITERAL}{end})"
        prev.value += value
        state.output += prior.output + prev.output
        p.advance()
        p.push(Token("slash", "/", ""))
        return
    if prior.type == "bos" and rest[:1] == "/":
        prev.type = "globstar"
        prev.value += value
        prev.output = f"(?:^|{SLASH_LITERAL}|{GLOBSTAR}{SLASH_LITERAL})"
        state.output = prev.output
        p.advance()
        p.push(Token("slash", "/", ""))
        return
    state.output = state.output[: -len(prev.output or "")]
    prev.type, prev.output = "globstar", GLOBSTAR
    prev.value += value
    state.output += prev.output


def finish(p: TokenStream) -> None:
    state = p.state
    while state.brackets > 0:
        state.output = escape_last(state.output, "[")
        p.decrement("brackets")
    while state.parens > 0:
        state.output = escape_last(state.output, "(")
        p.decrement("parens")
    while state.braces > 0:
        state.output = escape_last(state.output, "{")
        p.decrement("braces")
    if p.prev.type in ("star", "bracket"):
        p.push(Token("maybe_slash", "", f"{SLASH_LITERAL}?"))
    if state.backtrack:
        state.output = "".join(t.output if t.output is not None else t.value for t in state.tokens)

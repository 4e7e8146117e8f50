"""picomatch 2.3.1's parser loop (second half of lib/parse.js), {dot: true}.

Each ``_on_*`` method is one ``if (value === ...)`` block of the original,
in the same order; a True return is the original's ``continue``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from linkgate.picomatch.constants import (
    DOT_LITERAL,
    GLOBSTAR,
    NON_SPECIAL_CHARS,
    ONE_CHAR,
    PLUS_LITERAL,
    POSIX_REGEX_SOURCE,
    QMARK,
    SLASH_LITERAL,
    STAR,
    escape_regex,
    has_regex_chars,
)
from linkgate.picomatch.fastpaths import is_simple, simple
from linkgate.picomatch.stars import finish, on_star
from linkgate.picomatch.tokens import Extglob, State, Token, TokenStream


def parse(pattern: str, fastpaths: bool = True) -> State:
    return Parser(pattern).run(fastpaths)


def _expand_range(args: list[str]) -> str:
    from linkgate.picomatch import jsregex

    # JavaScript's default sort compares UTF-16 code units, so `{1..10}`
    # becomes the class `[1-10]` (the characters 0 and 1).
    args = sorted(args, key=lambda s: s.encode("utf-16-be"))
    value = f"[{'-'.join(args)}]"
    try:
        jsregex.translate(value)
    except jsregex.JSRegexError:
        return "..".join(escape_regex(v) for v in args)
    return value


class Parser(TokenStream):
    def run(self, fastpaths: bool = True) -> State:
        state = self.state
        if fastpaths and is_simple(self.input):
            state.output = simple(self.input)
            return state
        while not self.eos():
            value = self.advance()
            if value == "\0":
                continue
            if value == "\\":
                escaped = self._on_backslash()
                if escaped is None:
                    continue
                value = escaped
            if state.brackets > 0 and (value != "]" or self.prev.value in ("[", "[^")):
                self._in_bracket(value)
                continue
            if state.quotes == 1 and value != '"':
                value = escape_regex(value)
                self.prev.value += value
                self.append(Token("text", value))
                continue
            handler = _HANDLERS.get(value)
            if handler is not None and handler(self, value):
                continue
            if value != "*":
                self._on_text(value)
            else:
                self._on_star(value)
        self._finish()
        return state

    def extglob_close(self, ext: Extglob) -> None:
        output = ext.close
        if ext.type == "negate":
            extglob_star = STAR
            if len(ext.inner) > 1 and "/" in ext.inner:
                extglob_star = GLOBSTAR
            if extglob_star != STAR or self.eos() or re.fullmatch(r"\)+", self.remaining()):
                output = ext.close = f")$)){extglob_star}"
            rest = self.remaining()
            if "*" in ext.inner and rest and re.fullmatch(r"\.[^\\/.]+", rest):
                expression = parse(rest, fastpaths=False).output
                output = ext.close = f"){expression}){extglob_star})"
        self.push(Token("paren", ")", output, extglob=True))
        self.decrement("parens")

    def _on_backslash(self) -> str | None:
        """An escape; returns the escaped pair when it continues inside brackets."""
        nxt = self.peek()
        if nxt in ("/", ".", ";"):
            return None
        value = "\\"
        if not nxt:
            self.push(Token("text", value + "\\"))
            return None
        m = re.match(r"\\+", self.remaining())
        if m and len(m.group(0)) > 2:
            self.state.index += len(m.group(0))
            if len(m.group(0)) % 2 != 0:
                value += "\\"
        value += self.advance()
        if self.state.brackets == 0:
            self.push(Token("text", value))
            return None
        return value

    def _in_bracket(self, value: str) -> None:
        prev = self.prev
        if value == ":":
            inner = prev.value[1:]
            if "[" in inner:
                prev.posix = True
                if ":" in inner:
                    idx = prev.value.rfind("[")
                    pre, rest = prev.value[:idx], prev.value[idx + 2 :]
                    posix = POSIX_REGEX_SOURCE.get(rest)
                    if posix:
                        prev.value = pre + posix
                        self.state.backtrack = True
                        self.advance()
                        if not self.bos.output and self.state.tokens.index(prev) == 1:
                            self.bos.output = ONE_CHAR
                        return
        if (value == "[" and self.peek() != ":") or (value == "-" and self.peek() == "]"):
            value = "\\" + value
        if value == "]" and prev.value in ("[", "[^"):
            value = "\\" + value
        prev.value += value
        self.append(Token("text", value))

    def _on_quote(self, value: str) -> bool:
        self.state.quotes = 0 if self.state.quotes == 1 else 1
        return True

    def _on_open_paren(self, value: str) -> bool:
        self.increment("parens")
        self.push(Token("paren", value))
        return True

    def _on_close_paren(self, value: str) -> bool:
        ext = self.extglobs[-1] if self.extglobs else None
        if ext is not None and self.state.parens == ext.parens + 1:
            self.extglob_close(self.extglobs.pop())
            return True
        self.push(Token("paren", value, ")" if self.state.parens else "\\)"))
        self.decrement("parens")
        return True

    def _on_open_bracket(self, value: str) -> bool:
        if "]" not in self.remaining():
            value = "\\" + value
        else:
            self.increment("brackets")
        self.push(Token("bracket", value))
        return True

    def _on_close_bracket(self, value: str) -> bool:
        prev, state = self.prev, self.state
        if prev.type == "bracket" and len(prev.value) == 1:
            self.push(Token("text", value, "\\" + value))
            return True
        if state.brackets == 0:
            self.push(Token("text", value, "\\" + value))
            return True
        self.decrement("brackets")
        prev_value = prev.value[1:]
        if not prev.posix and prev_value[:1] == "^" and "/" not in prev_value:
            value = "/" + value
        prev.value += value
        self.append(Token("", value))
        if has_regex_chars(prev_value):
            return True
        # Neither literal nor class was asked for, so picomatch matches both:
        # this is why `[!a]` also matches the text `[!a]` and is no negation.
        escaped = escape_regex(prev.value)
        state.output = state.output[: -len(prev.value)]
        prev.value = f"(?:{escaped}|{prev.value})"
        state.output += prev.value
        return True

    def _on_open_brace(self, value: str) -> bool:
        self.increment("braces")
        tok = Token("brace", value, "(")
        tok.output_index, tok.tokens_index = len(self.state.output), len(self.state.tokens)
        self.braces.append(tok)
        self.push(tok)
        return True

    def _on_close_brace(self, value: str) -> bool:
        state = self.state
        brace = self.braces[-1] if self.braces else None
        if brace is None:
            self.push(Token("text", value, value))
            return True
        output = ")"
        if brace.dots:
            arr = list(state.tokens)
            bounds: list[str] = []
            for tok in reversed(arr):
                state.tokens.pop()
                if tok.type == "brace":
                    break
                if tok.type != "dots":
                    bounds.insert(0, tok.value)
            output = _expand_range(bounds)
            state.backtrack = True
        if not brace.comma and not brace.dots:
            out = state.output[: brace.output_index]
            toks = state.tokens[brace.tokens_index :]
            brace.value = brace.output = "\\{"
            value = output = "\\}"
            state.output = out
            for t in toks:
                # `||` in parse.js: an empty output falls back to the value.
                state.output += t.output or t.value
        self.push(Token("brace", value, output))
        self.decrement("braces")
        self.braces.pop()
        return True

    def _on_pipe(self, value: str) -> bool:
        self.push(Token("text", value))
        return True

    def _on_comma(self, value: str) -> bool:
        output = value
        brace = self.braces[-1] if self.braces else None
        if brace is not None and self.stack and self.stack[-1] == "braces":
            brace.comma = True
            output = "|"
        self.push(Token("comma", value, output))
        return True

    def _on_slash(self, value: str) -> bool:
        state = self.state
        # A `./` at the start (after any `!`) is dropped, as removePrefix did.
        if self.prev.type == "dot" and state.index == state.start + 1:
            state.start = state.index + 1
            state.output = ""
            state.tokens.pop()
            self.prev = self.bos
            return True
        self.push(Token("slash", value, SLASH_LITERAL))
        return True

    def _on_dot(self, value: str) -> bool:
        state, prev = self.state, self.prev
        if state.braces > 0 and prev.type == "dot":
            if prev.value == ".":
                prev.output = DOT_LITERAL
            prev.type = "dots"
            prev.output = (prev.output or "") + value
            prev.value += value
            self.braces[-1].dots = True
            return True
        if state.braces + state.parens == 0 and prev.type not in ("bos", "slash"):
            self.push(Token("text", value, DOT_LITERAL))
            return True
        self.push(Token("dot", value, DOT_LITERAL))
        return True

    def _on_qmark(self, value: str) -> bool:
        prev = self.prev
        if prev.value != "(" and self.peek() == "(" and self.peek(2) != "?":
            self.extglob_open("qmark", value)
            return True
        if prev.type == "paren":
            nxt = self.peek()
            output = value
            if (prev.value == "(" and not re.match(r"[!=<:]", nxt)) or (
                nxt == "<" and not re.search(r"<([!=]|\w+>)", self.remaining(), re.ASCII)
            ):
                output = "\\" + value
            self.push(Token("text", value, output))
            return True
        self.push(Token("qmark", value, QMARK))
        return True

    def _on_bang(self, value: str) -> bool:
        if self.peek() == "(" and (self.peek(2) != "?" or not re.match(r"[!=<:]", self.peek(3))):
            self.extglob_open("negate", value)
            return True
        if self.state.index == 0:
            self.negate()
            return True
        return False

    def _on_plus(self, value: str) -> bool:
        prev = self.prev
        if self.peek() == "(" and self.peek(2) != "?":
            self.extglob_open("plus", value)
        elif prev.value == "(":
            self.push(Token("plus", value, PLUS_LITERAL))
        elif prev.type in ("bracket", "paren", "brace") or self.state.parens > 0:
            self.push(Token("plus", value))
        else:
            self.push(Token("plus", PLUS_LITERAL))
        return True

    def _on_at(self, value: str) -> bool:
        if self.peek() == "(" and self.peek(2) != "?":
            self.push(Token("at", value, "", extglob=True))
        else:
            self.push(Token("text", value))
        return True

    def _on_text(self, value: str) -> None:
        if value in ("$", "^"):
            value = "\\" + value
        m = NON_SPECIAL_CHARS.match(self.remaining())
        if m:
            value += m.group(0)
            self.state.index += len(m.group(0))
        self.push(Token("text", value))

    def _on_star(self, value: str) -> None:
        on_star(self, value)

    def _finish(self) -> None:
        finish(self)


_Handler = Callable[[Parser, str], bool]
_HANDLERS: dict[str, _Handler] = {
    '"': Parser._on_quote,
    "(": Parser._on_open_paren,
    ")": Parser._on_close_paren,
    "[": Parser._on_open_bracket,
    "]": Parser._on_close_bracket,
    "{": Parser._on_open_brace,
    "}": Parser._on_close_brace,
    "|": Parser._on_pipe,
    ",": Parser._on_comma,
    "/": Parser._on_slash,
    ".": Parser._on_dot,
    "?": Parser._on_qmark,
    "!": Parser._on_bang,
    "+": Parser._on_plus,
    "@": Parser._on_at,
}

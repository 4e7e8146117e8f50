"""picomatch 2.3.1's token model and tokenizing helpers (first half of parse.js).

The helpers keep the original's names and its habit of mutating tokens that
were already pushed: several observable quirks come from the running output
and the token list (from which output is rebuilt after a backtrack)
disagreeing, so a tidier design would match different paths.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linkgate.picomatch.constants import EXTGLOB_CHARS, ONE_CHAR, REPLACEMENTS, STAR, remove_prefix


class Token:
    """A mutable token; ``output is None`` stands for JavaScript's undefined."""

    __slots__ = ("type", "value", "output", "prev", "extglob", "star", "posix", "dots", "comma",
                 "output_index", "tokens_index")

    def __init__(self, type: str, value: str, output: str | None = None, extglob: bool = False) -> None:
        self.type, self.value, self.output, self.extglob = type, value, output, extglob
        self.prev: Token | None = None
        self.star = self.posix = self.dots = self.comma = False
        self.output_index = self.tokens_index = 0


@dataclass
class Extglob:
    type: str
    close: str
    prev: Token
    parens: int
    inner: str = ""


@dataclass
class State:
    output: str = ""
    index: int = -1
    start: int = 0
    negated: bool = False
    backtrack: bool = False
    brackets: int = 0
    braces: int = 0
    parens: int = 0
    quotes: int = 0
    tokens: list[Token] = field(default_factory=list)


class TokenStream:
    def __init__(self, pattern: str) -> None:
        pattern = REPLACEMENTS.get(pattern, pattern)
        self.bos = Token("bos", "", "")
        self.state = State(tokens=[self.bos])
        self.input = remove_prefix(pattern)
        self.extglobs: list[Extglob] = []
        self.braces: list[Token] = []
        self.stack: list[str] = []
        self.prev: Token = self.bos

    def eos(self) -> bool:
        return self.state.index == len(self.input) - 1

    def peek(self, n: int = 1) -> str:
        i = self.state.index + n
        return self.input[i] if 0 <= i < len(self.input) else ""

    def advance(self) -> str:
        self.state.index += 1
        return self.peek(0)

    def remaining(self) -> str:
        return self.input[self.state.index + 1 :]

    def append(self, tok: Token) -> None:
        self.state.output += tok.output if tok.output is not None else tok.value

    def increment(self, kind: str) -> None:
        setattr(self.state, kind, getattr(self.state, kind) + 1)
        self.stack.append(kind)

    def decrement(self, kind: str) -> None:
        setattr(self.state, kind, getattr(self.state, kind) - 1)
        if self.stack:
            self.stack.pop()

    def negate(self) -> bool:
        count = 1
        while self.peek() == "!" and (self.peek(2) != "(" or self.peek(3) == "?"):
            self.advance()
            self.state.start += 1
            count += 1
        if count % 2 == 0:
            return False
        self.state.negated = True
        self.state.start += 1
        return True

    def push(self, tok: Token) -> None:
        prev, state = self.prev, self.state
        if prev.type == "globstar":
            is_brace = state.braces > 0 and tok.type in ("comma", "brace")
            is_extglob = tok.extglob or (bool(self.extglobs) and tok.type in ("pipe", "paren"))
            if tok.type not in ("slash", "paren") and not is_brace and not is_extglob:
                state.output = state.output[: -len(prev.output or "")]
                prev.type, prev.value, prev.output = "star", "*", STAR
                state.output += prev.output
        if self.extglobs and tok.type != "paren":
            self.extglobs[-1].inner += tok.value
        if tok.value or tok.output:
            self.append(tok)
        if prev.type == "text" and tok.type == "text":
            # The merged token gets the *value*, not the output: after a
            # backtrack rebuild, `a.{1..2}` compiles to `.[1-2]`.
            prev.value += tok.value
            prev.output = (prev.output or "") + tok.value
            return
        tok.prev = prev
        state.tokens.append(tok)
        self.prev = tok

    def extglob_open(self, type: str, value: str) -> None:
        _, open_, close = EXTGLOB_CHARS[value]
        ext = Extglob(type=type, close=close, prev=self.prev, parens=self.state.parens)
        self.increment("parens")
        self.push(Token(type, value, "" if self.state.output else ONE_CHAR))
        self.push(Token("paren", self.advance(), open_, extglob=True))
        self.extglobs.append(ext)

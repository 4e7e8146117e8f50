"""Decide ``[[ ]]``, ``[ ]`` and ``test`` from known values: True, False, or
None when the answer depends on something linkgate cannot know.

Decided: string (in)equality, ``[[ == ]]`` glob patterns (a quoted right side
is literal), ``=~`` (run on RE2, close to POSIX ERE for CI patterns),
``-n``/``-z``, integer comparisons, ``!``, ``&&``/``-a``, ``||``/``-o`` and
parentheses, with three-valued logic. File tests (``-f``, ``-d``, ...) and
anything about the runner stay undecided: the files may be made by CI itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from linkgate.workflows.shell.syntax import Lit, Word
from linkgate.userregex import RegexRefused, compile_user
from linkgate.workflows.shell.words import Scope, expand_joined, expand_pattern, glob_matches

Token = str | Word
_UNARY = {"-n", "-z", "-f", "-d", "-e", "-x", "-r", "-w", "-s", "-L", "-h", "-v", "-a", "-b", "-c", "-p",
          "-S", "-g", "-u", "-k", "-O", "-G", "-N", "-t", "-o"}
_BINARY = {"=", "==", "!=", "=~", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"}
_INT_OPS = {"-eq": int.__eq__, "-ne": int.__ne__, "-lt": int.__lt__, "-le": int.__le__, "-gt": int.__gt__,
            "-ge": int.__ge__}


def evaluate_test(tokens: Sequence[Token], double: bool, scope: Scope) -> bool | None:
    """Tokens are operator strings and operand words, in source order."""
    return _Parser(list(tokens), double, scope).run()


def from_words(words: Sequence[Word]) -> list[Token]:
    """``test a = b`` as tokens: unquoted literal operators become operators."""
    out: list[Token] = []
    for word in words:
        if len(word) == 1 and isinstance(word[0], Lit) and not word[0].quoted:
            text = word[0].text
            if text in _UNARY or text in _BINARY or text in ("!", "(", ")", "-a", "-o"):
                out.append(text)
                continue
        out.append(word)
    return out


class _Parser:
    def __init__(self, tokens: list[Token], double: bool, scope: Scope) -> None:
        self.tokens = tokens
        self.pos = 0
        self.double = double
        self.scope = scope

    def run(self) -> bool | None:
        if not self.tokens:
            return False
        try:
            value = self.or_()
        except IndexError:
            return None
        return value if self.pos == len(self.tokens) else None

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def or_(self) -> bool | None:
        value = self.and_()
        while self.peek() in ("||", "-o"):
            self.take()
            right = self.and_()
            value = True if value is True or right is True else (False if value is False and right is False else None)
        return value

    def and_(self) -> bool | None:
        value = self.not_()
        while self.peek() in ("&&", "-a"):
            self.take()
            right = self.not_()
            value = False if value is False or right is False else (True if value and right else None)
        return value

    def not_(self) -> bool | None:
        if self.peek() == "!" and self.pos + 1 < len(self.tokens):
            self.take()
            value = self.not_()
            return None if value is None else not value
        return self.primary()

    def primary(self) -> bool | None:
        token = self.take()
        if token == "(":
            value = self.or_()
            if self.peek() == ")":
                self.take()
            return value
        nxt = self.peek()
        if isinstance(token, str) and token in _UNARY and nxt is not None and not (
                isinstance(nxt, str) and nxt in _BINARY):
            return self.unary(token, self.operand(self.take()))
        if isinstance(nxt, str) and nxt in _BINARY:
            op = self.take()
            assert isinstance(op, str)
            return self.binary(token, op, self.take())
        text = self.operand(token)
        return None if text is None else text != ""

    def operand(self, token: Token) -> str | None:
        if isinstance(token, str):
            return token
        value = expand_joined(token, self.scope)
        return value.text if value.known else None

    def unary(self, op: str, value: str | None) -> bool | None:
        if value is None:
            return None
        if op == "-n":
            return value != ""
        if op == "-z":
            return value == ""
        return None

    def binary(self, left_token: Token, op: str, right_token: Token) -> bool | None:
        left = self.operand(left_token)
        if left is None:
            return None
        if op in ("==", "=", "!=") and self.double and not isinstance(right_token, str):
            pattern = expand_pattern(right_token, self.scope)
            if pattern is None:
                return None
            matched = glob_matches(pattern, left)
            if matched is None:
                return None
            return matched if op != "!=" else not matched
        right = self.operand(right_token)
        if right is None:
            return None
        if op in ("==", "="):
            return left == right
        if op == "!=":
            return left != right
        if op == "=~":
            # bash's ERE, run on RE2: `[[ $x =~ (a+)+b ]]` cannot backtrack for minutes.
            try:
                return compile_user(right).search(left)
            except RegexRefused:
                return None
        if op in ("<", ">"):
            return left < right if op == "<" else left > right
        if op in _INT_OPS:
            try:
                return bool(_INT_OPS[op](int(left), int(right)))
            except ValueError:
                return None
        return None

"""Walk a build script's tokens in order, keeping what each name holds.

The walk follows bindings the way the script runs them: ``const``/``static``
anywhere in the file, ``let`` and loop variables until their block closes,
``if let`` bindings inside their block, ``v.push(x)``/``v.extend(xs)`` onto
a list, closure parameters over their receiver. A call to a function of the
script itself (``add_c_files(&mut cfg, "libgit2/src")``, the shape libgit2-sys
and its kind use) walks that function's body with its parameters bound to the
call's arguments; a function no call reached is still walked once, with
unreadable parameters, so nothing in it goes unseen. Subclasses recognise
the calls that matter through :meth:`on_method` and :meth:`on_call`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from linkgate.rustlex import Token, closure_params, matching, skip_generics, split_top
from linkgate.surface.scriptexpr import Evaluator, Value, unresolved

_MAX_INLINE_DEPTH = 4
_MAX_INLINED = 500  # bodies walked per script: a bound on helpers calling helpers


@dataclass(frozen=True)
class Function:
    params: tuple[str | None, ...]  # None: a pattern parameter
    has_self: bool
    body: tuple[int, int]  # indices of its braces


@dataclass
class ScriptWalker:
    tokens: list[Token]
    ev: Evaluator
    history: list[tuple[str, Value, int]] = field(default_factory=list)  # every binding made
    scopes: list[list[tuple[str, Value | None]]] = field(default_factory=lambda: [[]])
    pending: dict[int, list[tuple[str, Value, int]]] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    walked: set[str] = field(default_factory=set)
    stack: list[str] = field(default_factory=list)
    inlined: int = 0

    def on_method(self, i: int, name: str, args: list[list[Token]]) -> None:
        """``.name(args)`` at token *i*."""

    def on_call(self, i: int, name: str, args: list[list[Token]]) -> None:
        """``a::b::name(args)`` starting at token *i*; *name* without ``std::``."""

    def walk_all(self) -> None:
        self._consts()
        self._consts()  # a const may name another declared below it
        t = self.tokens
        self.functions = _functions(t)
        self.walk(0, len(t))
        called = {t[i].text for i in range(1, len(t) - 1) if t[i + 1].text == "(" and t[i - 1].text != "fn"}
        # Entry points (main, and anything no call names) first: their calls bind the others' parameters.
        order = sorted(self.functions, key=lambda name: name in called)
        for name in order:
            if name not in self.walked:
                self.walked.add(name)
                fn = self.functions[name]
                self.walk(fn.body[0], fn.body[1] + 1)

    def walk(self, start: int, end: int) -> None:
        t = self.tokens
        i = start
        while i < end:
            tok = t[i]
            if tok.kind == "ident" and tok.text == "fn" and i + 1 < len(t) and t[i + 1].text in self.functions \
                    and self.functions[t[i + 1].text].body[0] > i:
                i = self.functions[t[i + 1].text].body[1] + 1  # walked when called, or at the end
                continue
            if tok.kind == "punct" and tok.text == "{":
                self.scopes.append([])
                for name, value, line in self.pending.pop(i, []):
                    self.bind(name, value, line)
            elif tok.kind == "punct" and tok.text == "}" and len(self.scopes) > 1:
                self._close_scope()
            elif tok.kind == "ident":
                self._ident(i)
            i += 1

    def _ident(self, i: int) -> None:
        t = self.tokens
        if t[i].text == "let":
            self._let(i)
        elif t[i].text == "for":
            self._for(i)
        elif i > 0 and t[i - 1].text == "." and i + 1 < len(t) and t[i + 1].text == "(":
            name, close = t[i].text, matching(t, i + 1)
            args = [a for a in split_top(t[i + 2:close], ",") if a]
            if not self._mutate(i, name, args) and not self._inline(name, args, method=True):
                self.on_method(i, name, args)
        elif (i == 0 or t[i - 1].text != "::") and i + 1 < len(t) and t[i + 1].text in ("::", "("):
            parts, j = [t[i].text], i + 1
            while j + 1 < len(t) and t[j].text == "::" and t[j + 1].kind == "ident":
                parts.append(t[j + 1].text)
                j += 2
            if j < len(t) and t[j].text == "(" and (i == 0 or t[i - 1].text != "fn"):
                args = [a for a in split_top(t[j + 1:matching(t, j)], ",") if a]
                name = "::".join(p for p in parts if p != "std")
                local = parts[-1] if len(parts) == 1 or parts[0] in ("Self", "self") else None
                if local is None or not self._inline(local, args, method=False):
                    self.on_call(i, name, args)

    # bindings -----------------------------------------------------------
    def bind(self, name: str, value: Value, line: int) -> None:
        self.scopes[-1].append((name, self.ev.bindings.get(name)))
        self.ev.bindings[name] = value
        self.history.append((name, value, line))

    def _close_scope(self) -> None:
        for name, old in reversed(self.scopes.pop()):
            if old is None:
                self.ev.bindings.pop(name, None)
            else:
                self.ev.bindings[name] = old

    def _consts(self) -> None:
        t = self.tokens
        for i, tok in enumerate(t):
            if tok.text in ("const", "static") and i + 2 < len(t):
                j = i + 1 + (t[i + 1].text == "mut")
                if j + 1 < len(t) and t[j].kind == "ident" and t[j + 1].text == ":":
                    eq, end = assignment(t, j + 1)
                    if eq is not None:
                        value = self.ev.evaluate(t[eq + 1:end]).with_origin(f"{tok.text} {t[j].text}")
                        if t[j].text not in self.ev.bindings or value.items:
                            self.ev.bindings[t[j].text] = value
                            self.history = [h for h in self.history if h[0] != t[j].text]
                            self.history.append((t[j].text, value, tok.line))

    def _let(self, i: int) -> None:
        t = self.tokens
        if i > 0 and t[i - 1].text in ("if", "while"):
            # `if let Ok(x) = expr {`: x lives in the block and holds what expr holds.
            eq = next((k for k in range(i + 1, len(t)) if t[k].text == "="), None)
            if eq is None:
                return
            body = _block_start(t, eq + 1)
            value = self.ev.evaluate(t[eq + 1:body])
            for tok in t[i + 1:eq]:
                if tok.kind == "ident" and tok.text[0].islower() and tok.text not in ("mut", "ref"):
                    self.pending.setdefault(body, []).append((tok.text, value, tok.line))
            return
        j = i + 1 + (i + 1 < len(t) and t[i + 1].text == "mut")
        if j + 1 >= len(t) or t[j].kind != "ident" or t[j + 1].text not in ("=", ":"):
            return
        eq, end = assignment(t, j + 1)
        if eq is not None:
            value = self.ev.evaluate(t[eq + 1:end])
            # A list's name says where a source came from; a single path's (`let root`) does not.
            self.bind(t[j].text, value.with_origin(f"let {t[j].text}") if len(value.items) > 1 else value, t[i].line)

    def _for(self, i: int) -> None:
        t = self.tokens
        k = i + 1
        while k < len(t) and t[k].text != "in":
            k += 1
        names = [x.text for x in t[i + 1:k] if x.kind == "ident" and x.text not in ("mut", "ref")]
        body = _block_start(t, k + 1)
        if len(names) == 1:
            self.pending.setdefault(body, []).append((names[0], self.ev.evaluate(t[k + 1:body]), t[i].line))

    def _mutate(self, i: int, name: str, args: list[list[Token]]) -> bool:
        """``v.push(x)``, ``v.extend(xs)``, ``xs.iter().for_each(|x| ...)``; True when handled."""
        t = self.tokens
        if name in ("push", "extend") and i >= 2 and t[i - 2].kind == "ident" and t[i - 2].text in self.ev.bindings:
            var = t[i - 2].text
            old = self.ev.bindings[var]
            if args and (old.items or not old.missing):  # an unreadable PathBuf stays unreadable
                value = old + self.ev.evaluate(args[0]).with_origin(f"let {var}")
                self.ev.bindings[var] = value
                self.history.append((var, value, t[i].line))
            return True
        if name in ("for_each", "map") and args and args[0][0].text in ("|", "move"):
            params, _ = closure_params(args[0])
            if params:
                self.bind(params[0], self.ev.evaluate(t[_statement_start(t, i - 1):i - 1]), t[i].line)
            return True
        return False

    def _inline(self, name: str, args: list[list[Token]], method: bool) -> bool:
        """Walk the body of the script's own function *name* with its parameters bound."""
        fn = self.functions.get(name)
        if fn is None or fn.has_self != method or name in self.stack or len(self.stack) >= _MAX_INLINE_DEPTH \
                or self.inlined >= _MAX_INLINED:
            return False
        self.inlined += 1
        values = [self.ev.evaluate(a) for a in args]
        self.walked.add(name)
        self.stack.append(name)
        self.scopes.append([])
        for k, param in enumerate(fn.params):
            if param is not None:
                self.bind(param, values[k] if k < len(values) else unresolved(f"{param} has no argument"), 0)
        try:
            self.walk(fn.body[0] + 1, fn.body[1])
        finally:
            self._close_scope()
            self.stack.pop()
        return True


def _functions(t: Sequence[Token]) -> dict[str, Function]:
    found: dict[str, Function] = {}
    for i, tok in enumerate(t):
        if tok.kind != "ident" or tok.text != "fn" or i + 2 >= len(t) or t[i + 1].kind != "ident":
            continue
        j = i + 2
        if t[j].text == "<":
            j = skip_generics(t, j)
        if j >= len(t) or t[j].text != "(":
            continue
        close = matching(t, j)
        body = close + 1
        while body < len(t) and t[body].text not in ("{", ";"):
            body = matching(t, body) + 1 if t[body].text in ("(", "[") else body + 1
        if body >= len(t) or t[body].text != "{":
            continue  # a declaration without a body (in a trait or extern block)
        params: list[str | None] = []
        has_self = False
        for part in _split_params(t[j + 1:close]):
            idents = [x for x in part if x.kind == "ident" and x.text not in ("mut", "ref")]
            if idents and idents[0].text == "self":
                has_self = True
            elif idents and part.index(idents[0]) + 1 < len(part) and part[part.index(idents[0]) + 1].text == ":":
                params.append(idents[0].text)
            else:
                params.append(None)
        found.setdefault(t[i + 1].text, Function(tuple(params), has_self, (body, matching(t, body))))
    return found


def _split_params(t: Sequence[Token]) -> list[list[Token]]:
    """Split a parameter list on commas outside brackets and ``<...>`` generics."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in t:
        if tok.kind == "punct" and tok.text in ("(", "[", "{", "<"):
            depth += 1
        elif tok.kind == "punct" and tok.text in (")", "]", "}", ">"):
            depth -= 1
        if depth == 0 and tok.text == ",":
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]


def _block_start(t: Sequence[Token], i: int) -> int:
    """Index of the ``{`` opening the block after a loop or ``if let`` head starting at *i*."""
    while i < len(t) and t[i].text != "{":
        i = matching(t, i) + 1 if t[i].text in ("(", "[") else i + 1
    return i


def _statement_start(t: Sequence[Token], i: int) -> int:
    """Where the expression ending just before *i* starts (a receiver chain)."""
    start, depth = i, 0
    while start > 0:
        prev = t[start - 1]
        if prev.text in (")", "]", "}"):
            depth += 1
        elif prev.text in ("(", "[", "{"):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and prev.text in (";", "=", ","):
            break
        start -= 1
    return start


def assignment(t: Sequence[Token], i: int) -> tuple[int | None, int]:
    """From a ``:`` or ``=`` after a name: (index of ``=``, index of the closing ``;``)."""
    depth, eq = 0, None
    for j in range(i, len(t)):
        text = t[j].text if t[j].kind == "punct" else ""
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return None, j
        elif depth == 0 and text == "=" and eq is None:
            eq = j
        elif depth == 0 and text == ";":
            return eq, j
    return eq, len(t)

"""Variables a build script binds with ``let``, read back where a condition uses them.

``let cuda = env::var_os("CUDA_HOME").is_some(); ... if cuda { ... }`` selects on
``CUDA_HOME`` as surely as the inline form; reading the binding's initializer in
place of the name lets one condition reader handle both.
"""

from __future__ import annotations

from linkgate.rustlex import Token

Bindings = dict[str, list[tuple[int, list[Token]]]]


def let_bindings(toks: list[Token]) -> Bindings:
    """``let [mut] name [: T] = expr;`` -> name -> [(position, expr tokens)]."""
    out: dict[str, list[tuple[int, list[Token]]]] = {}
    for k, tok in enumerate(toks):
        if not tok.is_("let"):
            continue
        j = k + 1 + (1 if k + 1 < len(toks) and toks[k + 1].is_("mut") else 0)
        if j >= len(toks) or toks[j].kind != "ident":
            continue
        name = toks[j].text
        eq = next((m for m in range(j + 1, min(j + 12, len(toks))) if toks[m].is_("=") or toks[m].is_(";")), None)
        if eq is None or not toks[eq].is_("="):
            continue
        depth, end = 0, eq + 1
        while end < len(toks) and not (depth == 0 and toks[end].is_(";")):
            if toks[end].kind == "punct" and toks[end].text in ("(", "[", "{"):
                depth += 1
            elif toks[end].kind == "punct" and toks[end].text in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    break
            end += 1
        out.setdefault(name, []).append((k, toks[eq + 1:end]))
    return out


_READS = frozenset({"var", "var_os", "option_env", "cfg"})
_NOT_CALLS = frozenset({"if", "while", "match", "matches", "return", "in"})


def substitute(toks: list[Token], lets: Bindings, at: int,
                depth: int = 0, scope: tuple[int, int] | None = None) -> list[Token]:
    """Replace a variable bound by ``let`` with its initializer, so ``if cuda`` reads like
    ``if env::var("CUDA").is_ok()``.

    Only a binding that reads the environment or a ``cfg!`` is substituted, the
    last one before *at* in the same function, and never inside a call's
    arguments: ``determine_mode(&libs)`` is not a condition on whatever ``libs``
    was computed from.
    """
    if depth > 2:
        return toks
    out: list[Token] = []
    calls: list[bool] = []     # for each open bracket: is it a call's argument list?
    for k, tok in enumerate(toks):
        prev = toks[k - 1] if k else None
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if tok.kind == "punct" and tok.text in ("(", "[", "{"):
            calls.append(tok.text == "(" and prev is not None and prev.kind == "ident"
                         and prev.text not in _NOT_CALLS)
        elif tok.kind == "punct" and tok.text in (")", "]", "}") and calls:
            calls.pop()
        bound = lets.get(tok.text) if tok.kind == "ident" and not any(calls) else None
        if bound and not (prev and (prev.is_(".") or prev.is_("::") or prev.is_("let"))) \
                and not (nxt and (nxt.is_("(") or nxt.is_("::") or nxt.is_("=") or nxt.is_("!"))):
            before = [b for b in bound if b[0] < at and (scope is None or scope[0] <= b[0] <= scope[1])]
            if before:
                pos, expr = before[-1]
                inner = substitute(expr, lets, pos, depth + 1, scope)
                if any(t.kind == "ident" and t.text in _READS for t in inner):
                    out += [Token("punct", "(", tok.line), *inner, Token("punct", ")", tok.line)]
                    continue
        out.append(tok)
    return out

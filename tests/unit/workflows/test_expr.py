from __future__ import annotations

from linkgate.workflows.expr import ExprContext, evaluate, substitute, substitute_plain


def test_matrix_env_literals_and_fallbacks() -> None:
    ctx = ExprContext(matrix={"f": "a,b", "cfg": {"name": "x"}, "n": None}, env={"E": "v"})
    assert evaluate(" matrix.f ", ctx) == "a,b"
    assert evaluate("matrix.cfg.name", ctx) == "x"
    assert evaluate("matrix['f']", ctx) == "a,b"
    assert evaluate("matrix.missing", ctx) == ""
    assert evaluate("matrix.n || 'dflt'", ctx) == "dflt"
    assert evaluate("env.E", ctx) == "v"
    assert evaluate("'it''s'", ctx) == "it's"
    assert evaluate("matrix.cfg", ctx) == '{"name": "x"}'


def test_unknown_expressions_become_placeholders_and_come_back() -> None:
    ctx = ExprContext(matrix=None)
    sub = substitute("cargo build --features ${{ matrix.f }} ${{ inputs.x }}", ctx)
    assert "${{" not in sub.text
    words = sub.text.split()
    assert [sub.restore(w) for w in words[3:]] == [
        ("${{ matrix.f }}", ["${{ matrix.f }}"]),
        ("${{ inputs.x }}", ["${{ inputs.x }}"]),
    ]


def test_env_unknown_and_plain_substitution() -> None:
    text, unknown = substitute_plain("x-${{ env.NOPE }}-${{ secrets.T }}", ExprContext())
    assert text == "x-${{ env.NOPE }}-${{ secrets.T }}"
    assert unknown == ["${{ env.NOPE }}", "${{ secrets.T }}"]

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


def test_if_conditions_follow_githubs_expression_rules() -> None:
    from linkgate.workflows.expr import condition

    ctx = ExprContext(matrix={"os": "Ubuntu-Latest", "n": 2, "lib": {"name": "boringssl"}}, env={"CI": "true"},
                      runner_os="Linux")
    decided = {
        "matrix.os == 'ubuntu-latest'": True,  # strings compare without case
        "${{ matrix.n > 1 && matrix.lib.name == 'boringssl' }}": True,
        "matrix.n == '2'": True,  # different types compare as numbers
        "!contains(matrix.os, 'mac')": True,
        "startsWith(matrix.os, 'windows') || endsWith(matrix.os, 'latest')": True,
        "runner.os == 'Windows'": False,
        "env.CI == 'true' && failure()": False,
        "always()": True,
        "matrix.missing": False,
        "format('{0}-{1}', matrix.os, matrix.n) == 'ubuntu-latest-2'": True,
        "github.event_name == 'push'": None,
        "github.event_name == 'push' || matrix.n == 2": True,
        "github.event_name == 'push' && matrix.n == 3": False,
        "env.UNSET == 'x'": None,
        "steps.build.outputs.ok": None,
        "matrix.os == ": None,
    }
    assert {text: condition(text, ctx) for text in decided} == decided
    assert condition(None, ctx) is True and condition("${{ false }}", ExprContext()) is False

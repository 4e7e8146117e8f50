"""env-from reads exports as bash does: checked against bash itself."""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkgate.ci import envfile

CASES = [
    "export A=plain",
    'export B="two words"',
    "export C='single $NOT expanded'",
    'export D="with = equals=and==more"',
    'export E="line one\nline two"',
    "export F=$'tab\\tand\\nnewline'",
    'G=unexported_but_assigned',
    'export H="quote \\" inside" I=second',
    "export J='it'\\''s'",
    'export K="$HOME/sub"',
    'export L=a\\ b',
    "declare -x M=\"declared\"",
    "export N=''",
    "# a comment line\nexport O=after_comment",
    'export P="${HOME}x"',
]


def bash_values(script: str, names: list[str]) -> dict[str, str]:
    """What bash holds after running *script*: NUL-separated so newlines survive."""
    probe = script + "\n" + "".join(f'printf "%s\\0" "${{{n}-__unset__}}"\n' for n in names)
    out = subprocess.run(["bash", "-c", probe], capture_output=True, check=True,
                         env={"HOME": "/home/runner", "PATH": "/usr/bin:/bin"}).stdout
    return dict(zip(names, out.decode().split("\0")[:-1], strict=True))


@pytest.mark.parametrize("script", CASES)
def test_parse_agrees_with_bash(script: str) -> None:
    parsed = envfile.parse(script, {"HOME": "/home/runner"})
    names = [a.name for a in parsed]
    assert names, script
    assert {a.name: a.value for a in parsed} == bash_values(script, names)


@pytest.mark.parametrize("script", CASES)
def test_round_trip_through_github_env(script: str) -> None:
    parsed = envfile.parse(script, {"HOME": "/home/runner"})
    back = envfile.read_github_env(envfile.render(parsed))
    assert back == {a.name: a.value for a in parsed}


def test_multiline_values_use_a_delimiter_absent_from_the_value() -> None:
    parsed = envfile.parse('export X="a\nghadelimiter_x\nb"')
    text = envfile.render(parsed)
    first = text.splitlines()[0]
    assert first.startswith("X<<ghadelimiter_")
    delim = first.split("<<", 1)[1]
    assert text.count(delim) == 2 and "ghadelimiter_x" in text


@pytest.mark.parametrize("bad,line", [
    ("echo hello", 1),
    ("export A=1\nnot an assignment", 2),
    ('export A="unterminated', 1),
    ("export A=${B:-default}", 1),
])
def test_what_bash_would_not_export_is_refused_with_its_line(bad: str, line: int) -> None:
    with pytest.raises(envfile.EnvSyntaxError) as err:
        envfile.parse(bad)
    assert err.value.line == line


values = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0\r"), max_size=30)


@settings(max_examples=300, deadline=None)
@given(values)
def test_any_value_quoted_by_bash_round_trips(value: str) -> None:
    # bash's own quoting (printf %q) is what `declare -p`/`export -p` style scripts print.
    quoted = subprocess.run(["bash", "-c", 'printf "export V=%q\\n" "$1"', "_", value],
                            capture_output=True, check=True).stdout.decode()
    parsed = envfile.parse(quoted)
    assert [(a.name, a.value) for a in parsed] == [("V", value)]
    assert envfile.read_github_env(envfile.render(parsed)) == {"V": value}

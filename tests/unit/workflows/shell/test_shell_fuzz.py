"""No shell text, however broken, makes the evaluator raise or run away."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.shell import Val, evaluate

WORDS = ["cargo", "cross", "test", "build", "--features", "a,b", "$1", '"$@"', "${X:-d}", "${X%%-*}", "$(uname)",
         "`pwd`", "$((1+2))", "${a[@]}", "'q x'", '"d $Y"', "$LGEXPR0X", "LGEXPR1X", "~/x", "*", "\\", "=",
         "${#}", "${!x}", "${x/a/b}", "${x:0:2}", "$$", "$?", ";", "&&", "||", "|", "(", ")", "{", "}", "<<EOF"]
STATEMENTS = [
    "{w}", "X={w}", "export X={w}", "local X={w}", "f() {{ {w}; }}", "f {w}", "if [[ {w} == {w} ]]; then {w}; fi",
    "case {w} in {w}) {w} ;; *) {w} ;; esac", "for v in {w} {w}; do {w}; done", "( cd {w} && {w} )",
    "while {w}; do {w}; done", "{w} | {w}", "{w} || {w}", "source {w}", "bash -c '{w}'", "eval {w}", "shift",
    "set -- {w}", "cd {w}", "pushd {w}", "popd", "./ci/s.sh {w}", "make {w}", "return", "exit", "break",
    "cat <<EOF\n{w}\nEOF", "[ -n {w} ] && {w}", "test {w} = {w}", "arr=({w} {w})", "arr+=({w})", "unset X",
    "docker run -e A={w} img {w}", "env A={w} {w}", "{w} \\\n  {w}",
]


@st.composite
def scripts(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        template = draw(st.sampled_from(STATEMENTS))
        lines.append(template.replace("{w}", draw(st.sampled_from(WORDS)), 1).replace(
            "{w}", " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4)))))
    if draw(st.booleans()):
        lines.append(draw(st.text(max_size=40)))
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=scripts(), args=st.lists(st.sampled_from(["cargo", "x86_64", "", "$Z"]), max_size=3))
def test_any_script_evaluates_without_raising(tmp_path: Path, text: str, args: list[str]) -> None:
    (tmp_path / "ci").mkdir(exist_ok=True)
    (tmp_path / "ci" / "s.sh").write_text("cargo test \"$@\"\n./ci/s.sh again\n")
    (tmp_path / "Makefile").write_text("a:\n\t$(MAKE) a\n\tcargo build\n")
    ev = evaluate(text, "w.yml", 1, {"X": "1"}, host=RepoHost(tmp_path),
                  exprs=[Val("v"), Val("${{ e }}", ("${{ e }}",))],
                  args=[Val(a, (a,)) if a.startswith("$") else Val(a) for a in args])
    assert all(c.line >= 1 for c in ev.commands)
    assert ev.steps <= 20_001

"""Value bombs and regex bombs in CI shell: every value is capped (a capped value
is unknown, with a note), every pattern runs on RE2; the command stays, named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.pwsh import to_bash
from linkgate.workflows.shell import Evaluator, evaluate
from linkgate.workflows.shell.words import MAX_STRIP, MAX_VALUE


def run(script: str, repo: Path | None = None) -> Evaluator:
    return evaluate(script, "s.sh", 1, {}, host=RepoHost(repo) if repo is not None else None)


def notes(ev: Evaluator) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in ev.problems]


@pytest.mark.timeout(20)
def test_doubling_sixty_four_times_is_capped_with_a_note_and_the_command_kept() -> None:
    ev = run("x=ab\n" + "x=$x$x\n" * 64 + "cargo build --features $x\n")
    (cmd,) = ev.commands
    assert cmd.argv[:3] == ("cargo", "build", "--features") and cmd.unknown
    # 2 * 2**15 = 65536 fits; the 16th doubling (line 17) would pass the cap.
    assert notes(ev)[0] == (17, f"`$x$x` works on a value past {MAX_VALUE} characters; its value is unknown")


@pytest.mark.timeout(20)
@pytest.mark.parametrize("script", [
    'x=ab\n' + 'x="$x$x"\n' * 64,
    'x=ab\n' + 'x+=$x\n' * 64,
    'a=(ab)\n' + 'a+=("${a[@]}")\n' * 64,
    'x=abcd\n' + 'x=${x//?/$x}\n' * 6,
    'x=ab\n' + 'export x="$x$x$x$x"\n' * 40,
    'x=ab\n' + 'local_x() { x=$x$x; }\n' + 'local_x\n' * 64,
])
def test_every_growing_value_is_capped(script: str) -> None:
    ev = run(script + "cargo test\n")
    assert [c.argv for c in ev.commands if c.argv[0] == "cargo"] == [("cargo", "test")]
    assert any("its value is unknown" in m for _, m in notes(ev)), notes(ev)


def test_a_value_at_the_cap_is_kept_whole() -> None:
    ev = run(f"x={'a' * MAX_VALUE}\ncargo build $x\n")
    assert ev.commands[0].argv == ("cargo", "build", "a" * MAX_VALUE) and not ev.problems


@pytest.mark.timeout(20)
def test_a_strip_over_a_long_value_is_unknown_not_quadratic() -> None:
    ev = run("x=a\n" + "x=$x$x\n" * 13 + "cargo build ${x%%b*}\n")
    assert ev.commands[0].unknown == ("${x%%b*}",)
    assert notes(ev) == [(15, f"`${{x%%b*}}` works on a value past {MAX_STRIP} characters; its value is unknown")]


@pytest.mark.timeout(20)
def test_catastrophic_regex_in_a_test_is_decided_in_linear_time() -> None:
    x = "a" * 5000 + "c"
    ev = run(f"x={x}\nif [[ $x =~ (a+)+b ]]; then cargo build --features bomb; fi\ncargo test\n")
    assert [c.argv for c in ev.commands] == [("cargo", "test")]
    ev = run(f"x={x[:-1]}b\nif [[ $x =~ (a+)+b ]]; then cargo build --features bomb; fi\n")
    assert [c.argv for c in ev.commands] == [("cargo", "build", "--features", "bomb")]


@pytest.mark.timeout(20)
def test_a_regex_re2_cannot_run_leaves_the_test_undecided() -> None:
    # glibc's ERE takes a backreference (bash would match); RE2 cannot run it: undecided, both kept.
    ev = run("x=aa\nre='(a)\\1'\nif [[ $x =~ $re ]]; then cargo build; fi\n")
    assert [(c.argv, c.conditions != ()) for c in ev.commands] == [(("cargo", "build"), True)]


@pytest.mark.timeout(20)
def test_glob_patterns_on_long_values_stay_linear() -> None:
    x = "a" * 60000
    ev = run(f"x={x}\ncase $x in *a*a*a*a*a*a*b) cargo build --features no;; *) cargo test;; esac\n"
             f'[[ $x == *a*a*a*a*a*a*b ]] && cargo doc\n')
    assert [c.argv for c in ev.commands] == [("cargo", "test")]


@pytest.mark.timeout(20)
def test_powershell_doubling_is_capped_too() -> None:
    ev = evaluate(to_bash('$x = "ab"\n' + '$x = "$x$x"\n' * 64 + 'cargo build $x\n').text, "s.ps1")
    assert ev.commands[-1].argv[:2] == ("cargo", "build") and ev.commands[-1].unknown
    assert notes(ev)[0][1].endswith("its value is unknown")


@pytest.mark.timeout(20)
def test_makefile_variable_that_refers_to_itself(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("X = $(X)$(X)\nY := -O2\nY := $(Y) -g\nall:\n\tcargo build $(X) $(Y)\n")
    ev = run("make\n", tmp_path)
    cargo = [c for c in ev.commands if c.argv[0] == "cargo"]
    assert [c.argv for c in cargo] == [("cargo", "build", "$(X)$(X)", "-O2", "-g")]
    assert ("make variable X refers to itself; $(X) is unknown") in [m for _, m in notes(ev)]


@pytest.mark.timeout(20)
def test_makefile_variables_that_grow_tenfold_per_level(tmp_path: Path) -> None:
    lines = ["A = aaaaaaaaaa"] + [f"{chr(66 + i)} = " + f"$({chr(65 + i)})" * 10 for i in range(12)]
    (tmp_path / "Makefile").write_text("\n".join(lines) + "\nall:\n\tcargo test $(M)\n")
    ev = run("make\n", tmp_path)
    (cargo,) = [c for c in ev.commands if c.argv[0] == "cargo"]
    assert cargo.argv[:2] == ("cargo", "test") and len(" ".join(cargo.argv)) < 2 * MAX_VALUE
    assert any("expands past" in m for _, m in notes(ev))


def _npm_chain(repo: Path, depth: int) -> None:
    scripts = {f"s{i}": f"npm run s{i + 1}" for i in range(depth)}
    scripts[f"s{depth}"] = "cargo test --features deep"
    (repo / "package.json").write_text(json.dumps({"scripts": scripts}))


@pytest.mark.timeout(20)
def test_a_task_runner_chain_past_the_depth_bound_leaves_a_note(tmp_path: Path) -> None:
    _npm_chain(tmp_path, 12)
    ev = run("npm run s0\n", tmp_path)
    assert not [c for c in ev.commands if c.argv[0] == "cargo"]
    assert [m for _, m in notes(ev)] == ["calls nest deeper than 8; `npm run s8` not followed"]


@pytest.mark.timeout(20)
def test_a_make_chain_past_the_depth_bound_leaves_a_note(tmp_path: Path) -> None:
    rules = [f"t{i}:\n\t$(MAKE) t{i + 1}" for i in range(12)] + ["t12:\n\tcargo test"]
    (tmp_path / "Makefile").write_text("\n".join(rules) + "\n")
    ev = run("make t0\n", tmp_path)
    assert not [c for c in ev.commands if c.argv[0] == "cargo"]
    assert any(m.startswith("calls nest deeper than 8; `make t") for _, m in notes(ev)), notes(ev)


@pytest.mark.timeout(20)
def test_a_mixed_chain_past_the_depth_bound_leaves_a_note(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {
        "a": "yarn b", "b": "pnpm c", "c": "npm run d", "d": "just e", "z": "cargo test"}}))
    (tmp_path / "justfile").write_text("e:\n    make f\n")
    rules = ["f:\n\tnpm run g"] + [f"x{i}:\n\t$(MAKE) x{i + 1}" for i in range(6)] + ["x6:\n\tnpm run z"]
    (tmp_path / "Makefile").write_text("\n".join(rules).replace("npm run g", "$(MAKE) x0") + "\n")
    ev = run("npm run a\n", tmp_path)
    assert not [c for c in ev.commands if c.argv[0] == "cargo"]
    assert any(m.startswith("calls nest deeper than 8") for _, m in notes(ev)), notes(ev)

"""Class: value bombs. Strings that double in shell and PowerShell, Makefile
variables that refer to themselves or grow tenfold per level, task-runner chains
past the depth bound. Each is audited in bounded work (the 64 KiB value cap, the
8-call depth bound) and leaves an `unresolved` note naming what was not followed:
never a silent drop, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import run

CAP = "works on a value past 65536 characters; its value is unknown"
STRIP = "works on a value past 4096 characters; its value is unknown"
DEEP = "calls nest deeper than 8; "


def audit(sandbox: tuple[Path, Path], script: str, shell: str | None = None,
          files: dict[str, str] | None = None) -> tuple[int, list[str]]:
    outside, repo = sandbox
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    for name, text in (files or {}).items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    wf = repo / ".github" / "workflows"
    wf.mkdir(parents=True, exist_ok=True)
    body = "".join(f"          {line}\n" for line in script.splitlines())
    shell_line = f"        shell: {shell}\n" if shell else ""
    (wf / "ci.yml").write_text("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                               f"      - run: |\n{body}{shell_line}")
    result = run(["audit", "--repo", str(repo), "--format", "json"], repo, outside=outside, repo=repo)
    findings = json.loads(result.out)["findings"]
    return result.code, [f["message"] for f in findings if f["rule"] == "unresolved"]


def times(line: str, n: int) -> str:
    return "\n".join([line] * n)


SHELL = {
    "x=$x$x, 64 times": ("x=ab\n" + times("x=$x$x", 64), "`$x$x` " + CAP),
    'x="$x$x", 64 times': ("x=ab\n" + times('x="$x$x"', 64), "`$x$x` " + CAP),
    "x=${x}${x}": ("x=ab\n" + times("x=${x}${x}", 64), "`${x}${x}` " + CAP),
    "x+=$x": ("x=ab\n" + times("x+=$x", 64), "`x+=...` " + CAP),
    'x+="$x"': ("x=ab\n" + times('x+="$x"', 64), "`x+=...` " + CAP),
    "export x=$x$x": ("x=ab\n" + times("export x=$x$x", 64), "`$x$x` " + CAP),
    "declare x=$x$x": ("x=ab\n" + times("declare x=$x$x", 64), "`$x$x` " + CAP),
    "readonly x=$x$x": ("x=ab\n" + times("readonly x=$x$x", 64), "`$x$x` " + CAP),
    "eightfold": ("x=ab\n" + times("x=$x$x$x$x$x$x$x$x", 30), "`$x$x$x$x$x$x$x$x` " + CAP),
    "a+=(${a[@]})": ("a=(ab)\n" + times('a+=("${a[@]}")', 64), "`a=(...)` " + CAP),
    "a=(${a[@]} ${a[@]})": ("a=(ab)\n" + times('a=("${a[@]}" "${a[@]}")', 64), "`a=(...)` " + CAP),
    "${x//?/$x}": ("x=abcd\n" + times("x=${x//?/$x}", 6), "`${x//?/$x}` " + CAP),
    "${x//a/$x$x}": ("x=a\n" + times("x=${x//a/$x$x}", 20), "`${x//a/$x$x}` " + CAP),
    "for loop doubling": ("x=ab\nfor i in " + " ".join(map(str, range(40))) + "; do x=$x$x; done", "`$x$x` " + CAP),
    "function doubling": ("x=ab\ngrow() { x=$x$x; }\n" + times("grow", 64), "`$x$x` " + CAP),
    "echo substitution": ("x=ab\n" + times('x=$(echo "$x$x")', 64), "`$x$x` " + CAP),
    "${x:-a}${x:-a}": ("x=ab\n" + times("x=${x:-a}${x:-a}", 64), "`${x:-a}${x:-a}` " + CAP),
    "${x^^} after doubling": ("x=ab\n" + times("x=$x$x", 20) + "\ny=${x^^}", "`$x$x` " + CAP),
    "${x%%b*} on 8 KiB": ("x=a\n" + times("x=$x$x", 13) + "\ny=${x%%b*}", "`${x%%b*}` " + STRIP),
    "${x#*b} on 8 KiB": ("x=a\n" + times("x=$x$x", 13) + "\ny=${x#*b}", "`${x#*b}` " + STRIP),
    "${x%b*} on 8 KiB": ("x=a\n" + times("x=$x$x", 13) + "\ny=${x%b*}", "`${x%b*}` " + STRIP),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(SHELL))
def test_shell_values_are_capped_with_a_note(sandbox, name):
    script, note = SHELL[name]
    code, notes = audit(sandbox, script + "\ncargo build --features f")
    assert code == 0 and note in notes, notes


PWSH = {
    '$x = "$x$x"': ('$x = "ab"\n' + times('$x = "$x$x"', 64), "`${x}${x}` " + CAP),
    "$x += $x": ('$x = "ab"\n' + times("$x += $x", 64), "`${x}${x}` " + CAP),
    "$env:X doubling": ('$env:X = "ab"\n' + times('$env:X = "$env:X$env:X"', 64), "`${X}${X}` " + CAP),
    "names differing in case": ('$x = "ab"\n' + times('$X = "$x$X"', 64), "`${x}${x}` " + CAP),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(PWSH))
def test_powershell_values_are_capped_with_a_note(sandbox, name):
    script, note = PWSH[name]
    code, notes = audit(sandbox, script + "\ncargo build --features f", shell="pwsh")
    assert code == 0 and note in notes, notes


TENFOLD = "\n".join(["A = aaaaaaaaaa"] + [f"{chr(66 + i)} = " + f"$({chr(65 + i)})" * 10 for i in range(12)])
MAKE = {
    "X = $(X)$(X)": ("X = $(X)$(X)\nall:\n\tcargo build $(X)\n", "make variable X refers to itself; $(X) is unknown"),
    "X = ${X} more": ("X = ${X} more\nall:\n\tcargo build $(X)\n", "make variable X refers to itself; $(X) is unknown"),
    "X = $(Y), Y = $(X)": ("X = $(Y)\nY = $(X)\nall:\n\tcargo build $(X)\n",
                           "make variable X refers to itself; $(X) is unknown"),
    "tenfold per level": (TENFOLD + "\nall:\n\tcargo test $(M)\n",
                          "make variable D expands past 65536 characters; $(D) is unknown"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(MAKE))
def test_makefile_variables_are_bounded_with_a_note(sandbox, name):
    makefile, note = MAKE[name]
    code, notes = audit(sandbox, "make", files={"Makefile": makefile})
    assert code == 0 and note in notes, notes


def _scripts(runner: str) -> dict[str, str]:
    scripts = {f"s{i}": f"{runner} s{i + 1}" for i in range(12)}
    scripts["s12"] = "cargo test --features deep"
    return {"package.json": json.dumps({"scripts": scripts})}


CHAINS = {
    "npm run x 12 deep": ("npm run s0", _scripts("npm run"), DEEP + "`npm run s8` not followed"),
    "yarn x 12 deep": ("yarn s0", _scripts("yarn"), DEEP + "`yarn s8` not followed"),
    "pnpm x 12 deep": ("pnpm s0", _scripts("pnpm"), DEEP + "`pnpm s8` not followed"),
    "just 12 deep": ("just r0", {"justfile": "".join(f"r{i}:\n    just r{i + 1}\n" for i in range(12))
                                 + "r12:\n    cargo test --features deep\n"}, DEEP + "`just r8` not followed"),
    "$(MAKE) 12 deep": ("make t0", {"Makefile": "".join(f"t{i}:\n\t$(MAKE) t{i + 1}\n" for i in range(12))
                                    + "t12:\n\tcargo test --features deep\n"}, DEEP + "`make t8` not followed"),
    "cargo make 12 deep": ("cargo make t0", {"Makefile.toml": "".join(
        f'[tasks.t{i}]\ncommand = "cargo"\nargs = ["make", "t{i + 1}"]\n\n' for i in range(12))
        + '[tasks.t12]\ncommand = "cargo"\nargs = ["test", "--features", "deep"]\n'}, DEEP + "`cargo make t8` not followed"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(CHAINS))
def test_task_runner_chains_past_the_bound_leave_a_note(sandbox, name):
    step, files, note = CHAINS[name]
    code, notes = audit(sandbox, step, files=files)
    assert code == 0 and note in notes, notes


@pytest.mark.timeout(60)
def test_a_mixed_chain_past_the_bound_leaves_a_note(sandbox):
    files = {"package.json": json.dumps({"scripts": {"a": "yarn b", "b": "pnpm c", "c": "npm run d", "d": "just e",
                                                      "z": "cargo test --features deep"}}),
             "justfile": "e:\n    make f\n",
             "Makefile": "f:\n\t$(MAKE) x0\n" + "".join(f"x{i}:\n\t$(MAKE) x{i + 1}\n" for i in range(6))
             + "x6:\n\tnpm run z\n"}
    code, notes = audit(sandbox, "npm run a", files=files)
    assert code == 0 and any(n.startswith(DEEP) for n in notes), notes

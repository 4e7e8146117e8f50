from __future__ import annotations

from pathlib import Path

from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.shell import Evaluator, Val, evaluate
from linkgate.workflows.shell.state import MAX_PATHS


def run(script: str, env: dict[str, str] | None = None, args: tuple[str, ...] = (),
        repo: Path | None = None) -> Evaluator:
    host = RepoHost(repo) if repo is not None else None
    return evaluate(script, "s.sh", 10, env or {}, host=host, args=[Val(a) for a in args])


def cmds(script: str, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> list[tuple[int, tuple[str, ...], str]]:
    return [(c.line, c.argv, c.cwd) for c in run(script, env, args).commands]


def test_chains_pipes_and_lines() -> None:
    script = "set -e\ncd crates/x && cargo check; echo ok || true\ncargo build | tee log\n"
    assert cmds(script) == [
        (11, ("cargo", "check"), "crates/x"),
        (12, ("cargo", "build"), "crates/x"),
        (12, ("tee", "log"), "crates/x"),
    ]


def test_leading_blank_lines_keep_words_and_lines_whole() -> None:
    # tree-sitter's program node starts at the first token: words are cut from the whole text.
    assert cmds("\n\n  \ncargo build --features 'a b'\n") == [(13, ("cargo", "build", "--features", "a b"), "")]


def test_continuations_report_the_line_of_the_command_word() -> None:
    script = "echo start && \\\n  cargo test \\\n    --no-run \\\n    --features a\nA=1 \\\n  B=2 \\\n  cargo doc\n"
    ev = run(script)
    assert [(c.line, c.argv, c.env.get("B")) for c in ev.commands] == [
        (11, ("cargo", "test", "--no-run", "--features", "a"), None),
        (16, ("cargo", "doc"), "2"),
    ]


def test_quotes_comments_and_heredocs_are_not_commands() -> None:
    script = 'echo "two\nlines" # cargo build\ncat <<EOF\ncargo build --hidden\nEOF\ncargo doc\n'
    assert cmds(script) == [(12, ("cat",), ""), (15, ("cargo", "doc"), "")]


def test_bash_reading_a_heredoc_runs_it() -> None:
    assert cmds("bash <<EOF\ncargo test --features x\nEOF\n") == [(11, ("cargo", "test", "--features", "x"), "")]


def test_variables_expand_with_bash_word_splitting() -> None:
    script = ('FEATS="a b"\nexport FLAGS="--release --locked"\n'
              'cargo build $FLAGS --features "$FEATS" ${MISSING:-x} ${FEATS// /,} ${FLAGS%% *}\n')
    assert cmds(script)[-1][1] == (
        "cargo", "build", "--release", "--locked", "--features", "a b", "x", "a,b", "--release")
    assert cmds("cargo build --features '$FEATS'\n", {"FEATS": "a"})[0][1] == ("cargo", "build", "--features", "$FEATS")


def test_arrays() -> None:
    script = 'args=(--release)\nargs+=(--features "a b")\ncargo build "${args[@]}" ${args[0]}\n'
    assert cmds(script)[0][1] == ("cargo", "build", "--release", "--features", "a b", "--release")


def test_unknown_parts_are_kept_and_named() -> None:
    [c] = run("cargo build --features $X $(cat f)\n").commands[1:]
    assert c.argv == ("cargo", "build", "--features", "$X", "$(cat f)")
    assert c.unknown == ("$X", "$(cat f)")


def test_command_substitution_runs_its_body_and_knows_pure_output() -> None:
    ev = run('BIN=$(cargo test --no-run --message-format=json | jq -r .executable)\n'
             'cd "$(dirname "$0")/.." && cargo build\n', args=())
    assert [(c.argv[:2], c.cwd) for c in ev.commands] == [
        (("cargo", "test"), ""), (("jq", "-r"), ""), (("cargo", "build"), "")]
    ev = evaluate('cd "$(dirname "${BASH_SOURCE[0]}")/.." && cargo build\n', "ci/x.sh", 1, {})
    assert ev.commands[0].cwd_unknown  # BASH_SOURCE is set only for scripts run by path


def test_prefix_assignments_wrappers_and_redirections() -> None:
    [c] = run("RUSTFLAGS=-Cx sudo -E env A=1 timeout 30m nice -n 5 cargo test 2>&1 >/dev/null\n").commands
    assert c.argv == ("cargo", "test")
    assert c.env["RUSTFLAGS"] == "-Cx" and c.env["A"] == "1"
    [c] = run("rustup run nightly cargo miri test\n").commands
    assert c.argv == ("cargo", "+nightly", "miri", "test")


def test_only_exported_variables_reach_the_command() -> None:
    [c] = run("RUSTFLAGS=-Cx\nexport CARGO_TARGET_DIR=/t\ncargo build\n").commands
    assert "RUSTFLAGS" not in c.env and c.env["CARGO_TARGET_DIR"] == "/t"


def test_directory_changes() -> None:
    script = "pushd a\ncargo t\npopd\ncd b/../c\ncargo b\ncd $DIR\ncargo c\ncd $GITHUB_WORKSPACE/d\ncargo d\n"
    out = run(script).commands
    assert [(c.cwd, c.cwd_unknown) for c in out] == [("a", False), ("c", False), ("c", True), ("d", False)]
    assert out[2].unknown == ("cd to an unknown directory",)


def test_subshell_and_pipeline_do_not_leak_cd_or_variables() -> None:
    script = "(cd a && X=1 && cargo t)\ncd b | cat\nY=2 | cat\ncargo b --features \"$X$Y\"\n"
    assert cmds(script) == [(10, ("cargo", "t"), "a"), (11, ("cat",), ""), (12, ("cat",), ""),
                            (13, ("cargo", "b", "--features", ""), "")]


def test_positional_parameters_shift_and_defaults() -> None:
    script = 'TOOL=${1:-cargo}\nshift\n$TOOL test --target "$1" "$@"\necho $#\n${9:-cross} build\n'
    assert [c.argv for c in run(script, args=("", "t1", "--x")).commands] == [
        ("cargo", "test", "--target", "t1", "t1", "--x"),
        ("cross", "build"),
    ]


def test_function_runs_per_call_with_local_scope() -> None:
    script = ("v=outer\nf() {\n  local v=$1\n  cargo build --features $v\n  return\n  cargo never\n}\n"
              "f a\nf b\ncargo check --features $v\n")
    assert cmds(script) == [
        (13, ("cargo", "build", "--features", "a"), ""),
        (13, ("cargo", "build", "--features", "b"), ""),
        (19, ("cargo", "check", "--features", "outer"), ""),
    ]


def test_decided_conditions_take_one_branch() -> None:
    script = ('if [[ "$LIB" == boring* && -n "$LIB" ]]; then f=boring\nelif [ "$LIB" = x ]; then f=x\n'
              'else f=other; fi\ntest -z "$UNSET_HERE" && cargo test --features "$f"\n[[ $LIB != boringssl ]] || cargo doc\n'
              'UNSET_HERE=1\n')
    assert [(c.argv, c.conditions) for c in run(script, {"LIB": "boringssl"}).commands] == [
        (("cargo", "test", "--features", "boring"), ()),
        (("cargo", "doc"), ()),
    ]
    assert [c.argv[-1] for c in run(script, {"LIB": "x"}).commands] == ["x"]


def test_undecided_conditions_fork_into_conditional_alternatives() -> None:
    script = 'if [ -f Cargo.lock ]; then feats=locked; else feats=fresh; fi\ncargo build --features "$feats"\ncargo fmt\n'
    ev = run(script)
    assert [(c.argv, c.conditions) for c in ev.commands] == [
        (("cargo", "build", "--features", "locked"), ("s.sh:10 if taken",)),
        (("cargo", "build", "--features", "fresh"), ("s.sh:10 if not taken",)),
        (("cargo", "fmt"), ()),  # runs on every path: unconditional again
    ]


def test_or_keeps_its_right_side_conditional_and_and_assumes_success() -> None:
    ev = run("command -v cross || cargo install cross\ncargo build && cargo test\n")
    assert [(c.argv[:2], bool(c.conditions)) for c in ev.commands] == [
        (("cargo", "install"), True), (("cargo", "build"), False), (("cargo", "test"), False)]


def test_case_with_glob_alternatives() -> None:
    script = 'case "$T" in\n  x86_64-*|i686-*) cargo test ;;\n  "aarch64"*) cross test ;;\n  *) cargo check ;;\nesac\n'
    assert [c.argv for c in run(script, {"T": "aarch64-linux"}).commands] == [("cross", "test")]
    assert [c.argv for c in run(script, {"T": "i686-pc"}).commands] == [("cargo", "test")]
    assert [c.argv for c in run(script, {"T": "riscv"}).commands] == [("cargo", "check")]
    unknown = run(script).commands
    assert [(c.argv, len(c.conditions)) for c in unknown] == [
        (("cargo", "test"), 1), (("cross", "test"), 2), (("cargo", "check"), 2)]


def test_for_over_a_literal_list_and_over_unknown_values() -> None:
    script = "for f in a 'b c' d; do\n  [ \"$f\" = d ] && break\n  cargo check --features \"$f\"\ndone\n"
    assert [c.argv[-1] for c in run(script).commands] == ["a", "b c"]
    [c] = run("for t in $TARGETS; do cargo build --target $t; done\n").commands
    assert c.argv == ("cargo", "build", "--target", "$TARGETS") and c.conditions


def test_bash_c_eval_and_scripts(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "lib.sh").write_text("FEATS=from-lib\nrun_it() { cargo test --features $FEATS \"$@\"; }\n")
    (tmp_path / "ci" / "go").write_text("#!/bin/sh\ncargo build --target $1\n")
    script = ('source ci/lib.sh\nrun_it --no-run\nbash -c "cargo doc --features $FEATS"\n'
              'eval "cargo check"\nci/go t1\n. ./ci/missing.sh\n./target/release/app\n')
    ev = run(script, repo=tmp_path)
    assert [(c.file, c.line, c.argv) for c in ev.commands] == [
        ("ci/lib.sh", 2, ("cargo", "test", "--features", "from-lib", "--no-run")),
        ("s.sh", 12, ("cargo", "doc", "--features", "from-lib")),
        ("s.sh", 13, ("cargo", "check")),
        ("ci/go", 2, ("cargo", "build", "--target", "t1")),
        ("s.sh", 15, (".", "./ci/missing.sh")),
        ("s.sh", 16, ("./target/release/app",)),
    ]
    assert [(p.line, p.message, p.cargo) for p in ev.problems] == [
        (15, "script ci/missing.sh is not in the repository; not followed", True)]


def test_make_recipes_run_in_their_own_shells(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(
        "CARGO ?= cargo\nverify: lint\n\tcd sub && $(CARGO) test --no-run\n\t$(CARGO) build\nlint:\n\t@$(CARGO) clippy\n"
        "again:\n\t$(MAKE) lint\n")
    ev = run("make verify again\n", repo=tmp_path)
    assert [(c.file, c.line, c.argv, c.cwd, c.via[-1]) for c in ev.commands] == [
        ("Makefile", 6, ("cargo", "clippy"), "", "Makefile:6 (lint)"),
        ("Makefile", 3, ("cargo", "test", "--no-run"), "sub", "Makefile:3 (verify)"),
        ("Makefile", 4, ("cargo", "build"), "", "Makefile:4 (verify)"),  # each recipe line: a fresh shell
    ]


def test_bounds_stop_runaway_scripts() -> None:
    forks = "".join(f'if [ -f f{i} ]; then v{i}=1; fi\n' for i in range(12))
    ev = run(forks + "cargo build\n")
    assert [c.argv for c in ev.commands] == [("cargo", "build")]  # 4096 paths widened to <= MAX_PATHS
    assert MAX_PATHS <= 32
    ev = run("f() { f; cargo x; }\nf\n")
    assert any("deeper" in p.message for p in ev.problems)
    ev = run("for i in $(seq 100); do for j in 1 2 3 4 5 6 7 8 9; do echo $i $j; done; done\n")
    assert ev.problems == []


def test_unparsable_shell_near_cargo_is_a_problem() -> None:
    ev = run("echo ok\nif then fi ((( cargo test\n")
    assert [c.argv for c in ev.commands] == [] and [(p.line, p.cargo) for p in ev.problems] == [(11, True)]
    assert run("if then fi ((( make\n").problems == []


def test_prefix_env_and_containers_reach_the_script(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "run.sh").write_text(
        '#!/bin/sh\nif [ -z "$NO_RUN" ]; then cargo test --target $TARGET; fi\ncargo build --target $TARGET\n')
    script = ("TARGET=t1 ./ci/run.sh\n"
              "docker run --rm -w /src -v `pwd`:/src -e TARGET=t2 -e NO_RUN=1 rust sh ci/run.sh\n")
    ev = run(script, repo=tmp_path)
    assert [(c.argv, bool(c.conditions)) for c in ev.commands] == [
        (("cargo", "test", "--target", "t1"), True),  # NO_RUN comes from outside: unknown
        (("cargo", "build", "--target", "t1"), False),
        (("cargo", "build", "--target", "t2"), False),
    ]


def test_arithmetic_over_known_integers() -> None:
    [c] = run("N=4\ncargo test -j $((N * 2)) --x $(( 1 << 20 )) --y $((N / 3)) --z $((M + 1))\n").commands
    assert c.argv == ("cargo", "test", "-j", "8", "--x", "1048576", "--y", "1", "--z", "$((M + 1))")


def test_the_line_is_the_program_words_line_after_wrappers_and_continuations() -> None:
    script = "env RUSTFLAGS=-Cx \\\n  cargo build\nsudo -E \\\n  timeout 5m \\\n    cargo test\n"
    assert [(c.line, c.argv) for c in run(script).commands] == [(11, ("cargo", "build")), (14, ("cargo", "test"))]


def test_here_documents_fed_to_bash_run_quoted_or_not() -> None:
    script = "F=a\nbash <<'EOF'\ncargo test --features \"$F\"\nEOF\nbash -s <<EOF\ncargo build --features $F\nEOF\ncat <<'EOF'\ncargo doc\nEOF\n"
    assert [(c.line, c.argv) for c in run(script).commands] == [
        (12, ("cargo", "test", "--features", "")),  # quoted: the child bash reads $F, which is not exported
        (15, ("cargo", "build", "--features", "a")),
        (17, ("cat",)),
    ]


def test_set_options_and_the_script_directory_idiom(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "t.sh").write_text(
        '#!/bin/bash\nset -euo pipefail\nset -o errexit\nDIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n'
        'cd "$DIR/.."\ncargo test --target "$1"\nset -- x y\ncargo build --target "$2"\n')
    ev = run("./ci/t.sh t1\n", repo=tmp_path)
    assert [(c.argv, c.cwd, c.cwd_unknown) for c in ev.commands] == [
        (("cargo", "test", "--target", "t1"), "", False), (("cargo", "build", "--target", "y"), "", False)]


def test_a_pattern_inside_double_quotes_is_still_a_pattern() -> None:
    # bash: x=i686-pc-windows-gnu; "${x#i?86-}" is pc-windows-gnu; quotes inside the pattern stay literal.
    script = ('case "${T#i?86-}" in pc-*) cargo test --target "$T" ;; *) exit 1 ;; esac\n'
              'cargo "${T%%-*}" "${T/#i?86/x}" "${T#"i?86"}"\n')
    assert cmds(script, {"T": "i686-pc-windows-gnu"}) == [
        (10, ("cargo", "test", "--target", "i686-pc-windows-gnu"), ""),
        (11, ("cargo", "i686", "x-pc-windows-gnu", "i686-pc-windows-gnu"), ""),
    ]


def test_other_ci_systems_variables_are_unset_on_github() -> None:
    # A script shared with Travis: GitHub's runner never sets TRAVIS, so no fork.
    script = 'if [ "$TRAVIS" = "true" ]; then export TERM=dumb; fi\ncargo test\n'
    evaluated = run(script)
    assert [(c.argv, c.conditions) for c in evaluated.commands] == [(("cargo", "test"), ())]
    # A variable of unknown origin still forks: it may come from a self-hosted runner.
    evaluated = run('if [ "$GPU_HOST" = "true" ]; then export RUSTFLAGS=-g; fi\ncargo test\n')
    assert len(evaluated.commands) == 2


def test_a_captured_pipeline_through_tr_or_cat_is_computed() -> None:
    script = ('get_args() {\n  local f="runtime extra"\n  echo "--features $(echo $f | tr \' \' \',\')"\n}\n'
              'ARGS=`get_args`\ncargo test $ARGS\ncargo check --features "$(echo a b | cat)"\n'
              'cargo build --features "$(echo a | sed s/a/b/)"\n')
    ev = evaluate(script, "ci/test.sh", 1, {})
    cargo = [c for c in ev.commands if c.argv[0] == "cargo"]
    assert [c.argv[1:] for c in cargo[:2]] == [("test", "--features", "runtime,extra"), ("check", "--features", "a b")]
    # Any other stage (sed) leaves the value unknown, as before.
    assert cargo[2].unknown == ('$(echo a | sed s/a/b/)',)


def test_one_line_met_on_alternative_paths_is_one_run() -> None:
    # The paths of an undecided `if` are alternatives of one run: the cargo line after it runs
    # once, whatever each branch exported, unless a variable cargo or rustc reads differs.
    script = ('if [[ "$OSTYPE" == linux* ]]; then export OS=linux A=1\n'
              'elif [[ "$OSTYPE" == darwin* ]]; then export OS=mac\nelse exit 1\nfi\ncargo test\n')
    [cmd] = run(script).commands
    assert (cmd.argv, cmd.conditions) == (("cargo", "test"), ())
    assert "OS" not in cmd.env and "A" not in cmd.env
    split = run('if [ "$X" = 1 ]; then export CARGO_TARGET_DIR=/a; fi\ncargo test\n').commands
    assert sorted(c.env.get("CARGO_TARGET_DIR", "") for c in split) == ["", "/a"]


def test_each_pass_of_a_for_loop_is_a_run_of_its_own() -> None:
    # Two passes run the same line twice (two runs); the two paths of an `if` inside one pass
    # stay one run.
    script = 'for i in 1 2; do\n  if [ "$X" = 1 ]; then export A=1; fi\n  cargo test\ndone\ncargo build\n'
    assert [c.argv for c in run(script).commands] == [("cargo", "test"), ("cargo", "test"), ("cargo", "build")]


def test_for_expands_pathname_patterns_in_the_repository(tmp_path: Path) -> None:
    (tmp_path / "fuzz" / "targets").mkdir(parents=True)
    for name in ("b.rs", "a.rs", ".hidden.rs", "notes.txt"):
        (tmp_path / "fuzz" / "targets" / name).write_text("")
    script = ('cd fuzz\nfor f in targets/*.rs; do cargo fuzz run "$(basename "$f" .rs)"; done\n'
              'for f in "targets/*.rs"; do echo "$f"; cargo check --features "$f"; done\n'
              'for f in targets/*.none; do cargo build --bin "$f"; done\n')
    got = [c.argv[2:] for c in run(script, repo=tmp_path).commands]
    # Sorted, no dot file; a quoted pattern is a word; no match keeps the word, as bash does.
    assert got == [("run", "a"), ("run", "b"), ("--features", "targets/*.rs"), ("--bin", "targets/*.none")]


def test_pathname_patterns_that_reach_outside_the_repository_are_unknown(tmp_path: Path) -> None:
    inside = tmp_path / "repo"
    (inside / "d").mkdir(parents=True)
    (tmp_path / "secret.rs").write_text("")
    (inside / "d" / "link.rs").symlink_to(tmp_path / "secret.rs")
    for pattern in ("d/*.rs", "../*.rs", "/usr/lib/*.so"):
        [c] = run(f"for f in {pattern}; do cargo build --bin $f; done\n", repo=inside).commands
        assert c.unknown, pattern
    for name in ("a", "b"):
        (inside / "e" / name).mkdir(parents=True)
    [(c1), (c2)] = run("for d in /github/workspace/e/*; do cargo test --manifest-path $d/Cargo.toml; done\n",
                       repo=inside).commands
    assert (c1.argv[-1], c2.argv[-1]) == ("/github/workspace/e/a/Cargo.toml", "/github/workspace/e/b/Cargo.toml")


def test_basename_removes_a_suffix_as_posix_says() -> None:
    got = [c.argv[-1] for c in run('cargo run --bin "$(basename src/bin/x.rs .rs)"\n'
                                   'cargo run --bin "$(basename a/.rs .rs)"\ncargo run --bin "$(basename a/b/)"\n').commands]
    assert got == ["x", ".rs", "b"]


def test_while_getopts_runs_once_per_option_of_known_arguments() -> None:
    script = ('features=""\nrel=""\nwhile getopts f:rx OPT; do\n  case $OPT in\n    f) features=${OPTARG} ;;\n'
              '    r) rel=--release ;;\n    \\?) exit 1 ;;\n  esac\ndone\nshift $((OPTIND - 1))\n'
              'cargo build $rel --features "$features" "$@"\n')
    [c] = run(script, args=("-r", "-f", "a b", "--", "--locked")).commands
    assert c.argv == ("cargo", "build", "--release", "--features", "a b", "--locked")
    [c] = run(script, args=("-fc",)).commands
    assert c.argv == ("cargo", "build", "--features", "c")
    # An unknown option takes the `\\?` branch: the script exits, nothing runs.
    assert run(script, args=("-z",)).commands == []


def test_cargo_or_cross_chosen_on_an_undecided_path_is_one_run() -> None:
    script = 'if [ "$T" = "$(rustc -vV)" ]; then C=cargo; else C=cross; fi\n"$C" build --release\n'
    [c] = run(script).commands
    assert c.argv[1:] == ("build", "--release") and c.argv[0] in ("cargo", "cross")


def test_powershell_command_of_a_plain_line_runs_it() -> None:
    script = ('B=cargo\npowershell.exe -command "$B test --locked --target=x86_64-pc-windows-msvc"\n'
              'pwsh -c "cargo build; Write-Host $env:X"\n')
    got = [c.argv for c in run(script).commands]
    # The second line is PowerShell syntax (`;`, `$env:`): not read as a command line here.
    assert got[0] == ("cargo", "test", "--locked", "--target=x86_64-pc-windows-msvc")
    assert all(a[0] != "cargo" or a[1] != "build" for a in got[1:])

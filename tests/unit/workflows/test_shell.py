from __future__ import annotations

from linkgate.workflows.shell import split_commands


def cmds(script: str, env: dict[str, str] | None = None) -> list[tuple[int, tuple[str, ...], str]]:
    return [(c.line, c.argv, c.cwd) for c in split_commands(script, 10, env or {})]


def test_chains_and_lines() -> None:
    script = "set -e\ncd crates/x && cargo check; echo ok || true\ncargo build | tee log\n"
    assert cmds(script) == [
        (10, ("set", "-e"), ""),
        (11, ("cargo", "check"), "crates/x"),
        (11, ("echo", "ok"), "crates/x"),
        (11, ("true",), "crates/x"),
        (12, ("cargo", "build"), "crates/x"),
        (12, ("tee", "log"), "crates/x"),
    ]


def test_backslash_continuation_reports_the_line_of_the_command_word() -> None:
    script = "echo start && \\\n  cargo test \\\n    --no-run \\\n    --features a\n"
    assert cmds(script) == [(10, ("echo", "start"), ""), (11, ("cargo", "test", "--no-run", "--features", "a"), "")]


def test_quotes_across_lines_comments_and_heredocs() -> None:
    script = 'echo "two\nlines" # cargo build\ncat <<EOF\ncargo build --hidden\nEOF\ncargo doc\n'
    assert cmds(script) == [(10, ("echo", "two\nlines"), ""), (12, ("cat",), ""), (15, ("cargo", "doc"), "")]


def test_variables_expand_with_bash_word_splitting() -> None:
    script = 'FEATS="a b"\nexport FLAGS="--release --locked"\ncargo build $FLAGS --features "$FEATS" ${MISSING:-x}\n'
    assert cmds(script)[-1][1] == ("cargo", "build", "--release", "--locked", "--features", "a b", "x")
    single = cmds("cargo build --features '$FEATS'\n", {"FEATS": "a"})
    assert single[0][1] == ("cargo", "build", "--features", "$FEATS")


def test_unknown_parts_are_kept_and_listed() -> None:
    [c] = split_commands("cargo build --features $X $(cat f)\n", 1, {})
    assert c.argv == ("cargo", "build", "--features", "$X", "$(cat f)")
    assert c.unknown == ("$X", "$(cat f)")


def test_prefix_assignment_wrappers_and_redirections() -> None:
    [c] = split_commands("RUSTFLAGS=-Cx sudo -E env A=1 cargo test 2>&1 >/dev/null\n", 1, {})
    assert c.argv == ("cargo", "test")
    assert c.env == {"RUSTFLAGS": "-Cx", "A": "1"}


def test_directory_changes() -> None:
    script = "pushd a\ncargo t\npopd\ncd b/../c\ncargo b\ncd $DIR\ncargo c\n"
    out = split_commands(script, 1, {})
    assert [(c.cwd, c.cwd_unknown) for c in out] == [("a", False), ("c", False), ("c", True)]


def test_control_keywords_are_stripped() -> None:
    script = "if true; then\n  cargo clippy\nfi\nfor f in a b; do cargo check --features $f; done\n"
    argvs = [c.argv for c in split_commands(script, 1, {})]
    assert ("cargo", "clippy") in argvs
    assert ("cargo", "check", "--features", "$f") in argvs

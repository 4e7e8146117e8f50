from __future__ import annotations

from pathlib import Path

from linkgate.workflows.indirect import follow_make, follow_script, parse_makefile

MAKEFILE = """\
CARGO ?= cargo
FEATS := a,b
FEATS += c
export RUSTFLAGS = -Dwarnings

all: verify

verify: lint build
\t$(CARGO) test --no-run \\
\t  --features $(FEATS)
lint:
\t@-$(CARGO) clippy -- -D warnings
build: ; cargo build --release
ci:
\t$(MAKE) lint
\tcd sub && cargo doc
\techo $$HOME $(shell nproc)
"""


def test_parse_variables_rules_and_default_goal() -> None:
    mk = parse_makefile(MAKEFILE, "Makefile")
    assert mk.default == "all"
    assert mk.variables["FEATS"] == "a,b c"
    assert mk.rules["verify"].prereqs == ["lint", "build"]
    assert mk.rules["build"].recipe == [(13, "cargo build --release")]


def test_follow_make_reaches_recipe_lines_with_their_lines(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    out = follow_make(tmp_path, "", ("make", "verify", "ci"), {})
    assert [(r.file, r.command.line, r.command.argv, r.command.cwd) for r in out.reached] == [
        ("Makefile", 12, ("cargo", "clippy", "--", "-D", "warnings"), ""),
        ("Makefile", 13, ("cargo", "build", "--release"), ""),
        ("Makefile", 9, ("cargo", "test", "--no-run", "--features", "a,b", "c"), ""),
        ("Makefile", 16, ("cargo", "doc"), "sub"),
        ("Makefile", 17, ("echo", "$HOME", "$(shell nproc)"), ""),
    ]
    assert out.problems == []


def test_make_dash_c_and_missing_targets(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("x:\n\tcargo check\n")
    out = follow_make(tmp_path, "", ("make", "-C", "sub", "x", "nope"), {})
    assert [(r.file, r.command.line, r.command.cwd) for r in out.reached] == [("sub/Makefile", 2, "sub")]
    assert out.problems == ["sub/Makefile: no target 'nope'"]
    assert follow_make(tmp_path, "", ("make", "x"), {}).problems == ["no Makefile in .; `make x` not followed"]


def test_scripts_by_path(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "build.sh").write_text("#!/bin/bash\nset -e\n\ncargo build --features \"$1\"\n")
    for argv in (("bash", "ci/build.sh", "a"), ("./ci/build.sh",), ("ci/build.sh",)):
        out = follow_script(tmp_path, "", argv, {})
        assert [(r.file, r.command.line, r.command.argv[:2]) for r in out.reached][-1] == (
            "ci/build.sh", 4, ("cargo", "build")
        )
    assert follow_script(tmp_path, "", ("bash", "../x.sh"), {}).problems

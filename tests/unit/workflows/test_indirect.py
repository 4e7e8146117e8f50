from __future__ import annotations

from pathlib import Path

from linkgate.workflows.indirect import RepoHost, parse_makefile

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
\techo $$HOME $(shell nproc) $(TOKEN)
"""


def test_parse_variables_rules_and_default_goal() -> None:
    mk = parse_makefile(MAKEFILE, "Makefile")
    assert mk.default == "all"
    assert mk.variables["FEATS"] == "a,b c"
    assert mk.rules["verify"].prereqs == ["lint", "build"]
    assert mk.rules["build"].recipe == [(13, "cargo build --release")]


def test_recipes_in_order_with_their_lines_once_per_goal(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    seen: set[tuple[str, str]] = set()
    recipes, problems = RepoHost(tmp_path).make_recipes(("make", "verify", "ci"), "", {"TOKEN": "t"}, seen)
    assert [(r.file, r.line, r.text, r.cwd, r.goal) for r in recipes] == [
        ("Makefile", 12, "cargo clippy -- -D warnings", "", "lint"),
        ("Makefile", 13, "cargo build --release", "", "build"),
        ("Makefile", 9, "cargo test --no-run \\\n  --features a,b c", "", "verify"),
        ("Makefile", 15, "make lint", "", "ci"),
        ("Makefile", 16, "cd sub && cargo doc", "", "ci"),
        ("Makefile", 17, "echo $HOME $(shell nproc) t", "", "ci"),
    ]
    assert problems == []
    # A recursive `$(MAKE) lint` asks again: lint already ran in this make.
    assert RepoHost(tmp_path).make_recipes(("make", "lint"), "", {}, seen) == ([], [])


def test_make_dash_c_missing_targets_and_missing_makefiles(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("x:\n\tcargo check\n")
    host = RepoHost(tmp_path)
    recipes, problems = host.make_recipes(("make", "-C", "sub", "-j", "4", "x", "nope"), "", {}, set())
    assert [(r.file, r.line, r.cwd) for r in recipes] == [("sub/Makefile", 2, "sub")]
    assert problems == [("sub/Makefile: no target 'nope'", True)]
    # A Makefile CI generates (./configure, cmake) runs a C build: reported, but as no cargo.
    assert host.make_recipes(("make", "x"), "", {}, set()) == (
        [], [("no Makefile in .; `make x` not followed", False)])


def test_scripts_are_read_once_and_only_inside_the_repository(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "build.sh").write_text("cargo build\n")
    host = RepoHost(tmp_path)
    assert host.read_script("ci/build.sh") == "cargo build\n"
    (tmp_path / "ci" / "build.sh").write_text("changed\n")
    assert host.read_script("ci/build.sh") == "cargo build\n"
    assert host.read_script("../x.sh") is None and host.read_script("ci/none.sh") is None


CONDITIONAL = """\
TARGET ?= $(shell rustc -vV | awk '/host/ {print $$2}')
OPTS := --release --target $(TARGET)
ifeq ($(TARGET),wasm32-unknown-emscripten)
OPTS += -Zbuild-std
else ifeq ($(TARGET), x86_64-unknown-linux-gnu)
OPTS += --locked
endif
ifneq (,$(or $(findstring windows,$(TARGET)),$(findstring darwin,$(TARGET))))
OPTS += --features static
else
OPTS += --features dynamic
endif
ifdef CI
OPTS += --verbose
endif
build:
\tcargo build $(OPTS)
"""


def recipe_lines(tmp_path: Path, argv: tuple[str, ...], env: dict[str, str]) -> list[str]:
    (tmp_path / "Makefile").write_text(CONDITIONAL)
    recipes, _ = RepoHost(tmp_path).make_recipes(argv, "", env, set())
    return [r.text for r in recipes]


def test_conditionals_take_the_branch_the_known_values_decide(tmp_path: Path) -> None:
    # The command line's TARGET wins over `?=` and reaches the `:=` above the tests.
    assert recipe_lines(tmp_path, ("make", "TARGET=x86_64-pc-windows-msvc"), {"CI": "true"}) == [
        "cargo build --release --target x86_64-pc-windows-msvc --features static --verbose"]
    assert recipe_lines(tmp_path, ("make", "TARGET=x86_64-unknown-linux-gnu"), {"CI": ""}) == [
        "cargo build --release --target x86_64-unknown-linux-gnu --locked --features dynamic"]


def test_an_undecidable_test_reads_every_branch(tmp_path: Path) -> None:
    # TARGET comes from `$(shell ...)` and CI from an environment not known here: both branches,
    # as make's reading cannot be known (the shell value stays unknown to the script reader).
    [line] = recipe_lines(tmp_path, ("make",), {})
    assert "--features static" in line and "--features dynamic" in line and "--verbose" in line

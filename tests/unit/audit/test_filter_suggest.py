"""The fewest patterns covering missed paths, checked against the tracked files."""

from __future__ import annotations

from linkgate.audit.suggest import directory_index, suggest
from linkgate.trigger.pathfilter import PathFilter

TRACKED = [
    "Cargo.toml", "Cargo.lock", "build.rs", "README.md",
    "crates/core/Cargo.toml", "crates/core/build.rs", "crates/core/src/lib.rs", "crates/core/native/a.h",
    "crates/xla/Cargo.toml", "crates/xla/src/lib.rs",
    "third_party/mlx/CMakeLists.txt", "third_party/mlx/a.cpp", "third_party/mlx/b.cpp",
    "third_party/other/x.c",
    "scripts/gen.sh", "scripts/release.sh", "scripts/bump.sh", "scripts/fmt.sh",
    "weird/[x].h", "weird/notes.txt", "weird/more.txt",
]


def run(missed: list[str], package_dir: str | None = "crates/core", surface: list[str] | None = None) -> tuple[str, ...]:
    patterns = suggest(missed, directory_index(TRACKED), package_dir, surface or missed,
                       ["", "crates/core", "crates/xla"])
    assert all(PathFilter(patterns).matches(p) for p in missed), "every missed path is covered"
    return patterns


def test_the_package_directory_becomes_one_glob() -> None:
    assert run(["crates/core/build.rs", "crates/core/native/a.h"]) == ("crates/core/**",)


def test_a_directory_holding_another_package_is_never_globbed() -> None:
    patterns = run(["crates/core/build.rs"])
    assert not [f for f in TRACKED if PathFilter(patterns).matches(f) and f.startswith("crates/xla/")]


def test_a_tree_of_build_inputs_is_globbed_at_its_top_when_mostly_inputs() -> None:
    mlx = ["third_party/mlx/CMakeLists.txt", "third_party/mlx/a.cpp", "third_party/mlx/b.cpp"]
    # third_party/ is 3/4 inputs, but the inputs' common directory is tighter for the same one pattern.
    assert run(mlx) == ("third_party/mlx/**",)
    assert run(["third_party/mlx/CMakeLists.txt"], surface=mlx) == ("third_party/mlx/**",)
    assert run([*mlx, "third_party/other/x.c"]) == ("third_party/**",)


def test_a_lone_input_among_unrelated_files_is_suggested_as_itself() -> None:
    assert run(["scripts/gen.sh"]) == ("scripts/gen.sh",)
    assert run(["build.rs", "Cargo.lock"], package_dir="") == ("Cargo.lock", "build.rs")


def test_a_name_with_glob_characters_is_suggested_when_picomatch_matches_it() -> None:
    # picomatch returns true when the input equals the pattern, before reading `[x]` as a class.
    assert suggest(["weird/[x].h"], directory_index(TRACKED), None, ["weird/[x].h"], []) == ("weird/[x].h",)

"""Walks and globs a build script asks for stay in the repository, skip symlink loops and
stop at a count; directives are read from string tokens (escapes resolved), and a
rerun-if-changed path computed at build time is a note, never dropped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from linkgate.surface import scriptfs
from linkgate.surface.compiles import scan_script
from linkgate.surface.model import Surface
from linkgate.surface.static import scan_directives


def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "csrc" / "sub").mkdir(parents=True)
    (root / "csrc" / "a.c").write_text("x\n")
    (root / "csrc" / "sub" / "b.c").write_text("x\n")
    return root


def notes(text: str, pkg: Path) -> list[str]:
    return [msg for _, _, msg in scan_script(text, pkg).notes]


@pytest.mark.timeout(20)
def test_a_glob_over_a_symlink_loop_lists_each_file_once(tmp_path: Path) -> None:
    root = repo(tmp_path)
    os.symlink("..", root / "csrc" / "sub" / "loop")
    os.symlink(".", root / "csrc" / "self")
    assert scriptfs.glob(root, "csrc/**/*.c") == scriptfs.Listing(["csrc/a.c", "csrc/sub/b.c"])
    assert scriptfs.walk(root, "csrc", recursive=True).files == ["csrc/a.c", "csrc/sub/b.c"]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", ["/", "/etc", "..", "../..", "csrc/../../"])
def test_a_walk_or_glob_outside_the_repository_is_not_read(tmp_path: Path, name: str) -> None:
    root = repo(tmp_path)
    for listing in (scriptfs.walk(root, name, recursive=True), scriptfs.glob(root, name.rstrip("/") + "/**/*")):
        assert listing.files == [] and listing.note is not None and "outside the repository" in listing.note


@pytest.mark.timeout(20)
def test_a_symlink_out_of_the_repository_is_not_followed(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "k.c").write_text("x\n")
    os.symlink(tmp_path / "secret", root / "out")
    assert "outside the repository" in (scriptfs.walk(root, "out", recursive=True).note or "")
    assert scriptfs.glob(root, "**/*.c").files == ["csrc/a.c", "csrc/sub/b.c"]
    assert scriptfs.read_text(root, "out/k.c") is None


@pytest.mark.timeout(60)
def test_a_walk_stops_at_the_bound_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = repo(tmp_path)
    for i in range(50):
        (root / "csrc" / f"f{i:02}.c").write_text("")
    monkeypatch.setattr(scriptfs, "MAX_ENTRIES", 20)
    listing = scriptfs.walk(root, "csrc", recursive=True)
    assert len(listing.files) == 20  # a.c, f00.c ... f18.c; sub/ sorts last
    assert listing.note == 'WalkDir::new("csrc"): stopped after 20 directory entries; files past them are not listed'


@pytest.mark.timeout(20)
def test_walkdir_of_the_root_is_a_note_in_the_scan(tmp_path: Path) -> None:
    root = repo(tmp_path)
    text = 'fn main() { cc::Build::new().files(WalkDir::new("/").into_iter().map(|e| e.unwrap().path().to_owned())).compile("x"); }'
    assert notes(text, root) == ["cc::Build::files: /: outside the repository (/); not read"] or \
        any("outside the repository" in n for n in notes(text, root))


@pytest.mark.timeout(20)
def test_a_glob_pattern_that_would_backtrack_is_linear(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "csrc" / ("a" * 200)).write_text("")
    assert scriptfs.glob(root, "csrc/" + "*a" * 30 + "*b").files == []


@pytest.mark.parametrize("macro", ["format", "vec", "concat"])
@pytest.mark.timeout(60)
def test_expressions_nested_thousands_deep_are_a_note(tmp_path: Path, macro: str) -> None:
    opener = 'format!("{}", ' if macro == "format" else f"{macro}!("
    nested = opener * 6000 + '"x.c"' + ")" * 6000
    assert notes(f"fn main() {{ cc::Build::new().file({nested}).compile(\"x\"); }}", tmp_path) == [
        "the build script nests expressions too deeply to read"]


def test_directives_keep_escapes_and_name_computed_paths() -> None:
    found = scan_directives('fn main() {\n'
                            '    println!("cargo:rerun-if-changed=build.rs");\n'
                            '    println!("cargo:rerun-if-changed={}", lib);\n'
                            '    println!("cargo::rerun-if-changed=core/caf\\u{e9}.c");\n'
                            '    println!("cargo:rerun-if-changed=vendor/{name}.c");\n'
                            '    println!("cargo:rustc-link-lib=static={}", lib);\n'
                            '    println!("cargo:rerun-if-changed=a\\u{110000}b\\x41");\n'
                            '    println!("cargo:rerun-if-changed={{literal}}");\n'
                            '}\n')
    assert found.rerun_paths == ["build.rs", "core/café.c", "a\ufffdbA", "{literal}"]
    assert found.unknown == [(3, "rerun-if-changed={}"), (5, "rerun-if-changed=vendor/{name}.c")]
    assert found.links == [("rustc-link-lib", "static=")]


@pytest.mark.timeout(30)
def test_a_hundred_thousand_surface_paths_are_added_in_linear_time() -> None:
    surface = Surface("g", "static", True)
    for i in range(100_000):
        surface.add_path(f"csrc/f{i}.c", "rerun-if-changed")
        surface.add_path(f"csrc/f{i}.c", "again")
        surface.add_note(f"n{i % 10}")
        surface.add_env(f"V{i % 7}", "why")
    assert len(surface.paths) == 100_000 and len(surface.notes) == 10 and len(surface.env) == 7
    surface.paths.append(surface.paths[0])  # appended directly: still no duplicate through add_path
    surface.add_path("csrc/f0.c", "third")
    assert len(surface.paths) == 100_001

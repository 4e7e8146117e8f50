"""`surface --static` on build scripts in the shapes of cc, cmake, cxx_build, pkg-config and globs.

The fixture (tests/fixtures/buildshapes) does not build: its scripts call crates
that are not declared, since no registry is reachable. `cargo metadata` still
runs for real, and every expected path below is written out by hand.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "buildshapes"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}


def git_commit_all(root: Path) -> None:
    """The fixture as its own repository, so its root is the git top level."""
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run(["git", *argv], cwd=root, env=GIT_ENV, check=True, capture_output=True)


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    root = tmp_path_factory.mktemp("shapes") / "ws"
    shutil.copytree(FIXTURE, root)
    git_commit_all(root)
    out = root.parent / "surface.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        rc = main(["surface", "shapes", "--static", "--format", "json", "--output", str(out)])
    assert rc == 0
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def under(doc: dict, package: str) -> dict[str, str]:  # type: ignore[type-arg]
    return {p["path"]: p["why"] for p in doc["paths"] if p["path"].startswith(package + "/")}


def test_cc_build_file_files_include(doc: dict) -> None:  # type: ignore[type-arg]
    paths = under(doc, "ccbuild")
    assert set(paths) == {
        "ccbuild/build.rs",
        "ccbuild/Cargo.toml",
        "ccbuild/include/**",
        "ccbuild/third_party/ring/inc/**",
        "ccbuild/src/shim.c",
        "ccbuild/native/core/alloc.c",
        "ccbuild/native/core/hash.c",
        "ccbuild/third_party/ring/util/log.c",
        "ccbuild/third_party/ring/util/fmt.c",
        "ccbuild/native/simd/avx2.c",  # behind #[cfg(feature)]: a feature build compiles it
        "ccbuild/native/linux.c",  # concat!
    }  # not native/retired.c: it is named only in a comment
    assert paths["ccbuild/build.rs"] == (
        "build script of package ccbuild appears to emit rustc-link-lib=static=ccbuild (cc::Build::compile)")
    assert paths["ccbuild/src/shim.c"].startswith("cc::Build::file at ccbuild/build.rs:14; ")
    assert paths["ccbuild/native/core/alloc.c"].startswith("cc::Build::files (const CORE) at ccbuild/build.rs:15; ")
    assert paths["ccbuild/include/**"].startswith("cc::Build::include at ccbuild/build.rs:13; ")
    assert paths["ccbuild/native/linux.c"].startswith("cc::Build::file at ccbuild/build.rs:22; ")
    env = {e["var"]: e["why"] for e in doc["env"]}
    assert env["CC"].startswith("read by the cc crate; the build script of package ccbuild")
    # The source named by an environment variable is a note, not a silent drop.
    assert any(n.startswith("ccbuild/build.rs:26: cc::Build::file: depends on $CCBUILD_EXTRA_SOURCE")
               for n in doc["notes"])


def test_cmake_source_dirs_count_recursively(doc: dict) -> None:  # type: ignore[type-arg]
    paths = under(doc, "cmakebuild")
    assert set(paths) == {"cmakebuild/build.rs", "cmakebuild/Cargo.toml", "cmakebuild/engine/**",
                          "cmakebuild/tools/codec/**"}
    assert paths["cmakebuild/engine/**"].startswith("cmake source dir (cmake::Config::new) at cmakebuild/build.rs:3; ")
    assert paths["cmakebuild/tools/codec/**"].startswith("cmake source dir (cmake::build) at cmakebuild/build.rs:8; ")


def test_cxx_bridge_and_its_files(doc: dict) -> None:  # type: ignore[type-arg]
    paths = under(doc, "cxxbridge")
    assert set(paths) == {"cxxbridge/build.rs", "cxxbridge/Cargo.toml", "cxxbridge/src/ffi.rs",
                          "cxxbridge/cpp/widget.cc", "cxxbridge/cpp/include/**", "cxxbridge/cpp/**"}
    assert paths["cxxbridge/src/ffi.rs"].startswith("cxx_build::bridge at cxxbridge/build.rs:3; ")
    assert paths["cxxbridge/cpp/widget.cc"].startswith("cc::Build::file at cxxbridge/build.rs:4; ")
    assert paths["cxxbridge/cpp/**"].startswith("rerun-if-changed: ")


def test_pkg_config_is_a_system_library_with_its_variables(doc: dict) -> None:  # type: ignore[type-arg]
    assert set(under(doc, "pkgprobe")) == {"pkgprobe/build.rs", "pkgprobe/Cargo.toml"}
    env = {e["var"]: e["why"] for e in doc["env"]}
    for var in ("OPENSSL_NO_PKG_CONFIG", "OPENSSL_STATIC", "ZSTD_NO_PKG_CONFIG", "PKG_CONFIG_PATH"):
        assert var in env
    assert env["ZSTD_NO_PKG_CONFIG"].startswith('pkg_config::probe_library("zstd"); the build script of package pkgprobe')
    notes = [n for n in doc["notes"] if n.startswith("pkgprobe/build.rs")]
    assert [n.split(": ", 1)[0] for n in notes] == ["pkgprobe/build.rs:5", "pkgprobe/build.rs:9"]
    assert "may link the system library openssl found by pkg-config" in notes[0]
    assert "no path filter sees it change" in notes[0]


def test_globbed_and_read_dir_sources_walk_the_directory(doc: dict) -> None:  # type: ignore[type-arg]
    paths = under(doc, "globbed")
    # csrc/notes.txt does not match *.c; asm/README is filtered out by extension.
    assert set(paths) == {"globbed/build.rs", "globbed/Cargo.toml", "globbed/csrc/a.c", "globbed/csrc/b.c",
                          "globbed/asm/fast.S", "globbed/extra/one.c"}
    assert paths["globbed/csrc/a.c"].startswith('cc::Build::file (glob("csrc/*.c")) at globbed/build.rs:18; ')
    assert paths["globbed/asm/fast.S"].startswith('cc::Build::files (read_dir("asm")) at globbed/build.rs:25; ')
    # Through the script's own helper function, called with a literal directory.
    assert paths["globbed/extra/one.c"].startswith('cc::Build::file (read_dir("extra")) at globbed/build.rs:10; ')


def test_a_script_split_into_modules_that_calls_the_compiler(doc: dict) -> None:  # type: ignore[type-arg]
    paths = under(doc, "splitscript")
    assert set(paths) == {"splitscript/build.rs", "splitscript/Cargo.toml", "splitscript/build/native.rs",
                          "splitscript/lib/kernel.c", "splitscript/lib/include/**", "splitscript/**"}
    assert paths["splitscript/build/native.rs"].startswith("mod native: part of the build script of package splitscript")
    assert paths["splitscript/lib/kernel.c"].startswith(
        "compiled by build script (argument) at splitscript/build/native.rs:8; ")
    assert paths["splitscript/lib/include/**"].startswith("compiler include flag -Ilib/include at ")
    # It prints no rerun-if-* line at all: cargo's default, the whole package.
    assert paths["splitscript/**"].startswith("any change reruns the build script of package splitscript")


def test_a_build_script_that_cannot_be_read_is_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    (root / "broken" / "src").mkdir(parents=True)
    (root / "broken" / "Cargo.toml").write_text('[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "broken" / "src" / "lib.rs").write_text("")
    (root / "broken" / "build.rs").symlink_to("nowhere.rs")  # dangling
    manifest = root / "Cargo.toml"
    manifest.write_text(manifest.read_text().replace('"splitscript"]', '"splitscript", "broken"]'))
    git_commit_all(root)
    monkeypatch.chdir(root)
    assert main(["surface", "shapes", "--static", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert under(doc, "broken")["broken/build.rs"] == "build script of package broken (unreadable)"
    assert [n for n in doc["notes"] if "broken" in n] == [
        f"package broken: cannot read {root}/broken/build.rs: No such file or directory: "
        "linkgate cannot tell what it links or compiles"
    ]

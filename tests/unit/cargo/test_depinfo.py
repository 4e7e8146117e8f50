"""Dep-info files as rustc and cargo write them (captured from cargo 1.95 builds of a two-package workspace)."""

from __future__ import annotations

from pathlib import Path

from linkgate.cargo import depinfo

# rustc's deps/sys-<hash>.d: paths relative to the workspace root, where cargo ran rustc.
RUSTC = """\
/w/target/debug/deps/sys-9a12f50f74cac582.d: sys/src/lib.rs sys/src/my\\ data.txt

/w/target/debug/deps/libsys-9a12f50f74cac582.rlib: sys/src/lib.rs sys/src/my\\ data.txt

sys/src/lib.rs:
sys/src/my\\ data.txt:

# env-dep:CARGO_PKG_NAME=sys
"""
# cargo's uplifted target/debug/app.d: absolute, with the build script's rerun-if-changed directory.
CARGO = "/w/target/debug/app: /w/app/src/main.rs /w/sys/build.rs /w/sys/native /w/sys/src/lib.rs\n"


def test_rustc_paths_are_placed_by_the_crate_root(tmp_path: Path):
    d = tmp_path / "sys-9a12f50f74cac582.d"
    d.write_text(RUSTC)
    info = depinfo.read(d, "/w/sys/src/lib.rs")
    assert info is not None and info.unread is None
    assert info.files == ("/w/sys/src/lib.rs", "/w/sys/src/my data.txt")


def test_relative_paths_with_no_matching_crate_root_are_said_unread(tmp_path: Path):
    d = tmp_path / "x.d"
    d.write_text(RUSTC)
    info = depinfo.read(d, "/elsewhere/main.rs")
    assert info is not None and info.files == () and "relative to is unknown" in (info.unread or "")


def test_cargo_dep_info_is_absolute(tmp_path: Path):
    d = tmp_path / "app.d"
    d.write_text(CARGO)
    info = depinfo.read(d, None)
    assert info is not None and info.files == ("/w/app/src/main.rs", "/w/sys/build.rs", "/w/sys/native", "/w/sys/src/lib.rs")


def test_the_dep_info_of_each_kind_of_output(tmp_path: Path):
    deps, build = tmp_path / "deps", tmp_path / "build/sys-0123456789abcdef"
    deps.mkdir()
    build.mkdir(parents=True)
    for f in ("sys-1111111111111111.d", "it-2222222222222222.d"):
        (deps / f).write_text("")
    (tmp_path / "app.d").write_text("")
    (build / "build_script_build-0123456789abcdef.d").write_text("")
    rlib = [str(deps / "libsys-1111111111111111.rlib"), str(deps / "libsys-1111111111111111.rmeta")]
    assert depinfo.dep_files(rlib, False) == [deps / "sys-1111111111111111.d"]
    assert depinfo.dep_files([str(deps / "it-2222222222222222")], False) == [deps / "it-2222222222222222.d"]
    assert depinfo.dep_files([str(tmp_path / "app")], False) == [tmp_path / "app.d"]
    assert depinfo.dep_files([str(build / "build-script-build")], True) == [build / "build_script_build-0123456789abcdef.d"]

from __future__ import annotations

from pathlib import Path

from linkgate.cargo.buildscript import (
    Directive,
    build_script_source,
    manifest_dir_from_package_id,
    read_build_script_output,
)

# Verbatim shape of a cargo build-script output file: both syntaxes, noise lines.
OUTPUT = """\
cargo:rerun-if-changed=build.rs
compiling native code...
cargo::rustc-link-search=native=/tmp/out
cargo:rustc-link-lib=static=foo
cargo::rustc-link-arg=-Wl,-lz\r
cargo:rustc-link-arg-bin=app=-lm
cargo:include=/tmp/out/include
cargo::rerun-if-env-changed=FOO_DIR
"""


def _layout(tmp_path: Path, text: str) -> Path:
    build = tmp_path / "target" / "debug" / "build" / "demo-0123abcd"
    (build / "out").mkdir(parents=True)
    (build / "output").write_text(text)
    return build / "out"


def test_reads_directives_with_line_numbers(tmp_path: Path) -> None:
    out_dir = _layout(tmp_path, OUTPUT)
    bso = read_build_script_output(out_dir, package_id="path+file:///x#demo@0.1.0")
    assert bso is not None
    assert bso.output_file == out_dir.parent / "output"
    assert bso.package_dir_name == "demo-0123abcd"
    assert bso.link_directives() == (
        Directive("rustc-link-search", "native=/tmp/out", 3),
        Directive("rustc-link-lib", "static=foo", 4),
        Directive("rustc-link-arg", "-Wl,-lz", 5),
        Directive("rustc-link-arg-bin", "app=-lm", 6),
    )
    assert [d.key for d in bso.rerun_directives()] == ["rerun-if-changed", "rerun-if-env-changed"]
    # The old syntax turns unknown keys into metadata.
    assert Directive("metadata", "include=/tmp/out/include", 7) in bso.directives


def test_missing_output_is_none(tmp_path: Path) -> None:
    assert read_build_script_output(tmp_path / "nope" / "out") is None


def test_build_script_source(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "a"\nversion = "0.1.0"\n')
    assert build_script_source(tmp_path) is None
    (tmp_path / "build.rs").write_text("fn main() {}\n")
    assert build_script_source(tmp_path) == tmp_path / "build.rs"
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "a"\nbuild = "tools/gen.rs"\n')
    assert build_script_source(tmp_path) is None
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "gen.rs").write_text("fn main() {}\n")
    assert build_script_source(tmp_path) == tmp_path / "tools" / "gen.rs"
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "a"\nbuild = false\n')
    assert build_script_source(tmp_path) is None


def test_manifest_dir_from_package_id() -> None:
    assert manifest_dir_from_package_id("path+file:///w/my%20crate#demo@0.1.0") == Path("/w/my crate")
    assert manifest_dir_from_package_id("demo 0.1.0 (path+file:///w/demo)") == Path("/w/demo")
    assert manifest_dir_from_package_id("registry+https://github.com/rust-lang/crates.io-index#libc@0.2.0") is None

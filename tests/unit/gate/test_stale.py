"""Which files of a package count as inputs cargo does not watch (gate/stale.py)."""

from __future__ import annotations

import os
from pathlib import Path

from linkgate.gate.stale import _newer_files, package_dir


def test_package_dir_from_both_id_spellings_and_none_for_the_registry() -> None:
    assert package_dir("path+file:///src/my%20crates/zsys#0.1.0") == Path("/src/my crates/zsys")
    assert package_dir("zsys 0.1.0 (path+file:///src/zsys)") == Path("/src/zsys")
    assert package_dir("registry+https://github.com/rust-lang/crates.io-index#cc@1.2.0") is None
    assert package_dir("git+https://example.invalid/x#abc") is None


def test_only_files_cargo_would_miss_and_only_newer_ones(tmp_path: Path) -> None:
    files = ["vendor/a.c", "vendor/b.h", "src/lib.rs", "Cargo.toml", "README.md", "include/x.h",
             "target/release/out.o", ".git/index", "member/Cargo.toml", "member/c.c"]
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
        os.utime(tmp_path / rel, (2_000, 2_000))
    os.utime(tmp_path / "vendor/b.h", (1_000, 1_000))  # older than the run
    watched = [os.path.normpath(tmp_path / "include")]
    assert _newer_files(tmp_path, 1_500, watched) == ["vendor/a.c"]

"""Which `rustc-link-lib` values rustc bundles into a library's archive, and which archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.cargo.manifests import archived_library
from linkgate.replay.directives import archive_of, bundles


@pytest.mark.parametrize(
    ("value", "bundled"),
    [
        ("static=z", True),
        ("static:+bundle=z", True),
        ("static:+whole-archive=z", True),
        ("static:+whole-archive,+verbatim=libz.a", True),
        ("static:-bundle=z", False),
        ("static:+whole-archive,-bundle=z", False),
        ("dylib=z", False),
        ("z", False),
        ("framework=Security", False),
    ],
)
def test_bundles(value: str, bundled: bool) -> None:
    assert bundles(value) is bundled


def package(root: Path, manifest: str, *files: str) -> Path:
    """A package directory; *manifest* continues the [package] table."""
    root.mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "z-sys"\nversion = "0.1.0"\n' + manifest)
    for f in files:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        (root / f).write_text("")
    return root


@pytest.mark.parametrize(
    ("manifest", "files", "expected"),
    [
        ("", ["src/lib.rs"], ("z_sys", "rlib")),
        ('[lib]\nname = "libz_sys"\npath = "src/lib.rs"\n', ["src/lib.rs"], ("libz_sys", "rlib")),
        ('[lib]\ncrate-type = ["cdylib", "rlib"]\n', ["src/lib.rs"], ("z_sys", "rlib")),
        ('[lib]\ncrate-type = ["staticlib"]\n', ["src/lib.rs"], ("z_sys", "staticlib")),
        ('[lib]\ncrate-type = ["cdylib"]\n', ["src/lib.rs"], None),  # the cdylib's own link carries it
        ("[lib]\nproc-macro = true\n", ["src/lib.rs"], None),
        ("", ["src/main.rs"], None),  # a binary only: the static library is on its link line
        ("autolib = false\n", ["src/lib.rs", "src/main.rs"], None),
    ],
)
def test_archived_library(tmp_path: Path, manifest: str, files: list[str], expected: tuple[str, str] | None) -> None:
    root = package(tmp_path / "p", manifest, *files)
    assert archived_library(root) == expected


def test_archive_of_a_registry_package_is_its_rlib() -> None:
    # A dependency from a registry is used through its library; there is no manifest to read here.
    assert archive_of("registry+https://github.com/rust-lang/crates.io-index#libz-sys@1.1.20") == "libz_sys's rlib"

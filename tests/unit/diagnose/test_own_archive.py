"""The "source file missing from the build list" hint, on real archives made by cc and ar."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from linkgate.diagnose import NativeArchive, classify_text, native_archives
from linkgate.objects.ar import member_names

CORPUS = Path(__file__).parents[2] / "fixtures" / "linker-output"
LONG = "a_member_name_longer_than_sixteen.o"


@pytest.fixture
def parts(tmp_path: Path) -> Path:
    """libparts.a as the corpus's build script makes it: a.o (calls b_fn), without b.c."""
    (tmp_path / "a.c").write_text("int b_fn(void);\nint a_fn(void) { return b_fn(); }\n")
    (tmp_path / "b.c").write_text("int b_fn(void) { return 2; }\n")
    subprocess.run(["cc", "-c", "a.c", "b.c"], cwd=tmp_path, check=True)
    subprocess.run(["cp", "b.o", LONG], cwd=tmp_path, check=True)
    subprocess.run(["ar", "crs", "libparts.a", "a.o"], cwd=tmp_path, check=True)
    subprocess.run(["ar", "crs", "libother.a", LONG], cwd=tmp_path, check=True)
    return tmp_path


def test_member_names_reads_short_and_long_names(parts: Path) -> None:
    assert member_names(parts / "libparts.a") == {"a.o"}
    assert member_names(parts / "libother.a") == {LONG}
    assert member_names(parts / "a.c") == frozenset()


def test_native_archives_resolves_cargo_records(parts: Path) -> None:
    found = native_archives("recipedemo", ["static=parts", "dylib=m", "static:+whole-archive=other", "nowhere"],
                            [f"native={parts}"], "/w/build.rs")
    assert [(n.path.name, n.package, n.build_script) for n in found] == [
        ("libparts.a", "recipedemo", "/w/build.rs"), ("libother.a", "recipedemo", "/w/build.rs"),
    ]


@pytest.mark.parametrize(
    "name", ["cargo/own-archive-source-missing.gnu-ld.human.txt", "cargo/own-archive-source-missing.rust-lld.jsonl"]
)
def test_member_of_the_crates_own_archive_points_at_the_source_list(parts: Path, name: str) -> None:
    text = (CORPUS / name).read_text()
    native = [NativeArchive(parts / "libparts.a", "recipedemo", "/w/recipedemo/build.rs")]
    (d,) = classify_text(text, native=native)
    assert d.symbol == "b_fn"
    assert "a.o in libparts.a" in (d.hint or "")
    assert "/w/recipedemo/build.rs" in (d.hint or "")
    assert "missing from the build script's list of sources" in (d.hint or "")
    # Without the build scripts' evidence the generic hint stays.
    (plain,) = classify_text((CORPUS / "cargo/own-archive-source-missing.gnu-ld.human.txt").read_text())
    assert "list of sources" not in (plain.hint or "")


def test_a_cargo_json_log_carries_its_own_evidence(parts: Path) -> None:
    """explain on a --message-format=json log reads the build-script records in it."""
    text = (CORPUS / "cargo/own-archive-source-missing.rust-lld.jsonl").read_text()
    out_dir = re.search(r'"linked_paths":\["native=([^"]+)"\]', text)
    assert out_dir is not None
    (d,) = classify_text(text.replace(out_dir.group(1), str(parts)))
    assert "a.o in libparts.a" in (d.hint or "") and "list of sources" in (d.hint or "")
    # Records whose archives are not on disk (another machine's log) prove nothing.
    (d,) = classify_text(text.replace(out_dir.group(1), str(parts / "gone")))
    assert "list of sources" not in (d.hint or "")


def test_no_source_hint_when_an_archive_on_the_line_defines_the_symbol(parts: Path) -> None:
    text = (CORPUS / "cargo/own-archive-source-missing.gnu-ld.human.txt").read_text()
    native = [NativeArchive(parts / "libparts.a", "recipedemo"), NativeArchive(parts / "libother.a", "recipedemo")]
    (d,) = classify_text(text, native=native)
    assert "list of sources" not in (d.hint or "")


def test_no_source_hint_for_another_crates_archive(parts: Path) -> None:
    text = (CORPUS / "cargo/own-archive-source-missing.gnu-ld.human.txt").read_text()
    (d,) = classify_text(text, native=[NativeArchive(parts / "libparts.a", "othercrate")])
    assert "list of sources" not in (d.hint or "")


def test_rust_code_needs_a_symbol_the_build_scripts_own_archive_lacks(parts: Path) -> None:
    # A -sys crate's extern block declares b_fn; its build script archived only a.o.
    text = ("/usr/bin/ld: /t/release/deps/link-5e1b.link.a1b2-cgu.0.rcgu.o: in function `link::main':\n"
            "link.a1b2-cgu.0:(.text+0x12): undefined reference to `b_fn'\n"
            "collect2: error: ld returned 1 exit status\n")
    native = [NativeArchive(parts / "libparts.a", "parts-sys", "parts-sys/build.rs")]
    (d,) = classify_text(text, native=native)
    assert d.kind == "undefined-symbol" and d.symbol == "b_fn"
    assert "libparts.a (parts-sys, parts-sys/build.rs)" in (d.hint or "")
    assert "missing from its build list" in (d.hint or "")
    # When a linked archive of theirs defines it, this is not the explanation.
    (d,) = classify_text(text, native=[*native, NativeArchive(parts / "libother.a", "parts-sys")])
    assert "build list" not in (d.hint or "")
    (d,) = classify_text(text)
    assert "build list" not in (d.hint or "")

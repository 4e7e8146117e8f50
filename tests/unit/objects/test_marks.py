"""Linker marks read both ways, on programs each real linker wrote here."""

from __future__ import annotations

import os
import subprocess

import pytest

from linkgate.objects import marks

FUSE = {"bfd": "bfd", "gold": "gold", "lld": "lld", "mold": "mold"}


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    root = tmp_path_factory.mktemp("marks")
    src = root / "m.c"
    src.write_text("int main(void) { return 0; }\n")
    out = {}
    for linker, fuse in FUSE.items():
        out[linker] = str(root / linker)
        subprocess.run(["cc", f"-fuse-ld={fuse}", str(src), "-o", out[linker]], check=True)
    return out


@pytest.mark.parametrize("made_by", sorted(FUSE))
@pytest.mark.parametrize("judged_as", sorted(FUSE))
def test_a_file_names_only_the_linker_that_wrote_it(linked, made_by, judged_as):
    found = marks.read(linked[made_by])
    assert found is not None
    assert marks.names_linker(found, judged_as, os.environ.get("PATH")) == (made_by == judged_as)


def test_gnu_ld_is_the_absence_of_every_mark_not_of_its_own(linked):
    assert marks.read(linked["bfd"]).marks == ()
    assert {m.family for m in marks.read(linked["mold"]).marks} == {"mold"}
    gold = marks.read(linked["gold"]).marks
    assert [(m.family, m.section) for m in gold] == [("gold", ".note.gnu.gold-version")]


def test_a_file_with_a_second_linkers_mark_names_neither(linked, tmp_path):
    # A mold-linked file that also carries lld's .comment line: not mold's alone, not lld's.
    both, comment = tmp_path / "both", tmp_path / "comment"
    comment.write_bytes(b"mold 1.10.1 (compatible with GNU ld)\0Linker: Debian LLD 14.0.6\0")
    subprocess.run(["objcopy", "--update-section", f".comment={comment}", linked["mold"], str(both)], check=True)
    found = marks.read(str(both))
    assert found is not None and {m.family for m in found.marks} >= {"lld"}
    assert not marks.names_linker(found, "mold") and not marks.names_linker(found, "lld")
    assert not marks.names_linker(found, "bfd")


def test_a_file_that_is_not_elf_has_no_marks(tmp_path):
    text = tmp_path / "x.txt"
    text.write_text("not elf\n")
    assert marks.read(str(text)) is None

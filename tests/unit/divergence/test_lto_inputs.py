"""lto-skipped reads the inputs a link line names, and says which it could not read."""

from __future__ import annotations

import subprocess
from pathlib import Path

from linkgate.divergence import lto
from linkgate.gate.linkrecord import LinkRecord


def _record(tmp_path: Path, *args: str) -> LinkRecord:
    return LinkRecord(argv=("cc", *args), cwd=str(tmp_path), env={}, started=0.0, ended=0.0, exit_status=0,
                      output=str(tmp_path / "app"), path=tmp_path / "r.json", id="r")


def test_an_object_named_by_l_is_found_and_garbage_is_named_unread(tmp_path):
    (tmp_path / "h.c").write_text("int helper(int x) { return x + 1; }\n")
    subprocess.run(["gcc", "-c", "-O2", "-flto", "-ffat-lto-objects", "h.c", "-o", "h.o"], cwd=tmp_path, check=True)
    subprocess.run(["gcc-ar", "crs", "libh.a", "h.o"], cwd=tmp_path, check=True)
    (tmp_path / "junk.a").write_text("not an archive\n")
    rec = _record(tmp_path, "-L", ".", "-lh", "junk.a", "-o", "app")
    unread: list[str] = []
    (d,) = lto.lto_skipped("default", [rec], [], {"r": "app"}, unread)
    assert d.kind == "lto-skipped" and d.references == ("h.o",) and Path(d.library).name == "libh.a"
    assert unread == [str(tmp_path / "junk.a")]
    assert lto.lto_skipped("mold", [rec], [], {"r": "app"}) == []

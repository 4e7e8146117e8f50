"""Archive order when both archives travel inside rlibs (rustc's default `static=`, +bundle).

The fixture (tests/fixtures/rliborder) has two -sys crates, each bundling its
own static library into its rlib. The library in needsys's rlib calls x_func,
defined by the library in xsys's rlib, and rustc puts xsys's rlib first. GNU
ld and gold fail with an undefined reference; before the order check read
rlibs, they were told "Nothing on the link line defines `x_func`" while lld,
in the same run, said archive-order. Real cargo, cc, ar and four linkers.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "rliborder"


@pytest.fixture
def rliborder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "rliborder"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    rc = main(["run", "-q", "--no-history", "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def _says_rlib_order(d: dict) -> None:
    assert d["kind"] == "archive-order", d
    assert "Nothing" not in d["message"] + (d["hint"] or "")
    assert "`x_func` is needed by `needsys`'s rlib (libneedsys-" in d["message"], d["message"]
    assert "then `needsys`'s rlib" in d["message"] and "defined in `xsys`'s rlib (libxsys-" in d["message"]
    assert [Path(a).name.split("-")[0] for a in d["archives"]] == ["libxsys", "libneedsys"]
    # rustc orders rlibs; the fix is a dependency, not a moved directive.
    assert "add `xsys` to the [dependencies] of `needsys` and `use xsys as _;`" in d["hint"]


def test_bundled_archives_in_the_wrong_order_are_archive_order_under_every_linker(rliborder, capsys):
    # One build (rust-lld), the other linkers relink its recorded links.
    rc, doc = _run(capsys)
    by = {r["linker"]: r for r in doc["results"]}
    assert rc == 1
    for ln in ("bfd", "gold"):
        assert by[ln]["verdict"] == "link-failed", by[ln]
        (d,) = by[ln]["diagnostics"]
        _says_rlib_order(d)
        assert d["level"] == "error"
    for ln in ("default", "lld"):
        assert by[ln]["verdict"] == "linked", by[ln]
        (w,) = by[ln]["diagnostics"]
        _says_rlib_order(w)
        assert w["level"] == "warning" and "lld searches archives in any order" in w["hint"]

    # A build of its own under GNU ld (cargo's failed link, as the wrapper recorded it) says the same.
    rc, doc = _run(capsys, "--linker", "bfd")
    (res,) = doc["results"]
    assert rc == 1 and res["verdict"] == "link-failed" and not res.get("replayed")
    (d,) = res["diagnostics"]
    _says_rlib_order(d)


def test_explain_reads_the_rlibs_from_rustcs_elided_link_line(rliborder, tmp_path, capsys):
    # rustc's note elides the rlibs as ".../deps/{libapp-…,libxsys-…,libneedsys-…}.rlib"; in order.
    import os
    import subprocess

    env = {**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "t"), "RUSTFLAGS": "-Clinker-features=-lld"}
    done = subprocess.run(["cargo", "test", "-p", "app", "--test", "calls", "--no-run"],
                          capture_output=True, text=True, env=env)
    assert done.returncode != 0 and "{libapp-" in done.stderr
    log = tmp_path / "gnu-ld.log"
    log.write_text(done.stdout + done.stderr)
    assert main(["explain", str(log), "--format", "json"]) == 1
    (d,) = json.loads(capsys.readouterr().out)["diagnostics"]
    _says_rlib_order(d)

"""GCC fat-LTO objects linked by rust-lld: `lto-skipped` on the default leg, never on bfd's.

tests/fixtures/ltosys: ltosys's build script compiles csrc/compute.c and
csrc/helper.c with `gcc -O2 -flto -ffat-lto-objects` into libab.a, which rustc
bundles into ltosys's rlib; app links it. Real gcc, cargo, rust-lld and GNU ld.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ltosys"


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["run", "-q", "--no-history", "--format", "json", *args])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0, doc
    return doc


def _lto(res: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in res["diagnostics"] if d["kind"] == "lto-skipped"]


@pytest.mark.parametrize("mode", ["replay", "rebuild"])
def test_default_leg_names_both_objects_and_the_archive(ws, capsys, mode):
    if mode == "rebuild":
        (ws / "linkgate.toml").write_text((ws / "linkgate.toml").read_text() + 'linker-matrix = "rebuild"\n')
    default, bfd = _run(capsys)["results"]
    assert (default["linker"], bfd["linker"]) == ("default", "bfd")
    (d,) = _lto(default)
    assert d["level"] == "warning" and d["references"] == ["compute.o", "helper.o"]
    assert Path(d["library"]).name == "libab.a"
    assert "compute.o, helper.o from libab.a" in d["message"] and "rust-lld" in d["message"]
    assert "ltosys's build script" in d["message"]
    path, line = d["source"].rsplit(":", 1)
    assert Path(path).name == "build.rs" and "-flto" in Path(path).read_text().splitlines()[int(line) - 1]
    assert "bfd" in d["hint"] and "without -flto" in d["hint"] and "-Clinker-plugin-lto" in d["hint"]
    assert _lto(bfd) == []


def test_one_linker_is_checked_too(ws, capsys):
    (res,) = _run(capsys, "--linker", "default")["results"]
    assert [d["references"] for d in _lto(res)] == [["compute.o", "helper.o"]]


def test_without_flto_nothing_is_reported(ws, capsys):
    script = ws / "ltosys" / "build.rs"
    script.write_text(script.read_text().replace('"-flto", "-ffat-lto-objects", ', ""))
    for res in _run(capsys)["results"]:
        assert _lto(res) == [] and res["verdict"] == "linked"


def test_lto_skipped_can_fail_the_gate_or_be_off(ws, capsys):
    toml = ws / "linkgate.toml"
    base = toml.read_text()
    toml.write_text(base + 'divergence = "off"\ndivergence-kinds = { lto-skipped = "fail" }\n')
    code = main(["run", "-q", "--no-history", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["status"] == "fail"
    default, bfd = doc["results"]
    assert default["verdict"] == "linked" and [d["level"] for d in _lto(default)] == ["error"]
    assert any('divergence-kinds.lto-skipped = "fail"' in m for m in default["messages"])
    assert any(m.startswith("lto-skipped: compute.o, helper.o") for m in default["messages"])
    assert not any("lto-skipped" in w for w in default["warnings"])
    assert _lto(bfd) == [] and "divergence" not in bfd  # divergence = "off": nothing compared
    assert main(["run", "-q", "--no-history", "--format", "github"]) == 1
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if "lto-skipped" in ln]
    # At the build-script line that passes -flto.
    assert line.startswith("::error file=ltosys/build.rs,line=") and \
        ",title=linkgate lto-skipped::app [default]: compute.o, helper.o" in line

    toml.write_text(base + 'divergence-kinds = { lto-skipped = "off" }\n')
    default, _ = _run(capsys)["results"]
    assert _lto(default) == []

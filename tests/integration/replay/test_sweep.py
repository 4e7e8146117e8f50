"""linkgate sweep: which build-script directives each linker needs, and where."""

from __future__ import annotations

import json
import re
from pathlib import Path

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/sweep-1.json").read_text())


def sweep_doc(ws, monkeypatch, capsys, *args: str) -> dict:
    monkeypatch.chdir(ws)
    assert main(["run", "-q", "--format", "json"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert main(["sweep", "smoke", "-q", "--format", "json", *args]) == 0
    doc = json.loads(capsys.readouterr().out)
    import jsonschema

    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return doc


def by_directive(doc: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for item in doc["directives"]:
        out.setdefault(item["directive"], []).append(item)
    return out


def test_sweep_classifies_each_directive_under_gnu_ld_and_rust_lld(ring_workspace, monkeypatch, capsys):
    doc = sweep_doc(ring_workspace, monkeypatch, capsys, "--jobs", "2")
    assert doc["schema"] == "linkgate.sweep/1" and doc["linkers"] == ["default", "bfd"]
    items = by_directive(doc)
    build_rs = "build.rs"  # repository-relative, as annotations need

    # a needed shared library: load-bearing under both, with the symbol it provides
    [helper] = items["-lhelper"]
    assert helper["build_script"] == build_rs and helper["line"] == 11 and helper["package"] == "nativelink"
    for linker in ("default", "bfd"):
        j = helper["linkers"][linker]
        assert (j["status"], j["symbol"]) == ("load-bearing", "helper_value"), j

    # duplicated by rustc's own -lc: redundant, and the sentence says what satisfied it
    [extra_c] = items["-lc"]
    for linker in ("default", "bfd"):
        j = extra_c["linkers"][linker]
        assert j["status"] == "redundant", j
        assert re.search(r"resolves `\w+` from /\S*/libc\.so\.6 pulled in by rustc's own `-lc`$", j["detail"]), j

    # mutually dependent static archives: order matters to GNU ld only
    rings = items["-lringa"] + items["-lringb"]
    assert len(rings) == 3
    for item in rings:
        assert item["linkers"]["bfd"]["status"] == "order-sensitive", item
        assert item["linkers"]["default"]["status"] != "order-sensitive", item
    assert items["-lringb"][0]["linkers"]["default"]["status"] == "load-bearing"
    assert items["-lringb"][0]["linkers"]["default"]["symbol"] == "ring_mid"
    # rust-lld needs only one of the two -lringa, but one of them: reported together, never
    # each "redundant, a candidate to drop" (dropping both fails)
    for item in items["-lringa"]:
        j = item["linkers"]["default"]
        assert j["status"] == "duplicate" and j["symbol"] in ("ring_entry", "ring_leaf"), j
        assert "redundant only while nativelink's `-lringa` (build.rs:" in j["detail"], j


def test_sweep_renders_markdown_and_human(ring_workspace, monkeypatch, capsys):
    monkeypatch.chdir(ring_workspace)
    assert main(["run", "-q", "--linker", "bfd", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["sweep", "smoke", "-q", "--linker", "bfd", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| `-lhelper` |" in md and "**load-bearing** `helper_value`" in md
    assert main(["sweep", "smoke", "-q", "--linker", "bfd"]) == 0
    human = capsys.readouterr().out
    assert "order-sensitive" in human and "GNU ld" in human


def test_sweep_refuses_stale_recording(ring_workspace, monkeypatch, capsys):
    monkeypatch.chdir(ring_workspace)
    assert main(["run", "-q", "--linker", "bfd", "--format", "json"]) == 0
    capsys.readouterr()
    [out] = (ring_workspace / "target/linkgate/smoke/bfd/release/build").glob("nativelink-*/out")
    (out / "libringb.a").write_bytes((out / "libringb.a").read_bytes() + b"\n")
    assert main(["sweep", "smoke", "-q", "--linker", "bfd"]) == 3
    err = capsys.readouterr().err
    assert "libringb.a changed" in err and "run the gate again" in err

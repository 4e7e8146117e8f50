"""A `static=` library that rustc bundles into its package's rlib: replay cannot judge dropping it.

The ccsys fixture's zsys prints `cargo:rustc-link-lib=static=zlite`. rustc puts
libzlite.a's objects into zsys's rlib, so the link of app's `calls` test gets
them from the rlib and `-lzlite` is only on the link of zsys's own unit-test
harness, which calls no C. Replaying the recorded lines without `-lzlite`
links, yet deleting the directive breaks `calls` (undefined zl_checksum): the
libz-sys trial's false "redundant".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from lgtest import git_repo

from linkgate.cli import main

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "ccsys"
SWEEP_SCHEMA = json.loads((ROOT / "src/linkgate/data/schemas/sweep-1.json").read_text())
DIRECTIVE = "rustc-link-lib=static=zlite"

# Every test target of the workspace: zsys's own harness carries -lzlite.
WORKSPACE_GATE = """
[[gate]]
name = "workspace"
cargo = ["test", "--release", "--no-run"]
linkers = ["default", "bfd"]
"""


def ccsys_at(root: Path, *extra: str) -> Path:
    shutil.copytree(FIXTURE, root)
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text() + "".join(extra))
    (root / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    git_repo(root)
    return root


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str], schema: dict) -> tuple[int, dict]:
    rc = main([*argv, "-q", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    return rc, doc


def test_sweep_does_not_call_a_bundled_static_library_redundant(tmp_path, monkeypatch, capsys):
    ws = ccsys_at(tmp_path / "ccsys", WORKSPACE_GATE)
    monkeypatch.chdir(ws)
    for gate in ("workspace", "calls"):
        assert main(["run", gate, "-q"]) == 0, capsys.readouterr().out
        capsys.readouterr()
        rc, doc = run_json(["sweep", gate], capsys, SWEEP_SCHEMA)
        assert rc == 0
        [item] = [d for d in doc["directives"] if d["directive"] == DIRECTIVE]
        assert set(item["linkers"]) == {"default", "bfd"}
        for linker, j in item["linkers"].items():
            assert j["status"] == "not-judged", (gate, linker, j)
            assert "rustc bundles static=zlite into zsys's rlib" in j["detail"]
            assert "replay does not rebuild" in j["detail"] and "file control" in j["detail"]
    main(["sweep", "workspace", "-q"])
    human = capsys.readouterr().out
    assert "not-judged" in human and "redundant" not in human and "a candidate to drop" not in human
    main(["sweep", "workspace", "-q", "--format", "markdown"])
    assert "rustc bundles static=zlite into zsys's rlib" in capsys.readouterr().out

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
PROVE_SCHEMA = json.loads((ROOT / "src/linkgate/data/schemas/prove-1.json").read_text())
DIRECTIVE = "rustc-link-lib=static=zlite"

# Every test target of the workspace: zsys's own harness carries -lzlite.
WORKSPACE_GATE = """
[[gate]]
name = "workspace"
cargo = ["test", "--release", "--no-run"]
linkers = ["default", "bfd"]
"""
DROP_CONTROL = """
[[gate.control]]
name = "drop-zlite-{gate}"
drop-directive = {{ lib = "static=zlite" }}
expect-kind = "undefined-symbol"
"""
DELETE_LINE_CONTROL = """
[[gate.control]]
name = "delete-zlite-line"
file = "zsys/build.rs"
delete = 'rustc-link-lib=static=zlite'
expect-kind = "undefined-symbol"
expect-match = "zl_"

[[gate.control]]
name = "rename-checksum"
file = "zsys/vendor/zlite/checksum.c"
replace = { pattern = '^unsigned long zl_checksum\\(', with = 'unsigned long zl_checksum_renamed(' }
expect-kind = "undefined-symbol"
expect-match = "zl_checksum"
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
            assert "replay cannot rebuild" in j["detail"] and "file control" in j["detail"]
    main(["sweep", "workspace", "-q"])
    human = capsys.readouterr().out
    assert "not-judged" in human and "redundant" not in human and "a candidate to drop" not in human
    main(["sweep", "workspace", "-q", "--format", "markdown"])
    assert "rustc bundles static=zlite into zsys's rlib" in capsys.readouterr().out


def test_drop_directive_control_on_a_bundled_static_library_is_not_judged(tmp_path, monkeypatch, capsys):
    ws = ccsys_at(tmp_path / "ccsys", DROP_CONTROL.format(gate="calls"),
                  WORKSPACE_GATE, DROP_CONTROL.format(gate="workspace"))
    monkeypatch.chdir(ws)
    rc, doc = run_json(["prove", "--control", "drop-zlite-calls", "--control", "drop-zlite-workspace"],
                       capsys, PROVE_SCHEMA)
    assert rc == 3
    assert {(c["gate"], c["linker"]) for c in doc["controls"]} == {
        (g, ln) for g in ("calls", "workspace") for ln in ("default", "bfd")}
    for c in doc["controls"]:
        assert c["outcome"] == "error", c
        assert c["reason"].startswith("not judged: "), c
        assert "rustc bundles static=zlite into zsys's rlib" in c["reason"]
        assert "hint: prove it with a file control" in c["reason"]
    # the workspace gate's harness carries -lzlite: the replays ran and linked, and are shown
    for c in doc["controls"]:
        if c["gate"] == "workspace":
            assert c["replayed"] and c["mutated"]["verdict"] == "linked" and c["file"] == "zsys/build.rs", c
            assert "drop rustc-link-lib=static=zlite (zsys/build.rs:" in c["mutation"]
    main(["prove", "-q", "--control", "drop-zlite-workspace"])
    human = capsys.readouterr().out
    assert "not-reproduced" not in human and "on gate workspace (zsys/build.rs)" in human, human


def test_prove_replay_runs_a_full_build_for_a_bundled_static_library_and_says_why(tmp_path, monkeypatch, capsys):
    """Deleting the directive for real breaks the link: the full run `--replay` falls back to catches it.
    A control on a C source (the libz-sys trial's) falls back too, and says why."""
    ws = ccsys_at(tmp_path / "ccsys", WORKSPACE_GATE, DELETE_LINE_CONTROL)
    monkeypatch.chdir(ws)
    rc = main(["prove", "-q", "--replay", "--control", "delete-zlite-line", "--control", "rename-checksum"])
    human = capsys.readouterr().out
    assert rc == 0, human
    assert human.count("caught  delete-zlite-line") == 2 and human.count("caught  rename-checksum") == 2, human
    flat = " ".join(human.split())
    why = ("note: --replay: a full run judged it because the mutation removes "
           "cargo:rustc-link-lib=static=zlite, which rustc bundles into zsys's rlib")
    assert flat.count(why) == 2, human
    why = ("note: --replay: a full run judged it because zsys/vendor/zlite/checksum.c "
           "is not a package's build script")
    assert flat.count(why) == 2, human

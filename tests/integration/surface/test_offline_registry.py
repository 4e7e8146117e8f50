"""The static surface needs no registry: a dependency that cannot resolve offline
falls back to the workspace members, and says so once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.cli import main


def test_unresolvable_registry_dependency_falls_back_to_members(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    (ws / "native").mkdir(parents=True)
    (ws / "src").mkdir()
    (ws / "Cargo.toml").write_text(
        '[package]\nname = "rt"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\nsome-registry-crate-that-is-not-cached = "1"\n')
    (ws / "build.rs").write_text(
        'fn main() {\n    println!("cargo:rerun-if-changed=native/rt.c");\n'
        '    println!("cargo:rustc-link-lib=static=rt");\n}\n')
    (ws / "native" / "rt.c").write_text("int rt(void) { return 1; }\n")
    (ws / "src" / "lib.rs").write_text("")
    (ws / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build", "--release"]\n')
    monkeypatch.chdir(ws)
    assert main(["surface", "g", "--static", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    paths = {p["path"] for p in doc["paths"]}
    assert {"build.rs", "native/rt.c"} <= paths
    notes = [n for n in doc["notes"] if "could not resolve dependencies offline" in n]
    assert len(notes) == 1 and str(ws) in notes[0] and "--no-deps" in notes[0]

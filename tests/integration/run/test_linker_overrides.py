"""A setting that selects another linker than a leg's is found, and both matrix modes agree.

Real cargo and real linkers on a tiny crate: each source that can select the linker
(the environment's rustflags in both spellings, a cargo config's target rustflags,
target linker and build.rustflags, a build script's rustc-link-arg) is set to mold.
A leg whose linker still wins is `linked` with a proof naming each file and the
marks read from it; a leg the setting overrides is `linker-overridden` naming where
the setting is; and rebuild and replay modes give the same verdicts.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())
TRIPLE = next(ln.split()[1] for ln in subprocess.run(["rustc", "-vV"], capture_output=True, text=True,
                                                     check=True).stdout.splitlines() if ln.startswith("host:"))
LINKERS = ["default", "bfd", "gold", "lld", "mold"]
MOLD_CC = '#!/bin/sh\nexec cc "$@" -fuse-ld=mold\n'


def tiny(ws: Path, mode: str, *, build_rs: str | None = None) -> None:
    (ws / "src").mkdir(parents=True)
    (ws / "Cargo.toml").write_text('[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n'
                                   + ('build = "build.rs"\n' if build_rs else "") + "\n[workspace]\n")
    (ws / "src" / "main.rs").write_text('fn main() { println!("hi"); }\n')
    if build_rs:
        (ws / "build.rs").write_text(build_rs)
    (ws / "linkgate.toml").write_text(
        f'[[gate]]\nname = "tiny"\ncargo = ["build", "--bin", "tiny"]\nlinkers = {json.dumps(LINKERS)}\n'
        f'linker-matrix = "{mode}"\n')


def config(ws: Path, text: str) -> Path:
    (ws / ".cargo").mkdir(exist_ok=True)
    path = ws / ".cargo" / "config.toml"
    path.write_text(text)
    return path


def setup_source(source: str, ws: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Put mold in through *source*; returns the text the overridden legs must name."""
    if source == "env-rustflags":
        monkeypatch.setenv("RUSTFLAGS", "-C link-arg=-fuse-ld=mold")
        return "environment variable RUSTFLAGS"
    if source == "env-encoded":
        monkeypatch.setenv("CARGO_ENCODED_RUSTFLAGS", "-Clink-arg=-fuse-ld=mold")
        return "environment variable CARGO_ENCODED_RUSTFLAGS"
    if source == "config-target-rustflags":
        path = config(ws, f'# mold for speed\n[target.{TRIPLE}]\nrustflags = ["-C", "link-arg=-fuse-ld=mold"]\n')
        return f"{path}:3: target.{TRIPLE}.rustflags"
    if source == "config-build-rustflags":
        path = config(ws, '[build]\njobs = 2\nrustflags = "-Clink-arg=-fuse-ld=mold"\n')
        return f"{path}:3: build.rustflags"
    if source == "config-target-linker":
        script = ws / "mold-cc.sh"
        script.write_text(MOLD_CC)
        script.chmod(0o755)
        path = config(ws, f'[target.{TRIPLE}]\nlinker = "mold-cc.sh"\n')
        monkeypatch.setenv("PATH", f"{ws}:{__import__('os').environ['PATH']}")
        return f"{path}:2: target.{TRIPLE}.linker"
    raise AssertionError(source)


# Which legs each source overrides (the others' linker still wins).
OVERRIDDEN = {
    "env-rustflags": {"default"},
    "env-encoded": {"default"},
    "config-target-rustflags": {"default"},
    "config-build-rustflags": {"default"},
    # A script around cc that adds -fuse-ld=mold: the mold leg is really mold's.
    "config-target-linker": {"default", "bfd", "gold", "lld"},
    "build-script": {"default", "bfd", "gold", "lld"},
}
FAMILIES = {"default": {"lld"}, "bfd": set(), "gold": {"gold"}, "lld": {"lld"}, "mold": {"mold"}}
BUILD_RS = 'fn main() {\n    println!("cargo:rustc-link-arg=-fuse-ld=mold");\n}\n'


def run_doc(ws: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    import jsonschema

    monkeypatch.chdir(ws)
    code = main(["run", "-q", "--no-history", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return code, doc


@pytest.mark.parametrize("source", sorted(OVERRIDDEN))
def test_each_override_source_in_both_modes(source, tmp_path, monkeypatch, capsys):
    verdicts = {}
    for mode in ("rebuild", "replay"):
        ws = tmp_path / mode
        tiny(ws, mode, build_rs=BUILD_RS if source == "build-script" else None)
        with monkeypatch.context() as m:
            where = (f"{ws / 'build.rs'}:2" if source == "build-script" else setup_source(source, ws, m))
            code, doc = run_doc(ws, m, capsys)
            if mode == "rebuild":
                # `linkgate replay` of each leg's own recording judges as the run did.
                for ln in LINKERS:
                    main(["replay", "tiny", "--linker", ln, "--format", "json"])
                    replayed = json.loads(capsys.readouterr().out)["results"][0]
                    want = "linker-overridden" if ln in OVERRIDDEN[source] else "linked"
                    assert replayed["verdict"] == want, (ln, replayed)
                    if want == "linked":
                        assert replayed["proof"] and all(p["names_linker"] for p in replayed["proof"]), replayed
        by = {r["linker"]: r for r in doc["results"]}
        for ln, r in by.items():
            if ln in OVERRIDDEN[source]:
                assert r["verdict"] == "linker-overridden" and not r["proven"], (mode, ln, r)
                assert where in r["messages"][0] and "mold" in r["messages"][0], (mode, ln, r["messages"])
                assert r["overrides"] and r["overrides"][0]["source"].startswith(
                    where if source != "build-script" else "the build script of tiny"), r["overrides"]
            else:
                assert (r["verdict"], r["proven"]) == ("linked", True), (mode, ln, r)
                assert r["proof"] and all(p["names_linker"] and p["new"] for p in r["proof"]), (mode, ln, r["proof"])
                families = {m["family"] for p in r["proof"] for m in p["marks"]}
                assert families == FAMILIES[ln], (mode, ln, r["proof"])
        assert code == 3
        verdicts[mode] = {ln: r["verdict"] for ln, r in by.items()}
    assert verdicts["rebuild"] == verdicts["replay"]


def test_without_overrides_every_leg_is_proven_by_its_marks_in_both_modes(tmp_path, monkeypatch, capsys):
    for mode in ("rebuild", "replay"):
        ws = tmp_path / mode
        tiny(ws, mode)
        code, doc = run_doc(ws, monkeypatch, capsys)
        assert code == 0
        for r in doc["results"]:
            assert (r["verdict"], r["proven"]) == ("linked", True), r
            families = {m["family"] for p in r["proof"] for m in p["marks"]}
            assert r["proof"] and families == FAMILIES[r["linker"]], r

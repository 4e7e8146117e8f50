"""A `command = [...]` gate is `linked` only on a link the recording wrapper saw in this run
(real cargo and linkers): `cargo check` through a command never passes, whatever it exits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lgtest import LINK_SH, git_repo, toml_str

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())


def run(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        *args: str) -> tuple[int, list[dict]]:  # type: ignore[type-arg]
    import jsonschema

    monkeypatch.chdir(root)
    rc = main(["run", "-q", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc["results"]


def gate(ws: Path, command: str, linkers: str = '["default"]') -> Path:
    (ws / "linkgate.toml").write_text(f'[[gate]]\nname = "cmd"\ncommand = {command}\nlinkers = {linkers}\n')
    git_repo(ws)
    return ws


def test_cargo_check_through_a_command_is_never_linked(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # cargo check links the build script (recorded by the wrapper) and nothing else.
    ws = gate(demo_workspace, '["cargo", "check", "--all-targets"]', '["default", "bfd"]')
    rc, results = run(ws, monkeypatch, capsys)
    assert rc == 3
    for r in results:
        assert r["verdict"] == "error"
        assert r["linked"] == [] and r["proven"] is False
        assert r["messages"][0].startswith("nothing linked: cargo exited 0")
    # The wrapper did see the build script's link: it is not the gate's.
    assert any("build_script_build" in (ln["output"] or "") for r in results for ln in r["links"])


def test_cargo_check_of_a_proc_macro_is_never_linked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """cargo check links a proc-macro's shared object: it is not a link the gate makes."""
    ws = tmp_path / "pm"
    (ws / "mac" / "src").mkdir(parents=True)
    (ws / "app" / "src").mkdir(parents=True)
    (ws / "Cargo.toml").write_text('[workspace]\nmembers = ["mac", "app"]\nresolver = "2"\n')
    (ws / "mac" / "Cargo.toml").write_text(
        '[package]\nname = "mac"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n')
    (ws / "mac" / "src" / "lib.rs").write_text(
        "extern crate proc_macro;\nuse proc_macro::TokenStream;\n"
        "#[proc_macro]\npub fn one(_i: TokenStream) -> TokenStream { \"1\".parse().unwrap() }\n")
    (ws / "app" / "Cargo.toml").write_text(
        '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nmac = { path = "../mac" }\n')
    (ws / "app" / "src" / "main.rs").write_text("fn main() { std::process::exit(mac::one!() - 1); }\n")
    gate(ws, '["cargo", "check"]')
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 3 and res["verdict"] == "error"
    assert any((ln["output"] or "").endswith(".so") for ln in res["links"]), "the proc-macro was linked and recorded"

    # The same workspace built for real links app: linked, and it names what linked.
    (ws / "linkgate.toml").write_text('[[gate]]\nname = "cmd"\ncommand = ["cargo", "build"]\n')
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 0 and res["verdict"] == "linked" and res["proven"] is True
    assert [(a["target"], a["kind"]) for a in res["linked"]] == [("app", "executable")]


def test_a_linking_command_is_linked_and_proven_warm_by_a_forced_relink(
        demo_workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ws = gate(demo_workspace, '["sh", "-c", "cargo test --release --test link_smoke --no-run"]')
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 0 and res["verdict"] == "linked" and res["proven"] is True
    assert "link_smoke" in {a["target"] for a in res["linked"]}
    assert res["forced_relink"] is False

    # Warm: cargo has nothing to do, so linkgate deletes the smallest recorded output and it relinks.
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 0 and res["verdict"] == "linked" and res["proven"] is True
    assert res["forced_relink"] is True and res["linked"]

    # Warm without forcing: a pass that rests on no link is not proven.
    rc, (res,) = run(ws, monkeypatch, capsys, "--no-force-link")
    assert res["verdict"] == "linked" and res["proven"] is False and res["linked"] == []


def test_a_command_that_links_nothing_is_not_linked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    gate(ws, '["sh", "-c", "echo building; echo linked"]')
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 3 and res["verdict"] == "error" and res["linked"] == []
    assert "nothing linked" in res["messages"][0]

    # Through the linker seam rustc uses, a link is seen and the gate is linked.
    (ws / "linkgate.toml").write_text(f'[[gate]]\nname = "cmd"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\n')
    rc, (res,) = run(ws, monkeypatch, capsys)
    assert rc == 0 and res["verdict"] == "linked"
    assert [(a["target"], a["kind"]) for a in res["linked"]] == [("fastlink", "executable")]

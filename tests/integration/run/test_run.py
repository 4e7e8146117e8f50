"""linkgate run against real cargo and real linkers on the demo workspace."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main

DROP_UTIL = ('    "-lnutil",\n', "")
SWAP_ORDER = ('    "-lcore",\n    "-lnutil",\n', '    "-lnutil",\n    "-lcore",\n')


SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())


def run_json(ws: Path, *args: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    """Run in-process; every document must validate against the shipped schema."""
    import jsonschema

    monkeypatch.chdir(ws)
    rc = main(["run", "-q", "--format", "json", *args])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc


def set_linkers(ws: Path, linkers: list[str]) -> None:
    cfg = ws / "linkgate.toml"
    text = cfg.read_text().replace('linkers = ["default", "bfd"]', "linkers = " + json.dumps(linkers))
    cfg.write_text(text)


def by_linker(doc: dict) -> dict[str, dict]:
    return {r["linker"]: r for r in doc["results"]}


def test_links_under_default_and_bfd(demo_workspace, monkeypatch, capsys):
    rc, doc = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0
    assert doc["schema"] == "linkgate.run/1" and doc["status"] == "pass"
    for linker, res in by_linker(doc).items():
        assert res["verdict"] == "linked", res
        assert res["proven"] and not res["forced_relink"]
        targets = {(a["target"], a["kind"]) for a in res["linked"]}
        assert ("link_smoke", "test") in targets
        for a in res["linked"]:
            assert Path(a["path"]).is_file()
        assert res["target_dir"].endswith(f"target/linkgate/smoke/{linker}")


def test_second_run_forces_a_real_relink(demo_workspace, monkeypatch, capsys):
    set_linkers(demo_workspace, ["bfd"])
    rc, first = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0
    rc, second = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0
    res = second["results"][0]
    assert res["verdict"] == "linked" and res["forced_relink"] and res["proven"]
    assert len(res["linked"]) == 1, res["linked"]
    relinked = Path(res["linked"][0]["path"])
    assert relinked.is_file()
    # Only the relinked unit was rebuilt, not the workspace.
    assert res["units_compiled"] == 1
    assert first["results"][0]["units_compiled"] > res["units_compiled"]


def test_no_force_link_marks_fresh_pass_unproven(demo_workspace, monkeypatch, capsys):
    set_linkers(demo_workspace, ["default"])
    assert run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    rc, doc = run_json(demo_workspace, "--no-force-link", monkeypatch=monkeypatch, capsys=capsys)
    res = doc["results"][0]
    assert res["verdict"] == "linked" and not res["proven"] and not res["forced_relink"]
    assert res["linked"] == []
    assert {a["target"] for a in res["up_to_date"]} >= {"link_smoke"}
    monkeypatch.chdir(demo_workspace)
    main(["run", "-q", "--no-force-link"])
    human = capsys.readouterr().out
    assert "NOT proven" in human
    assert "linked link_smoke" not in human


def test_dropped_library_fails_the_gate_but_not_cargo_check(demo_workspace, monkeypatch, capsys, edit):
    edit(demo_workspace / "build.rs", *DROP_UTIL)
    check = subprocess.run(["cargo", "check", "--all-targets"], cwd=demo_workspace, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    rc, doc = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 1 and doc["status"] == "fail"
    for res in doc["results"]:
        assert res["verdict"] == "link-failed"
        assert any("link_smoke" in t for t in res["failed_targets"])
        assert any("util_twice" in ln for ln in res["linker_output"])
        # rustc's elided command line is not linker output
        assert not any("object files omitted" in ln for ln in res["linker_output"])


def test_archive_order_defect_passes_rust_lld_and_fails_gnu_ld(demo_workspace, monkeypatch, capsys, edit):
    edit(demo_workspace / "build.rs", *SWAP_ORDER)
    rc, doc = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    res = by_linker(doc)
    assert res["default"]["verdict"] == "linked"
    assert res["bfd"]["verdict"] == "link-failed"
    assert any("undefined reference to `util_twice'" in ln for ln in res["bfd"]["linker_output"])
    assert rc == 1


def test_rust_syntax_error_is_compile_failed(demo_workspace, monkeypatch, capsys, edit):
    edit(demo_workspace / "tests" / "link_smoke.rs", "fn native_recipe_links() {", "fn native_recipe_links() { let = ;")
    rc, doc = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 3
    for res in doc["results"]:
        assert res["verdict"] == "compile-failed"
        # the bin compiled and linked; the test harness never reached the linker
        assert "link_smoke" not in {a["target"] for a in res["linked"]}
        assert any("expected" in m for m in res["messages"])
    # Compiled once, under the first linker; bfd says it was not built, and why.
    by = {r["linker"]: r for r in doc["results"]}
    assert by["bfd"]["messages"][0].startswith("not built under bfd: the build under default failed to compile")
    monkeypatch.chdir(demo_workspace)
    main(["run", "-q"])
    assert "not a link verdict" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("linker", "comment"),
    [("gold", None), ("mold", "mold"), ("lld", "Debian LLD"), ("default", "LLD")],
)
def test_each_linker_really_links(demo_workspace, monkeypatch, capsys, linker, comment):
    set_linkers(demo_workspace, [linker])
    rc, doc = run_json(demo_workspace, monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0, doc
    res = doc["results"][0]
    assert res["verdict"] == "linked"
    exe = next(a["path"] for a in res["linked"] if a["target"] == "link_smoke")
    sections = subprocess.run(["readelf", "-W", "-S", "-p", ".comment", exe], capture_output=True, text=True).stdout
    if linker == "gold":
        assert ".note.gnu.gold-version" in sections
    else:
        assert comment in sections


def test_bad_cargo_arguments_are_an_error(demo_workspace, monkeypatch, capsys):
    cfg = demo_workspace / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('"--no-run"]', '"--no-run", "--no-such-flag"]'))
    rc, doc = run_json(demo_workspace, "--linker", "default", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 3
    res = doc["results"][0]
    assert res["verdict"] == "error"
    assert "--no-such-flag" in res["messages"][0]


def test_cargo_missing_is_an_error(demo_workspace, monkeypatch, capsys, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    rc, doc = run_json(demo_workspace, "--linker", "default", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 3
    assert doc["results"][0]["verdict"] == "error"
    assert "cargo is not installed" in doc["results"][0]["messages"][0]


def test_command_gate_verdicts(tmp_path, monkeypatch, capsys):
    from lgtest import LINK_SH, toml_str

    (tmp_path / "linkgate.toml").write_text(
        f'[[gate]]\nname = "ok"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\n\n'
        '[[gate]]\nname = "silent"\ncommand = ["sh", "-c", "echo building"]\n\n'
        '[[gate]]\nname = "bad"\ncommand = ["sh", "-c", "echo \\"/usr/bin/ld: cannot find -lfoo: No such file or directory\\" >&2; exit 1"]\n\n'
        '[[gate]]\nname = "broken"\ncommand = ["sh", "-c", "echo \\"make: *** no rule\\" >&2; exit 2"]\n'
    )
    monkeypatch.chdir(tmp_path)
    rc = main(["run", "-q", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    res = {r["gate"]: r for r in doc["results"]}
    assert res["ok"]["verdict"] == "linked" and res["ok"]["proven"]
    assert res["silent"]["verdict"] == "error" and "nothing linked" in res["silent"]["messages"][0]
    assert res["bad"]["verdict"] == "link-failed"
    assert res["broken"]["verdict"] == "compile-failed"
    assert rc == 1


def test_unknown_gate_name_is_usage_error(demo_workspace, monkeypatch, capsys):
    monkeypatch.chdir(demo_workspace)
    assert main(["run", "smok"]) == 2
    err = capsys.readouterr().err
    assert "no gate named 'smok'" in err and "did you mean 'smoke'" in err


def test_github_actions_annotations_and_summary(demo_workspace, monkeypatch, capsys, edit, tmp_path):
    edit(demo_workspace / "build.rs", *DROP_UTIL)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.chdir(demo_workspace)
    rc = main(["run", "-q", "--linker", "bfd"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "::error" in out
    assert "link-failed" in summary.read_text() or "link" in summary.read_text()


def test_github_actions_keeps_json_stdout_parseable(demo_workspace, monkeypatch, capsys, edit, tmp_path):
    edit(demo_workspace / "build.rs", *DROP_UTIL)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.chdir(demo_workspace)
    rc = main(["run", "-q", "--linker", "default", "--format", "json"])
    captured = capsys.readouterr()
    assert rc == 1
    assert json.loads(captured.out)["status"] == "fail"
    assert "::error" in captured.err

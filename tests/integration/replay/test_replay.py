"""linkgate replay on the demo: links again without cargo, refuses stale inputs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from demotest import copy_demo

from linkgate.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())


def linkgate_json(ws: Path, *args: str, monkeypatch, capsys) -> tuple[int, dict]:
    import jsonschema

    monkeypatch.chdir(ws)
    rc = main([*args, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)
    return rc, doc


def set_linkers(ws: Path, linkers: list[str]) -> None:
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', "linkers = " + json.dumps(linkers)))


@pytest.mark.parametrize("linker", ["default", "bfd", "gold", "mold", "lld"])
def test_replay_of_a_fresh_run_links(tmp_path, monkeypatch, capsys, linker):
    ws = copy_demo(tmp_path / "ws")
    set_linkers(ws, [linker])
    rc, ran = linkgate_json(ws, "run", "-q", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0
    rc, doc = linkgate_json(ws, "replay", "smoke", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0, doc
    [res] = doc["results"]
    assert res["replayed"] is True and res["verdict"] == "linked" and res["linker"] == linker
    assert {a["target"] for a in res["linked"]} == {"link_smoke", "nativelink"}
    assert all(ln["exit_status"] == 0 and ln["seconds"] > 0 for ln in res["links"])
    # the replay wrote elsewhere: cargo's artifacts are untouched
    for a in ran["results"][0]["linked"]:
        assert Path(a["path"]).is_file()
        assert not any(ln["output"] == a["path"] for ln in res["links"])


def test_replay_refuses_an_archive_rebuilt_by_hand(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    set_linkers(ws, ["bfd"])
    assert linkgate_json(ws, "run", "-q", monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    [out] = (ws / "target/linkgate/smoke/bfd/release/build").glob("nativelink-*/out")
    (ws / "native" / "nutil.c").write_text("int util_twice(int x) { return x + x; }\n")
    subprocess.run(["cc", "-c", "-fPIC", "native/nutil.c", "-o", str(out / "nutil.o")], cwd=ws, check=True)
    (out / "libnutil.a").unlink()
    subprocess.run(["ar", "crs", str(out / "libnutil.a"), str(out / "nutil.o")], check=True)
    monkeypatch.chdir(ws)
    rc = main(["replay", "smoke"])
    err = capsys.readouterr().err
    assert rc == 3
    assert f"{out}/libnutil.a changed" in err
    assert "run the gate again" in err
    assert "libcore.a" not in err


def test_replay_without_a_recording_says_run_first(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    monkeypatch.chdir(ws)
    rc = main(["replay", "smoke", "--linker", "bfd"])
    err = capsys.readouterr().err
    assert rc == 3 and "no recorded link" in err and "linkgate run smoke --linker bfd" in err


def test_replay_diagnoses_like_run(tmp_path, monkeypatch, capsys):
    """A recording of a failed link replays to the same verdict and diagnostics."""
    ws = copy_demo(tmp_path / "ws")
    set_linkers(ws, ["bfd"])
    build = ws / "build.rs"
    build.write_text(build.read_text().replace('    "-lnutil",\n', ""))
    rc, ran = linkgate_json(ws, "run", "-q", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 1
    rc, doc = linkgate_json(ws, "replay", "smoke", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 1
    run_res, rep = ran["results"][0], doc["results"][0]
    assert rep["verdict"] == "link-failed" and rep["replayed"]
    assert [(d["kind"], d["symbol"]) for d in rep["diagnostics"]] == [
        (d["kind"], d["symbol"]) for d in run_res["diagnostics"]]
    assert any("util_twice" in ln for ln in rep["linker_output"])


def test_replay_reads_the_recorded_response_file(tmp_path):
    """rustc's @file is gone after the link; the record's expansion replays it."""
    import os

    from linkgate.gate import wrapper
    from linkgate.gate.linkrecord import read_records
    from linkgate.replay import command

    tdir = tmp_path / "t"
    exe = wrapper.ensure(tdir, os.environ)
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["cc", "-c", "main.c", "-o", "main.o"], cwd=tmp_path, check=True)
    (tmp_path / "rsp").write_text("main.o -o prog\n")
    env = dict(os.environ, LINKGATE_REAL_LINKER="cc")
    subprocess.run([str(exe), "@rsp"], cwd=tmp_path, env=env, check=True)
    (tmp_path / "rsp").unlink()
    (tmp_path / "main.o").unlink()  # as rustc deletes its objects
    [rec] = read_records(tdir)
    cmd = command.build(rec, str(tmp_path / "again"))
    assert "@rsp" not in cmd.argv
    done = subprocess.run(cmd.argv, cwd=cmd.cwd, env=cmd.env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "again").is_file()


def test_replay_names_no_path_in_its_deleted_temporary_directory(tmp_path, monkeypatch, capsys):
    ws = copy_demo(tmp_path / "ws")
    set_linkers(ws, ["bfd"])
    assert linkgate_json(ws, "run", "-q", monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    rc, doc = linkgate_json(ws, "replay", "smoke", monkeypatch=monkeypatch, capsys=capsys)
    assert rc == 0
    [res] = doc["results"]
    assert [ln["output"] for ln in res["links"]] == [None] * len(res["links"])
    assert {a["path"] for a in res["linked"]} == {""}
    assert main(["replay", "smoke"]) == 0
    out = capsys.readouterr().out
    assert "linkgate-replay-" not in out and "linked link_smoke (test)\n" in out
    assert "their outputs were deleted with the temporary directory" in out


@pytest.mark.parametrize("damage", ["argv of another type", "inputs of another type", "truncated", "deleted"])
def test_replay_refuses_a_run_whose_link_records_cannot_all_be_read(tmp_path, monkeypatch, capsys, damage):
    """A record skipped as unreadable left a replay of the other links only (a pass judged on
    less than the run linked), or an internal error when a field had another type."""
    ws = copy_demo(tmp_path / "ws")
    set_linkers(ws, ["default"])
    assert linkgate_json(ws, "run", "-q", monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    folder = ws / "target/linkgate/smoke/default/linkgate-links"
    state = json.loads((folder / "last-run.state").read_text())
    test_link = next(ln["record"] for ln in state["links"] if ln["target"] == "link_smoke")
    record = folder / f"{test_link}.json"
    doc = json.loads(record.read_text())
    if damage == "deleted":
        record.unlink()
    elif damage == "truncated":
        record.write_text(record.read_text()[:100])
    else:
        doc["argv" if damage.startswith("argv") else "inputs"] = [5] if damage.startswith("argv") else [None]
        record.write_text(json.dumps(doc))
    for command in (["replay", "smoke"], ["sweep", "smoke"]):
        rc = main(command)
        err = capsys.readouterr().err
        assert rc == 3, (command, err)
        assert "link records of the last run of 'smoke' under default cannot be read" in err, err
        assert str(record) in err and "internal error" not in err

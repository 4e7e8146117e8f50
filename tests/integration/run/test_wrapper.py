"""The recording linker wrapper changes nothing about a link, and records it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from linkgate import config as config_mod
from linkgate.gate import wrapper
from linkgate.gate.linkrecord import read_records
from linkgate.gate.run import run_gate

DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"
DROP_UTIL = ('    "-lnutil",\n', "")


def copy_demo(dest: Path) -> Path:
    shutil.copytree(DEMO, dest, ignore=shutil.ignore_patterns("target"))
    return dest


def gate_of(ws: Path, linker: str):
    cfg = config_mod.load(ws / "linkgate.toml", root=ws)
    return cfg, cfg.gate("smoke")


def smoke_exe(res) -> Path:
    return Path(next(a["path"] for a in res.to_dict()["linked"] if a["target"] == "link_smoke"))


def needed(exe: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(exe)], capture_output=True, text=True, check=True).stdout
    return sorted(ln.split("[", 1)[1].rstrip("]") for ln in out.splitlines() if "(NEEDED)" in ln)


def undefined_dynamic(exe: Path) -> list[str]:
    out = subprocess.run(["nm", "-D", "--undefined-only", str(exe)], capture_output=True, text=True, check=True)
    return sorted(ln.split()[-1] for ln in out.stdout.splitlines() if ln.strip())


def linker_comment(exe: Path) -> str:
    out = subprocess.run(["readelf", "-W", "-S", "-p", ".comment", str(exe)], capture_output=True, text=True)
    if ".note.gnu.gold-version" in out.stdout:
        return "gold"
    lines = [ln for ln in out.stdout.splitlines() if "Linker:" in ln or "mold" in ln]
    return lines[0].split("]", 1)[1].split("(")[0].strip() if lines else "GNU ld"


@pytest.mark.parametrize("linker", ["default", "bfd", "gold", "mold", "lld"])
def test_same_link_with_and_without_the_wrapper(tmp_path, linker):
    outcomes = {}
    for recorded in (False, True):
        ws = copy_demo(tmp_path / f"ws-{recorded}")
        cfg, gate = gate_of(ws, linker)
        res = run_gate(cfg, gate, linker, record_links=recorded)
        assert res.verdict == "linked", res.to_dict()
        exe = smoke_exe(res)
        records = read_records(Path(res.target_dir))
        assert bool(records) == recorded
        linked = (needed(exe), undefined_dynamic(exe), linker_comment(exe))
        (ws / "build.rs").write_text((ws / "build.rs").read_text().replace(*DROP_UTIL))
        broken = run_gate(cfg, gate, linker, record_links=recorded)
        outcomes[recorded] = (*linked, broken.verdict, sorted(d.kind for d in broken.diagnostics))
    assert outcomes[True] == outcomes[False]
    assert outcomes[True][3] == "link-failed"
    assert "libhelper.so" in outcomes[True][0]


def test_records_each_link_and_a_warm_rerun_stays_warm(tmp_path):
    ws = copy_demo(tmp_path / "ws")
    cfg, gate = gate_of(ws, "bfd")
    first = run_gate(cfg, gate, "bfd")
    assert first.verdict == "linked"
    tdir = Path(first.target_dir)
    records = read_records(tdir)
    outputs = {r.output for r in records}
    assert {ln["target"] for ln in first.links} >= {"link_smoke", "nativelink", "build-script-build"}
    smoke = next(r for r in records if r.output == str(smoke_exe(first)))
    assert smoke.argv[0] == "cc" and smoke.exit_status == 0 and smoke.ended >= smoke.started
    assert smoke.cwd and "PATH" in smoke.env
    assert "-lnutil" in smoke.argv and "-Clinker-features=-lld" not in smoke.argv
    # rustc deleted its objects after the link; the wrapper kept them.
    assert smoke.preserved and all(Path(k).is_file() and not Path(o).exists() for o, k in smoke.preserved.items())
    assert any(i["path"].endswith("libnutil.a") for i in smoke.inputs)
    doc = first.to_dict()
    assert {ln["output"] for ln in doc["links"]} == outputs
    assert all(ln["seconds"] > 0 for ln in doc["links"])

    second = run_gate(cfg, gate, "bfd")
    assert second.verdict == "linked" and second.forced_relink
    assert second.units_compiled == 1  # only the forced relink: the wrapper path did not change
    assert [ln["target"] for ln in second.links] == [a.target for a in second.linked]


def test_failed_link_is_recorded_with_its_status(tmp_path):
    ws = copy_demo(tmp_path / "ws")
    (ws / "build.rs").write_text((ws / "build.rs").read_text().replace(*DROP_UTIL))
    cfg, gate = gate_of(ws, "bfd")
    res = run_gate(cfg, gate, "bfd")
    assert res.verdict == "link-failed"
    failed = [ln for ln in res.links if ln["exit_status"] != 0]
    assert failed and all("link_smoke" in ln["output"] or "nativelink" in ln["output"] for ln in failed)


def test_configured_target_linker_is_what_runs(tmp_path):
    ws = copy_demo(tmp_path / "ws")
    log = tmp_path / "mycc.log"
    script = ws / "tools" / "mycc"
    script.parent.mkdir()
    script.write_text(f"#!/bin/sh\necho called >> {log}\nexec cc \"$@\"\n")
    script.chmod(0o755)
    triple = wrapper.host_triple()
    (ws / ".cargo").mkdir()
    (ws / ".cargo" / "config.toml").write_text(f'[target.{triple}]\nlinker = "tools/mycc"\n')
    cfg, gate = gate_of(ws, "default")
    res = run_gate(cfg, gate, "default")
    assert res.verdict == "linked", res.to_dict()
    assert log.read_text().count("called") == len(res.links) >= 2
    assert all(r.argv[0] == str(script) for r in read_records(Path(res.target_dir)))


def test_response_file_is_expanded_for_the_record_and_passed_untouched(tmp_path):
    tdir = tmp_path / "t"
    exe = wrapper.ensure(tdir, os.environ)
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "main o.c").write_text("int helper(void) { return 1; }\n")
    subprocess.run(["cc", "-c", "main.c", "-o", "main.o"], cwd=tmp_path, check=True)
    subprocess.run(["cc", "-c", "main o.c", "-o", "main o.o"], cwd=tmp_path, check=True)
    # GCC syntax: a backslash escapes the space in the second object's name.
    (tmp_path / "args").write_text("main.o\nmain\\ o.o\n-o\n'prog out'\n")
    env = dict(os.environ, LINKGATE_REAL_LINKER="cc")
    env.pop("LINKGATE_LINKS_DIR", None)
    subprocess.run([str(exe), "@args"], cwd=tmp_path, env=env, check=True)
    assert (tmp_path / "prog out").is_file()
    [rec] = read_records(tdir)
    assert rec.argv == ("cc", "@args")
    assert rec.args == ("main.o", "main o.o", "-o", "prog out")
    assert rec.output == str(tmp_path / "prog out")
    assert set(rec.preserved) == {str(tmp_path / "main.o"), str(tmp_path / "main o.o")}
    # a failing link keeps its exit status and output
    bad = subprocess.run([str(exe), "missing.o", "-o", "x"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "missing.o" in bad.stderr
    statuses = sorted(r.exit_status for r in read_records(tdir))
    assert statuses == [0, 1]
    doc = json.loads(read_records(tdir)[-1].path.read_text())
    assert "args_expanded" not in doc

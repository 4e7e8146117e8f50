"""run/prove record history, history import merges other runners, cost reads it all.

Real cargo, real GNU ld, real git and real SQLite on the cc-style -sys fixture.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
from pathlib import Path

import jsonschema
import pytest

from linkgate.cli import main
from lgtest import LINK_SH, git, git_repo, sha, toml_str

ROOT = Path(__file__).resolve().parents[3]
CCSYS = ROOT / "tests" / "fixtures" / "ccsys"
RUN_SCHEMA = json.loads((ROOT / "src/linkgate/data/schemas/run-1.json").read_text())


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(CCSYS, dest, ignore=shutil.ignore_patterns("target", ".linkgate"))
    cfg = dest / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["bfd"]'))
    (dest / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(dest)
    monkeypatch.chdir(dest)
    for var in ("RUNNER_NAME", "LINKGATE_HISTORY", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "GITHUB_SHA"):
        monkeypatch.delenv(var, raising=False)
    return dest


def lg(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def run_doc(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    rc, out, err = lg(capsys, "run", "-q", "--format", "json", *args)
    assert rc == 0, out + err
    doc = json.loads(out)
    jsonschema.validate(doc, RUN_SCHEMA, cls=jsonschema.Draft202012Validator)
    return doc


def cost_doc(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    rc, out, err = lg(capsys, "cost", "--format", "json", *args)
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["schema"] == "linkgate.cost/1"
    return doc


def test_one_cold_and_two_warm_runs(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [run_doc(capsys)["results"][0] for _ in range(3)]
    cold, warm = runs[0], runs[1:]
    assert cold["cold"] is True and all(w["cold"] is False for w in warm)
    # Structural, not timed: the cold run compiles every unit and reuses none; a
    # warm run reuses units and rebuilds only the executable it forces to relink.
    assert cold["units_fresh"] == 0 and cold["units_compiled"] >= 3
    for w in warm:
        assert w["forced_relink"] and w["units_compiled"] == 1 and w["units_fresh"] > 0
        # ... and links less: the cold run also links the build script.
        assert len(w["links"]) < len(cold["links"])
    assert any(link["target"] == "build-script-build" for link in cold["links"])
    head = git(ws, "rev-parse", "HEAD").strip()
    for r in runs:
        assert r["commit"] == head and r["branch"] == "main"
        assert r["host"] == socket.gethostname() and r["runner"] is None
        assert r["directives_digest"] == cold["directives_digest"] is not None
        # Every run linked at least the test executable, through the recording wrapper.
        assert r["link_s"] > 0 and r["links"]
        assert r["link_s"] <= sum(link["seconds"] for link in r["links"]) + 1e-4  # JSON rounds to 4 places
        assert r["compile_s"] + r["link_s"] <= r["duration_s"] + 1e-3
    assert len({r["run_id"] for r in runs}) == 3

    doc = cost_doc(capsys)
    [entry] = doc["entries"]
    assert (entry["gate"], entry["linker"], entry["runs"]) == ("calls", "bfd", 3)
    assert entry["cold"]["count"] == 1 and entry["warm"]["count"] == 2
    assert entry["link_s_median"] > 0 and entry["compile_s_median"] is not None
    assert entry["cold"]["max_s"] == pytest.approx(cold["duration_s"], abs=2e-3)
    assert entry["recommended_timeout_minutes"] * 60 > entry["cold"]["max_s"]
    assert entry["runners"] == [socket.gethostname()]
    assert "cold run" in entry["reason"]
    assert doc["history"] == str(ws / ".linkgate" / "history.sqlite")

    # The history rows are the JSON documents' runs, under the same ids.
    conn = sqlite3.connect(ws / ".linkgate" / "history.sqlite")
    ids = {i for (i,) in conn.execute("SELECT run_id FROM runs WHERE kind = 'run'")}
    assert ids == {r["run_id"] for r in runs}
    for wall, link, comp in conn.execute("SELECT wall_s, link_s, compile_s FROM runs"):
        assert link > 0 and comp + link <= wall + 1e-9


def test_import_from_another_runner_is_idempotent(ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    run_doc(capsys)
    monkeypatch.setenv("RUNNER_NAME", "gpu-7")
    files = []
    for n in range(2):
        doc = run_doc(capsys, "--no-history")
        assert doc["results"][0]["runner"] == "gpu-7"
        path = tmp_path / f"artifact-{n}.json"
        path.write_text(json.dumps(doc))
        files.append(str(path))
    monkeypatch.delenv("RUNNER_NAME")
    assert cost_doc(capsys)["entries"][0]["runs"] == 1  # --no-history wrote nothing

    rc, out, err = lg(capsys, "history", "import", *files)
    assert rc == 0, err
    assert "imported 2 new runs from 2 files" in out
    [entry] = cost_doc(capsys)["entries"]
    assert entry["runs"] == 3
    assert entry["runners"] == sorted(["gpu-7", socket.gethostname()])

    rc, out, err = lg(capsys, "history", "import", *files, *files)
    assert rc == 0 and "imported 0 new runs" in out and "(4 already present)" in out
    assert cost_doc(capsys)["entries"][0]["runs"] == 3
    rc, out, _ = lg(capsys, "cost")
    assert rc == 0 and "gpu-7" in out


def test_malformed_import_names_the_file_and_imports_nothing(ws: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(run_doc(capsys, "--no-history")))
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": "linkgate.run/1", "results": [')
    rc, _, err = lg(capsys, "history", "import", str(good), str(broken))
    assert rc == 2
    assert err.count("linkgate: error:") == 1 and f"{broken}:1:" in err and "nothing was imported" in err
    assert "Traceback" not in err

    old = json.loads(good.read_text())
    del old["results"][0]["run_id"]
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps(old))
    rc, _, err = lg(capsys, "history", "import", str(good), str(stale))
    assert rc == 2 and f"{stale}: results[0].run_id: missing" in err

    prove_doc = tmp_path / "prove.json"
    prove_doc.write_text(json.dumps({"schema": "linkgate.prove/1", "controls": []}))
    rc, _, err = lg(capsys, "history", "import", str(prove_doc))
    assert rc == 2 and str(prove_doc) in err and "linkgate.prove/1" in err
    assert not (ws / ".linkgate" / "history.sqlite").exists()


def test_foreign_history_stops_run_before_building(ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    foreign = tmp_path / "notes.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    before = sha(foreign)
    monkeypatch.setenv("LINKGATE_HISTORY", str(foreign))
    for verb in ("run", "cost"):
        rc, _, err = lg(capsys, verb, "-q" if verb == "run" else "--format=human")
        assert rc == 2, err
        assert f"{foreign}: not a linkgate history" in err and "Traceback" not in err
    assert not (ws / "target").exists()
    assert sha(foreign) == before


def test_history_flag_and_no_history(ws: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    run_doc(capsys, "--no-history")
    # .linkgate/ holds run's lock; the history file is what --no-history leaves out.
    assert not (ws / ".linkgate" / "history.sqlite").exists()
    rc, out, _ = lg(capsys, "cost")
    assert rc == 0 and "no history at" in out
    assert not (ws / ".linkgate" / "history.sqlite").exists()  # reading never creates the file

    elsewhere = tmp_path / "ci" / "h.sqlite"
    monkeypatch.setenv("LINKGATE_HISTORY", str(tmp_path / "env.sqlite"))
    run_doc(capsys, "--history", str(elsewhere))  # the flag beats the environment
    assert elsewhere.exists() and not (tmp_path / "env.sqlite").exists()
    assert cost_doc(capsys, "--history", str(elsewhere))["entries"][0]["runs"] == 1
    run_doc(capsys)
    assert cost_doc(capsys)["history"] == str(tmp_path / "env.sqlite")

    rc, _, err = lg(capsys, "cost", "nope", "--history", str(elsewhere))
    assert rc == 2 and "no recorded run of gate 'nope'" in err and "calls" in err


def test_budget_adds_a_trigger_recommendation(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_doc(capsys)
    run_doc(capsys)
    doc = cost_doc(capsys, "calls", "--budget-minutes-per-pr", "30")
    [trigger] = doc["triggers"]
    assert trigger["gate"] == "calls" and trigger["recommendation"] == "every-pr"
    assert "budget of 30 min" in trigger["reasoning"]
    assert "triggers" not in cost_doc(capsys)
    rc, out, _ = lg(capsys, "cost", "--budget-minutes-per-pr", "30")
    assert rc == 0 and "every-pr" in out


def test_prove_records_one_row_per_control_and_linker(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = lg(capsys, "prove", "-q", "--format", "json")
    assert rc == 0, out + err
    conn = sqlite3.connect(ws / ".linkgate" / "history.sqlite")
    rows = conn.execute("SELECT kind, gate, linker, verdict, control, units_rebuilt, commit_sha FROM runs").fetchall()
    assert rows == [("prove", "calls", "bfd", "caught", "drop-checksum-source", rows[0][5],
                     git(ws, "rev-parse", "HEAD").strip())]
    assert rows[0][5] >= 1
    # prove rows are not gate runs: cost leaves them out.
    assert cost_doc(capsys)["entries"] == []


def test_prove_by_replay_records_its_context(demo_workspace: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    ws = demo_workspace
    cfg = ws / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["bfd"]')
                   + '\n[[gate.control]]\nname = "drop-helper"\ndrop-directive = "-lhelper"\n')
    (ws / ".gitignore").write_text("target/\n.linkgate/\n")
    git_repo(ws)
    monkeypatch.chdir(ws)
    monkeypatch.delenv("RUNNER_NAME", raising=False)
    rc, out, err = lg(capsys, "prove", "-q", "--format", "json", "--control", "drop-helper")
    assert rc == 0, out + err
    assert json.loads(out)["controls"][0]["replayed"] is True
    conn = sqlite3.connect(ws / ".linkgate" / "history.sqlite")
    [(verdict, commit, branch, host, started)] = conn.execute(
        "SELECT verdict, commit_sha, branch, host, started_at FROM runs WHERE control = 'drop-helper'").fetchall()
    assert (verdict, commit, branch, host) == ("caught", git(ws, "rev-parse", "HEAD").strip(), "main",
                                               socket.gethostname())
    assert not started.startswith("1970")


def test_concurrent_linkgate_runs_all_land_their_rows(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = tmp_path / "repo"
    root.mkdir()
    (root / "linkgate.toml").write_text(f'[[gate]]\nname = "quick"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\n')
    git_repo(root)
    loop = f"for i in 1 2 3 4 5; do {sys.executable} -m linkgate run -q --format json > /dev/null || exit 9; done"
    env = {k: v for k, v in os.environ.items() if k != "LINKGATE_HISTORY"}
    procs = [subprocess.Popen(["sh", "-c", loop], cwd=root, env=env, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert "warning" not in err
    conn = sqlite3.connect(root / ".linkgate" / "history.sqlite")
    assert conn.execute("SELECT count(DISTINCT run_id) FROM runs WHERE gate = 'quick'").fetchone()[0] == 10


def test_cost_keeps_to_the_gates_of_its_configuration(tmp_path, monkeypatch, capsys):
    # Two repositories share one history (LINKGATE_HISTORY); each one's cost is its own gates'.
    shared = tmp_path / "shared.sqlite"
    monkeypatch.setenv("LINKGATE_HISTORY", str(shared))
    for name in ("alpha", "beta"):
        root = tmp_path / name
        root.mkdir()
        (root / "linkgate.toml").write_text(
            f'[[gate]]\nname = "{name}-link"\ncommand = ["sh", "-c", {toml_str(LINK_SH)}]\n')
        git_repo(root)
        monkeypatch.chdir(root)
        assert lg(capsys, "run", "-q")[0] == 0
    monkeypatch.chdir(tmp_path / "alpha")
    rc, out, err = lg(capsys, "cost", "--format", "json")
    assert rc == 0, err
    assert [e["gate"] for e in json.loads(out)["entries"]] == ["alpha-link"]
    assert "left out recorded runs of 1 gate(s) that this configuration does not define (beta-link)" in err
    # Named, another configuration's gate is still shown.
    assert [e["gate"] for e in cost_doc(capsys, "beta-link")["entries"]] == ["beta-link"]

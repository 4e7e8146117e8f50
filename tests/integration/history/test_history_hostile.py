"""The history file under hostile conditions: damaged, empty, a dangling link,
on a read-only or full file system, rows of the wrong type, documents with
values no run produces. Every case: one clear message or a correct answer, the
file left as it was, no traceback."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from fsfaults import fill, remount_readonly, tmpfs

from linkgate.cli import main
from linkgate.history.model import RunRecord

from linkgate.history.store import History

CONFIG = '[[gate]]\nname = "g"\ncommand = ["true"]\n\n[[recipe]]\nname = "r"\nfile = "build.rs"\nline = 1\nwhen-env = ["R"]\n'


def rec(run_id: str, **kw: object) -> RunRecord:
    base = RunRecord(run_id=run_id, kind="run", gate="g", linker="bfd", verdict="linked",
                     started_at="2026-12-01T02:23:23Z", wall_s=3.5, link_s=1.0, compile_s=2.5, cold=False)
    return replace(base, **kw)  # type: ignore[arg-type]


def doc(**item: object) -> dict[str, object]:
    base = {"run_id": "r1", "gate": "g", "linker": "bfd", "verdict": "linked",
            "started_at": "2026-12-01T02:23:23Z", "duration_s": 3.5}
    return {"schema": "linkgate.run/1", "results": [{**base, **item}]}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "linkgate.toml").write_text(CONFIG)
    (root / "build.rs").write_text("fn main() {}\n")
    monkeypatch.chdir(root)
    monkeypatch.delenv("LINKGATE_HISTORY", raising=False)
    return root


def lg(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def damaged(path: Path) -> None:
    """A history whose table b-tree is damaged in the middle: SQLite still opens
    it and, without a check, appends to it."""
    with History.open(path) as h:
        h.add([rec(f"run-{i:05d}", host="h" * 200) for i in range(400)])
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    # Page 10 is a leaf of the runs table: scramble its cell pointer array.
    start = 9 * page + 8
    data[start:start + 16] = bytes(range(200, 216))
    path.write_bytes(bytes(data))


def test_a_damaged_history_is_refused_for_writing_and_left_untouched(repo, tmp_path, capsys):
    path = tmp_path / "h.sqlite"
    damaged(path)
    before = digest(path)
    (tmp_path / "doc.json").write_text(json.dumps(doc()))
    code, _, err = lg(capsys, "history", "import", str(tmp_path / "doc.json"), "--history", str(path))
    assert code == 2 and "untouched" in err, err
    assert digest(path) == before
    assert not path.with_name("h.sqlite-wal").exists() or path.with_name("h.sqlite-wal").stat().st_size == 0


@pytest.mark.parametrize("verb", [["cost"], ["coverage"], ["report", "html", "-o", "page.html"]])
def test_reading_an_empty_file_writes_no_schema(repo, tmp_path, capsys, verb):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    code, _, err = lg(capsys, *verb, "--history", str(path))
    assert code in (0, 1), err
    assert path.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("empty")) == ["empty.sqlite"]


@pytest.mark.parametrize("verb", [["cost"], ["coverage"], ["report", "html", "-o", "page.html"]])
def test_reading_through_a_dangling_link_creates_nothing(repo, tmp_path, capsys, verb):
    link = tmp_path / "h.sqlite"
    os.symlink(tmp_path / "nowhere" / "target.sqlite", link)
    (tmp_path / "nowhere").mkdir()
    code, _, err = lg(capsys, *verb, "--history", str(link))
    assert code in (0, 1), err
    assert list((tmp_path / "nowhere").iterdir()) == []


def test_a_history_on_a_read_only_file_system_can_be_read(repo, tmp_path, capsys):
    with tmpfs(tmp_path / "ro", 512) as mnt:
        path = mnt / "h.sqlite"
        with History.open(path) as h:
            h.add([rec("a", wall_s=10.0, cold=True), rec("b", wall_s=4.0, cold=False)])
        remount_readonly(mnt)
        code, out, err = lg(capsys, "cost", "--history", str(path), "--format", "json")
        assert code == 0, err
        entry = json.loads(out)["entries"][0]
        assert (entry["gate"], entry["linker"]) == ("g", "bfd")
        code, _, err = lg(capsys, "coverage", "--history", str(path))
        assert code in (0, 1) and "cannot" not in err, err


def test_importing_into_a_full_disk_is_one_message(repo, tmp_path, capsys):
    (tmp_path / "doc.json").write_text(json.dumps({"schema": "linkgate.run/1", "results": [
        doc(run_id=f"r{i}", host="x" * 2000)["results"][0] for i in range(200)]}))  # type: ignore[index]
    with tmpfs(tmp_path / "full", 256) as mnt:
        path = mnt / "h.sqlite"
        History.open(path).close()
        fill(mnt)
        before = digest(path)
        code, _, err = lg(capsys, "history", "import", str(tmp_path / "doc.json"), "--history", str(path))
        assert code == 2, err
        assert str(path) in err and "full" in err and "no transaction" not in err
        assert len(err.strip().splitlines()) <= 2
        assert digest(path) == before
        with History.open(path, readonly=True) as h:
            assert h.runs() == []


def test_rows_of_the_wrong_type_are_skipped_with_a_warning(repo, tmp_path, capsys):
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a", wall_s=10.0, cold=True), rec("b", wall_s=4.0)])
    conn = sqlite3.connect(path)
    columns = ("run_id, kind, gate, linker, verdict, started_at, wall_s, link_s, recipes, links")
    conn.execute(f"INSERT INTO runs ({columns}) VALUES ('x1', 'run', 'g', 'bfd', 'linked', 'z', 'abc', 1, '[]', '[]')")
    conn.execute(f"INSERT INTO runs ({columns}) VALUES ('x2', 'run', 'g', 'bfd', 'linked', 'z', 1e999, 1, '[]', '[]')")
    conn.execute(f"INSERT INTO runs ({columns}) VALUES ('x3', 'run', 'g', 'bfd', 'linked', 'z', 2, 1, '{{', '[]')")
    conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s, units_rebuilt) "
                 "VALUES ('x4', 'run', 'g', 'bfd', 'linked', 'z', 2, 'many')")
    conn.commit()
    conn.close()
    code, out, err = lg(capsys, "cost", "--history", str(path), "--format", "json")
    assert code == 0 and "skipped a history row" in err, err
    assert {e["gate"] for e in json.loads(out)["entries"]} == {"g"}
    code, _, err = lg(capsys, "report", "html", "--history", str(path), "-o", str(tmp_path / "p.html"))
    assert code in (0, 1) and err.count("skipped a history row") == 4, err
    code, _, err = lg(capsys, "coverage", "--history", str(path))
    assert code in (0, 1) and "skipped a history row" in err, err


@pytest.mark.parametrize(("item", "needle"), [
    ({"duration_s": float("nan")}, "duration_s"),
    ({"duration_s": float("inf")}, "duration_s"),
    ({"duration_s": -1}, "duration_s"),
    ({"link_s": float("inf")}, "link_s"),
    ({"verdict": "pwned"}, "verdict"),
    ({"started_at": "yesterday"}, "started_at"),
    ({"started_at": ""}, "started_at"),
])
def test_import_refuses_values_no_run_produces(repo, tmp_path, capsys, item, needle):
    path = tmp_path / "h.sqlite"
    # json.dumps writes NaN and Infinity, which json.loads reads back, as a hostile runner would.
    (tmp_path / "doc.json").write_text(json.dumps(doc(**item)))
    code, _, err = lg(capsys, "history", "import", str(tmp_path / "doc.json"), "--history", str(path))
    assert code == 2 and needle in err and "nothing was imported" in err, err
    assert not path.exists()


def test_import_of_1e309_is_refused(repo, tmp_path, capsys):
    text = json.dumps(doc()).replace('"duration_s": 3.5', '"duration_s": 1e309')
    (tmp_path / "doc.json").write_text(text)
    code, _, err = lg(capsys, "history", "import", str(tmp_path / "doc.json"), "--history", str(tmp_path / "h"))
    assert code == 2 and "duration_s" in err


def test_import_of_a_deeply_nested_document_is_one_message(repo, tmp_path, capsys):
    (tmp_path / "doc.json").write_text("[" * 200_000 + "]" * 200_000)
    code, _, err = lg(capsys, "history", "import", str(tmp_path / "doc.json"), "--history", str(tmp_path / "h"))
    assert code == 2 and "nests too deeply" in err


def test_the_verdict_list_is_the_gate_s():
    from linkgate.gate import run
    from linkgate.history.record import RUN_VERDICTS

    assert RUN_VERDICTS == {run.LINKED, run.LINK_FAILED, run.COMPILE_FAILED, run.ERROR, run.LINKER_OVERRIDDEN}


def test_ci_github_reads_past_rows_of_the_wrong_type(tmp_path, capsys, monkeypatch):
    import shutil

    from lgtest import git, git_repo

    root = tmp_path / "ci"
    shutil.copytree(Path(__file__).resolve().parents[2] / "fixtures" / "ci" / "repo", root)
    git_repo(root)
    git(root, "remote", "add", "origin", "git@github.com:rtlab/rtcore.git")
    monkeypatch.chdir(root)
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a", gate="xla-link", wall_s=600.0, cold=True)])
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s) "
                 "VALUES ('bad', 'run', 'xla-link', 'bfd', 'linked', 'z', 'NaN?')")
    conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s) "
                 "VALUES ('inf', 'run', 'xla-link', 'bfd', 'linked', 'z', 1e999)")
    conn.commit()
    conn.close()
    code, out, err = lg(capsys, "ci", "github", "xla-link", "--history", str(path))
    assert code == 0 and err.count("skipped a history row") == 2, err
    assert "timeout-minutes" in out


@pytest.mark.parametrize("bad", ["1e308", "-3600", "'NaN'", "9e999", "-1e-9", str(5 * 24 * 3600 + 1)])
def test_times_no_run_takes_are_skipped_never_a_timeout(repo, tmp_path, capsys, bad):
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a", wall_s=10.0, cold=True), rec("b", wall_s=4.0)])
    conn = sqlite3.connect(path)
    for column in ("wall_s", "link_s", "compile_s"):
        values = {"wall_s": "2", "link_s": "1", "compile_s": "1", column: bad}
        conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s, link_s, compile_s, "
                     f"cold, recipes, links) VALUES ('x-{column}', 'run', 'g', 'bfd', 'linked', 'z', "
                     f"{values['wall_s']}, {values['link_s']}, {values['compile_s']}, 1, '[]', '[]')")
    conn.commit()
    conn.close()
    code, out, err = lg(capsys, "cost", "--history", str(path), "--format", "json")
    assert code == 0 and err.count("skipped a history row") == 3, err
    (entry,) = json.loads(out)["entries"]
    assert (entry["runs"], entry["cold"]["max_s"], entry["recommended_timeout_minutes"]) == (2, 10.0, 6)


@pytest.mark.timeout(60)
def test_a_locked_history_says_who_holds_it_and_how_long_it_waits(repo, tmp_path, capsys):
    import subprocess
    import sys
    import time

    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a")])
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(2); c.execute('COMMIT')\n")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        started = time.monotonic()
        with History.open(path) as h:
            assert h.add([rec("b")]) == 1
        waited = time.monotonic() - started
    finally:
        holder.wait()
    err = capsys.readouterr().err
    assert f"linkgate: the history {path} is locked by another writer (pid {holder.pid}); waiting up to 30 s" in err, err
    assert waited < 30


def exclusive_holder(path: Path, seconds: float):  # type: ignore[no-untyped-def]
    """A process holding the history in SQLite's exclusive locking mode: readers block too."""
    import subprocess
    import sys

    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, time\n"
        f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "c.execute('PRAGMA locking_mode = EXCLUSIVE'); c.execute('BEGIN EXCLUSIVE')\n"
        f"print('held', flush=True); time.sleep({seconds}); c.execute('COMMIT')\n")],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


@pytest.mark.timeout(60)
@pytest.mark.parametrize("readonly", [True, False])
def test_opening_a_history_another_process_holds_says_it_waits(repo, tmp_path, capsys, readonly):
    import time

    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a")])
    holder = exclusive_holder(path, 2)
    try:
        started = time.monotonic()
        with History.open(path, readonly=readonly) as h:
            assert [r.run_id for r in h.runs()] == ["a"]
        waited = time.monotonic() - started
    finally:
        holder.wait()
    err = capsys.readouterr().err
    assert f"linkgate: the history {path} is locked by another process (pid {holder.pid}); waiting up to 30 s" \
        in err, err
    assert err.count("waiting up to") == 1 and waited < 30


@pytest.mark.timeout(60)
@pytest.mark.parametrize("verb", [["cost"], ["report", "html"]])
def test_a_history_held_past_the_wait_is_one_message(repo, tmp_path, capsys, monkeypatch, verb):
    from linkgate.history import store

    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a")])
    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 1000)
    holder = exclusive_holder(path, 30)
    try:
        code, out, err = lg(capsys, *verb, "--history", str(path))
    finally:
        holder.kill()
        holder.wait()
    assert code == 2, (code, err)
    assert "waiting up to 1 s" in err
    assert f"{path}: the history is still locked by another process (pid {holder.pid}) after 1 s" in err, err
    assert err.count("linkgate: error:") == 1 and "Traceback" not in err

"""The history store against real SQLite files: round trip, idempotence, concurrency, refusal."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from linkgate.errors import EXIT_USAGE, HistoryError
from linkgate.history.model import RunRecord
from linkgate.history.store import APPLICATION_ID, ENV_VAR, SCHEMA_VERSION, History, history_path
from lgtest import sha


def rec(run_id: str, **kw: object) -> RunRecord:
    base = RunRecord(run_id=run_id, kind="run", gate="g", linker="bfd", verdict="linked",
                     started_at="2026-12-01T02:23:23Z", wall_s=3.5)
    return replace(base, **kw)  # type: ignore[arg-type]


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    full = rec("a", commit="abc", branch="main", runner="gpu-1", host="h", compile_s=2.5, link_s=1.0,
               units_rebuilt=4, units_fresh=0, cold=True, forced_relink=False, recipes=("cuda", "iree"),
               directives_digest="d1", links=({"output": "/x", "seconds": 1.0, "exit_status": 0},), dirty=True,
               indistinct=("zsys-dir",), divergence=({"kind": "needed", "target": "app", "detail": "NEEDED"},))
    sparse = rec("b", kind="prove", control="drop-lc", verdict="caught", cold=None, forced_relink=None)
    with History.open(tmp_path / "h.sqlite") as h:
        assert h.add([full, sparse]) == 2
        assert h.runs() == [full, sparse]
        assert h.runs(kind="prove") == [sparse]
        assert h.runs(gate="other") == []


def test_a_history_from_before_the_dirty_column_is_migrated_old_rows_unknown(tmp_path: Path) -> None:
    """A version-1 file (as linkgate wrote it before ``dirty``) gains the column;
    its rows read back with dirty None ("not known"), never False ("clean")."""
    from linkgate.history.store import MIGRATIONS

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for statement in MIGRATIONS[0][1].split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO migrations (version, description) VALUES (1, 'runs table')")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s, commit_sha, branch) "
                 "VALUES ('old', 'run', 'g', 'bfd', 'linked', '2026-11-30T00:00:00Z', 1.0, 'abc', 'main')")
    conn.close()
    with History.open(path) as h:
        (old,) = h.runs()
        assert (old.commit, old.branch, old.dirty, old.indistinct, old.divergence) == ("abc", "main", None, (), ())
        differs = {"kind": "functions", "target": "app", "linkers": ["default", "bfd"], "detail": "defined functions"}
        h.add([rec("new", commit="def", dirty=True, divergence=(differs,)), rec("clean", commit="def", dirty=False)])
        assert {r.run_id: r.dirty for r in h.runs()} == {"old": None, "new": True, "clean": False}
        assert {r.run_id: r.divergence for r in h.runs()} == {"old": (), "new": (differs,), "clean": ()}
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert {"dirty", "indistinct", "divergence"} <= {row[1] for row in conn.execute("PRAGMA table_info(runs)")}


def test_an_older_history_is_read_without_being_migrated(tmp_path: Path) -> None:
    """A reader sees a version-1 file through a migrated copy in memory; the file keeps its schema."""
    from linkgate.history.store import MIGRATIONS

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for statement in MIGRATIONS[0][1].split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO runs (run_id, kind, gate, linker, verdict, started_at, wall_s) "
                 "VALUES ('old', 'run', 'g', 'bfd', 'linked', '2026-11-30T00:00:00Z', 1.0)")
    conn.close()
    before = sha(path)
    with History.open(path, readonly=True) as h:
        assert [(r.run_id, r.dirty) for r in h.runs()] == [("old", None)]
    assert sha(path) == before


def test_adding_a_run_id_twice_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        assert h.add([rec("a"), rec("b")]) == 2
    with History.open(path) as h:
        assert h.add([rec("b"), rec("c"), rec("c")]) == 1
        assert [r.run_id for r in h.runs()] == ["a", "b", "c"]


def test_schema_is_versioned_with_a_migrations_table_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "h.sqlite"
    History.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert [v for (v,) in conn.execute("SELECT version FROM migrations")] == list(range(1, SCHEMA_VERSION + 1))


def test_path_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert history_path(tmp_path, None) == tmp_path / ".linkgate" / "history.sqlite"
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env.sqlite"))
    assert history_path(tmp_path, None) == tmp_path / "env.sqlite"
    assert history_path(tmp_path, str(tmp_path / "flag.sqlite")) == tmp_path / "flag.sqlite"


def _refused(path: Path, match: str) -> None:
    before = sha(path)
    siblings = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(HistoryError, match=match) as info:
        History.open(path)
    assert info.value.return_code == EXIT_USAGE
    assert str(path) in info.value.message and "untouched" in info.value.message
    assert sha(path) == before
    assert sorted(p.name for p in path.parent.iterdir()) == siblings


def test_garbage_bytes_are_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    path.write_bytes(b"\x00not a database at all\n" * 300)
    _refused(path, "not an SQLite database")


def test_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    path.write_text("gate,linker\nx,bfd\n")
    _refused(path, "not an SQLite database")


def test_another_programs_sqlite_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    _refused(path, "without linkgate's application id")


def test_database_with_another_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    _refused(path, "another program")


def test_truncated_history_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec(str(i)) for i in range(500)])
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    data = path.read_bytes()
    path.write_bytes(data[: 2 * 4096] + b"\xff" * (len(data) - 2 * 4096))  # smash every table page
    before = sha(path)
    with pytest.raises(HistoryError) as info:
        with History.open(path) as h:
            h.runs()
    assert str(path) in info.value.message
    assert sha(path) == before


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    History.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = sha(path)
    with pytest.raises(HistoryError, match="newer than this linkgate"):
        History.open(path)
    assert sha(path) == before


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="is a directory"):
        History.open(tmp_path)


WRITER = textwrap.dedent(
    """
    import sys, time
    from linkgate.history.model import RunRecord
    from linkgate.history.store import History
    path, tag, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    import os
    while not os.path.exists(go):
        time.sleep(0.001)
    with History.open(path) as h:
        for i in range(n):  # one transaction per row: the two writers interleave
            h.add([RunRecord(run_id=f"{tag}-{i}", kind="run", gate=tag, linker="bfd", verdict="linked",
                             started_at="2026-12-01T00:00:00Z", wall_s=float(i))])
    """
)


def test_two_processes_writing_at_once_both_land_every_row(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"  # not created yet: both processes race to create it too
    go = tmp_path / "go"
    n = 150
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(n), str(go)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for tag in ("one", "two")
    ]
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with History.open(path) as h:
        rows = h.runs()
    assert len(rows) == 2 * n
    assert {r.gate for r in rows} == {"one", "two"}


def test_reading_a_current_history_does_not_write_it(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with History.open(path) as h:
        h.add([rec("a")])
    before = sha(path)
    with History.open(path) as h:
        assert [r.run_id for r in h.runs()] == ["a"]
        h.samples()
    assert sha(path) == before


def test_a_path_that_cannot_hold_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(HistoryError, match="cannot use the history database") as info:
        History.open(tmp_path / "plain" / "h.sqlite")
    assert "--no-history" in (info.value.hint or "")

"""The history file: one SQLite database, shared by every linkgate process.

WAL lets readers run while a writer appends, and the busy timeout makes a
second writer wait for the first instead of failing with "database is
locked", so two concurrent ``run``s both land their rows. A file that is not
ours (garbage bytes, or another program's SQLite database) is refused with a
clear message and never written: we check the header bytes before SQLite
touches the file, and the application id before anything is created.

A file opened for writing must pass ``PRAGMA quick_check`` first: SQLite will
append to a database whose pages are out of order and make it worse, so a
corrupt history is refused (exit 2) and left as it was. Commands that only
read open the file read-only (``mode=ro``) and never write: a missing or empty
file reads as an empty history without being created or given a schema, and a
history on a read-only file system can still be read.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, TypeVar

from linkgate import repofs, statedir
from linkgate.errors import HistoryError
from linkgate.history.model import RunRecord

ENV_VAR = "LINKGATE_HISTORY"
DEFAULT_RELATIVE = Path(".linkgate") / "history.sqlite"
# "LKGT": marks the file as ours in the SQLite header (offset 68), so another
# program's database is never mistaken for an empty history and migrated.
APPLICATION_ID = 0x4C4B4754
_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 30_000

# Each migration takes the schema from version i to i + 1; append, never edit.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "runs table",
        """
        CREATE TABLE migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL,
                                 applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));
        CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            kind TEXT NOT NULL, gate TEXT NOT NULL, linker TEXT NOT NULL, verdict TEXT NOT NULL,
            started_at TEXT NOT NULL, wall_s REAL NOT NULL,
            commit_sha TEXT, branch TEXT, runner TEXT, host TEXT,
            compile_s REAL, link_s REAL, units_rebuilt INTEGER, units_fresh INTEGER,
            cold INTEGER, forced_relink INTEGER,
            recipes TEXT NOT NULL DEFAULT '[]', directives_digest TEXT, control TEXT,
            links TEXT NOT NULL DEFAULT '[]'
        );
        CREATE INDEX runs_by_pair ON runs (gate, linker, kind);
        """,
    ),
    (
        # Rows written before it stay NULL: "not known", never "clean".
        "dirty column: tracked files differed from the commit",
        "ALTER TABLE runs ADD COLUMN dirty INTEGER",
    ),
    (
        # Rows written before it stay NULL: no recipe was told indistinct then.
        "indistinct column: recipes a run printed the directives of but could not tell apart",
        "ALTER TABLE runs ADD COLUMN indistinct TEXT",
    ),
    (
        # Rows written before it stay NULL: no divergence was recorded then.
        "divergence column: how a leg's linked files differed from the first linker's",
        "ALTER TABLE runs ADD COLUMN divergence TEXT",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_COLUMNS = (
    "run_id", "kind", "gate", "linker", "verdict", "started_at", "wall_s", "commit_sha", "branch",
    "runner", "host", "compile_s", "link_s", "units_rebuilt", "units_fresh", "cold", "forced_relink",
    "recipes", "directives_digest", "control", "links", "dirty", "indistinct", "divergence",
)


class CostSample(NamedTuple):
    """The few columns ``cost`` needs, read without building a RunRecord per row."""

    gate: str
    linker: str
    kind: str
    verdict: str
    wall_s: float
    cold: int | None        # SQLite's 1/0: compare by truth value, not with `is True`
    link_s: float | None
    compile_s: float | None
    runner: str | None
    host: str | None


def warn_skipped(history: History) -> None:
    """One stderr line per unusable row a reader skipped."""
    import sys

    for line in history.skipped:
        sys.stderr.write(f"linkgate: warning: {line}\n")


def history_path(root: Path, override: str | None) -> Path:
    """``--history PATH`` beats ``$LINKGATE_HISTORY`` beats ``<root>/.linkgate/history.sqlite``."""
    chosen = override or os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen).expanduser()
    # The default lives in the repository's .linkgate/, which a repository can
    # commit as symlinks: SQLite would follow them (and its -wal, -shm and
    # -journal files) to write outside the repository.
    for suffix in ("-wal", "-shm", "-journal"):
        statedir.check_file(root, DEFAULT_RELATIVE.name + suffix)
    return statedir.check_file(root, DEFAULT_RELATIVE.name)


class History:
    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self.skipped: list[str] = []  # rows read back that were not usable, one line each

    @classmethod
    def open(cls, path: Path, *, readonly: bool = False) -> History:
        """Open for appending, or with *readonly* for commands that only read."""
        path = Path(path)
        if readonly:
            return cls(path, _open_readonly(path))
        _refuse_foreign_bytes(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise _unusable(path, exc) from None
        try:
            patiently(conn, path, lambda: _check_integrity(conn, path))
            if _migrate(conn, path):
                # WAL is persistent: set once, when the file is created, so that
                # opening an existing file never rewrites its header.
                conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:  # read-only, disk full
            conn.close()
            raise _unusable(path, exc) from None
        except sqlite3.DatabaseError as exc:  # "file is not a database", "disk image is malformed"
            conn.close()
            raise _foreign(path, f"SQLite says: {exc}") from None
        except BaseException:
            conn.close()
            raise
        return cls(path, conn)

    def __enter__(self) -> History:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    def add(self, records: Iterable[RunRecord]) -> int:
        """Insert rows; a run id already present is skipped, so importing twice adds nothing."""
        rows = [_row(r) for r in records]
        if not rows:
            return 0
        marks = ", ".join("?" * len(_COLUMNS))
        try:
            with self._transaction():
                cur = self._conn.executemany(
                    f"INSERT OR IGNORE INTO runs ({', '.join(_COLUMNS)}) VALUES ({marks})", rows
                )
                return max(cur.rowcount, 0)
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: cannot write to the history: {exc}") from None

    def runs(self, gate: str | None = None, kind: str | None = None) -> list[RunRecord]:
        where, args = _filter(gate, kind)
        sql = f"SELECT {', '.join(_COLUMNS)} FROM runs{where} ORDER BY started_at, run_id"
        return self._usable(self._select(sql, args), _record)

    def samples(self, gate: str | None = None, kind: str | None = "run",
                verdicts: Iterable[str] | None = None) -> list[CostSample]:
        """The columns ``cost`` reads, as plain tuples: 100,000 rows in well under a second."""
        where, args = _filter(gate, kind)
        if verdicts is not None:
            wanted = sorted(verdicts)
            where += (" AND " if where else " WHERE ") + f"verdict IN ({', '.join('?' * len(wanted))})"
            args += wanted
        sql = ("SELECT gate, linker, kind, verdict, wall_s, cold, link_s, compile_s, runner, host "
               f"FROM runs{where}")
        # cold is stored as 0/1, which compares equal to False/True: no per-row conversion.
        rows = self._select(sql, args)
        if all(map(_sample_ok, rows)):
            return list(map(CostSample._make, rows))
        return self._usable(rows, _sample)

    def _usable(self, rows: list[Any], build: Callable[[Any], Any]) -> list[Any]:
        """Rows another writer stored with wrong types (SQLite keeps any type in
        any column) are skipped and named in ``skipped``, never a crash."""
        out = []
        for row in rows:
            try:
                out.append(build(row))
            except (TypeError, ValueError, RecursionError) as exc:
                self.skipped.append(f"{self.path}: skipped a history row ({exc})")
        return out

    def _select(self, sql: str, args: list[str]) -> list[Any]:
        try:
            return patiently(self._conn, self.path, lambda: self._conn.execute(sql, args).fetchall())
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: cannot read the history: {exc}") from None

    def _transaction(self) -> _Txn:
        return _Txn(self._conn, self.path)


class _Txn:
    """BEGIN IMMEDIATE takes the write lock up front: a second writer then waits
    (busy timeout, see ``patiently``) instead of failing later on a lock upgrade."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None = None) -> None:
        self.conn, self.path = conn, path

    def __enter__(self) -> None:
        patiently(self.conn, self.path, lambda: self.conn.execute("BEGIN IMMEDIATE"), holder="writer")

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if et is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            # SQLite has already rolled back after some errors (disk full): a
            # second ROLLBACK would hide the real error behind "no transaction".
            self.conn.execute("ROLLBACK")


# A process that holds the lock for less than this is waited for without a word.
_FIRST_TRY_MS = 250

_T = TypeVar("_T")


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def patiently(conn: sqlite3.Connection, path: Path | None, step: Callable[[], _T], holder: str = "process") -> _T:
    """Run *step*, waiting for another process's lock, never silently.

    The first try waits ``_FIRST_TRY_MS``; when the lock is still taken, one
    stderr line names who holds it (from /proc/locks) and how long linkgate
    will wait, then the full ``BUSY_TIMEOUT_MS`` runs. A lock held past that
    is a ``HistoryError`` saying so (exit 2), never a read of a half-written
    file nor a silent give-up.
    """
    conn.execute(f"PRAGMA busy_timeout = {_FIRST_TRY_MS}")
    try:
        return step()
    except sqlite3.OperationalError as exc:
        if not _is_locked(exc):
            raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    holders = _lock_holders(path) if path is not None else []
    who = f"pid {', '.join(map(str, holders))}" if holders else "a process linkgate cannot name"
    seconds = max(BUSY_TIMEOUT_MS // 1000, 1)
    sys.stderr.write(f"linkgate: the history {path} is locked by another {holder} ({who}); "
                     f"waiting up to {seconds} s\n")
    sys.stderr.flush()
    try:
        return step()
    except sqlite3.OperationalError as exc:
        if not _is_locked(exc):
            raise
        holders = (_lock_holders(path) if path is not None else []) or holders
        who = f"pid {', '.join(map(str, holders))}" if holders else "a process linkgate cannot name"
        raise HistoryError(f"{path}: the history is still locked by another process ({who}) after {seconds} s",
                           hint="wait for that process to finish, or pass --no-history or another --history "
                                "file") from None


def _lock_holders(path: Path) -> list[int]:
    """Processes holding a POSIX lock on the database or its WAL index (Linux's
    /proc/locks, by inode); empty when that cannot be read."""
    inodes = set()
    for name in (str(path), f"{path}-shm", f"{path}-wal"):
        try:
            inodes.add(os.stat(name).st_ino)
        except OSError:
            continue
    pids: list[int] = []
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                # "1: POSIX ADVISORY WRITE 1234 08:01:567 0 EOF" (a "->" marks a waiter)
                if len(parts) >= 6 and parts[1] != "->" and parts[4].isdigit() \
                        and parts[5].rsplit(":", 1)[-1].isdigit() and int(parts[5].rsplit(":", 1)[-1]) in inodes:
                    pid = int(parts[4])
                    if pid != os.getpid() and pid not in pids:
                        pids.append(pid)
    except OSError:
        return []
    return pids


def _refuse_foreign_bytes(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _unusable(path, exc) from None
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        # A FIFO would block the open below; a device (/dev/zero) reads forever.
        raise HistoryError(f"{path}: is {repofs.kind_of(mode)}, not a history file",
                           hint=f"pass a regular file path with --history or ${ENV_VAR}")
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise HistoryError(f"{path}: is a directory, not a history file",
                           hint=f"pass a file path with --history or ${ENV_VAR}") from None
    except OSError as exc:
        raise _unusable(path, exc) from None
    # An empty file is what SQLite itself leaves for a database being created.
    if head and not head.startswith(_MAGIC[: len(head)]):
        raise _foreign(path, "it is not an SQLite database")
    if len(head) >= 72:
        app_id = int.from_bytes(head[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            raise _foreign(path, f"it is an SQLite database of another program (application id {app_id:#x})")


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot write: the file with ``mode=ro``, or an empty
    in-memory history when the file is missing or empty (nothing is created)."""
    from urllib.parse import quote

    _refuse_foreign_bytes(path)
    try:
        empty = path.stat().st_size == 0
    except FileNotFoundError:  # a dangling symbolic link too
        empty = True
    except OSError as exc:
        raise _unusable(path, exc) from None
    if empty:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        _migrate(conn, path)
        return conn
    uri = "file:" + quote(str(path.absolute()))
    last: sqlite3.Error | None = None
    # On a read-only file system a WAL database cannot create its -shm file;
    # immutable=1 reads it without one (nobody can write there meanwhile).
    for params in ("?mode=ro", "?mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(uri + params, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            app_id, version = patiently(conn, path, lambda: _probe(conn))
        except HistoryError:  # held past the wait: an immutable read could see half a write
            conn.close()
            raise
        except sqlite3.OperationalError as exc:
            conn.close()
            last = exc
            continue
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise _foreign(path, f"SQLite says: {exc}") from None
        if (app_id, version) == (APPLICATION_ID, SCHEMA_VERSION):
            return conn
        if app_id == APPLICATION_ID and 0 < version < SCHEMA_VERSION:
            # An older schema: migrate a copy in memory, never the file.
            memory = sqlite3.connect(":memory:", isolation_level=None)
            try:
                conn.backup(memory)
            finally:
                conn.close()
            _migrate(memory, path)
            return memory
        conn.close()
        if version > SCHEMA_VERSION and app_id == APPLICATION_ID:
            raise HistoryError(f"{path}: history schema version {version} is newer than this linkgate understands "
                               f"({SCHEMA_VERSION})", hint="upgrade linkgate, or use another file with --history")
        raise _foreign(path, "it is an SQLite database without linkgate's application id")
    assert last is not None
    raise _unusable(path, last)


def _check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """quick_check before the first write: appending to a damaged file damages it further."""
    found = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
    if found != ["ok"]:
        raise HistoryError(
            f"{path}: the history database is damaged (SQLite's quick_check: {found[0]}); linkgate left it untouched",
            hint=f"move it aside (runs are recorded in a new file) or point --history / ${ENV_VAR} at another file",
        )


def _unusable(path: Path, exc: BaseException) -> HistoryError:
    return HistoryError(
        f"{path}: cannot use the history database: {exc}",
        hint=f"check the path and its permissions, choose another with --history or ${ENV_VAR}, "
        "or pass --no-history",
    )


def _foreign(path: Path, why: str) -> HistoryError:
    return HistoryError(
        f"{path}: not a linkgate history ({why}); linkgate left it untouched",
        hint=f"move it aside or point --history / ${ENV_VAR} at another file",
    )


def _migrate(conn: sqlite3.Connection, path: Path) -> bool:
    """Bring the schema up to date; True when this call created it."""
    if patiently(conn, path, lambda: _probe(conn)) == (APPLICATION_ID, SCHEMA_VERSION):
        return False  # current: no write lock, so a read-only history can still be read
    with _Txn(conn):
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id != 0 or tables or version:
                raise _foreign(path, "it is an SQLite database without linkgate's application id")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{path}: history schema version {version} is newer than this linkgate understands "
                f"({SCHEMA_VERSION}); linkgate left it untouched",
                hint="upgrade linkgate, or use another file with --history",
            )
        for number in range(version, SCHEMA_VERSION):
            description, script = MIGRATIONS[number]
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute("INSERT INTO migrations (version, description) VALUES (?, ?)", (number + 1, description))
            conn.execute(f"PRAGMA user_version = {number + 1}")
    return version == 0


def _probe(conn: sqlite3.Connection) -> tuple[int, int]:
    app_id: int = conn.execute("PRAGMA application_id").fetchone()[0]
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return app_id, version


def _statements(script: str) -> Iterator[str]:
    # executescript() would COMMIT our open transaction first; split instead
    # (no migration contains a ';' inside a literal).
    for part in script.split(";"):
        if part.strip():
            yield part


def _filter(gate: str | None, kind: str | None) -> tuple[str, list[str]]:
    clauses, args = [], []
    if gate is not None:
        clauses.append("gate = ?")
        args.append(gate)
    if kind is not None:
        clauses.append("kind = ?")
        args.append(kind)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args


def _bool(v: bool | None) -> int | None:
    return None if v is None else int(v)


def _row(r: RunRecord) -> tuple[Any, ...]:
    return (
        r.run_id, r.kind, r.gate, r.linker, r.verdict, r.started_at, r.wall_s, r.commit, r.branch,
        r.runner, r.host, r.compile_s, r.link_s, r.units_rebuilt, r.units_fresh, _bool(r.cold),
        _bool(r.forced_relink), json.dumps(list(r.recipes)), r.directives_digest, r.control,
        json.dumps(list(r.links)), _bool(r.dirty), json.dumps(list(r.indistinct)) if r.indistinct else None,
        json.dumps(list(r.divergence)) if r.divergence else None,
    )


# The longest a run can take: GitHub ends a self-hosted runner's job after five
# days (hosted ones after six hours). A time past it, negative, NaN or infinite
# was not measured by any run: the row is skipped (named on stderr), never used
# for a cost or a timeout-minutes.
MAX_SECONDS = 5 * 24 * 3600


def _is_num(v: Any, optional: bool = True) -> bool:
    """A time in seconds a run could have taken (every number column is one)."""
    if v is None:
        return optional
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            and 0 <= v <= MAX_SECONDS)


def _is_str(v: Any, optional: bool = True) -> bool:
    return isinstance(v, str) or (optional and v is None)


def _sample_ok(row: tuple[Any, ...]) -> bool:
    gate, linker, kind, verdict, wall_s, cold, link_s, compile_s, runner, host = row
    return (all(isinstance(v, str) for v in (gate, linker, kind, verdict)) and _is_num(wall_s, False)
            and (cold is None or isinstance(cold, int)) and _is_num(link_s) and _is_num(compile_s)
            and _is_str(runner) and _is_str(host))


def _sample(row: tuple[Any, ...]) -> CostSample:
    if not _sample_ok(row):
        raise ValueError(f"run of gate {row[0]!r} with a value of the wrong type, or a time that is negative, "
                         f"not finite or over {MAX_SECONDS:,} s")
    return CostSample._make(row)


def _record(row: tuple[Any, ...]) -> RunRecord:
    (run_id, kind, gate, linker, verdict, started_at, wall_s, commit, branch, runner, host, compile_s,
     link_s, rebuilt, fresh, cold, forced, recipes, digest, control, links, dirty, indistinct, divergence) = row
    if not (all(isinstance(v, str) for v in (run_id, kind, gate, linker, verdict, started_at))
            and _is_num(wall_s, False) and _is_num(compile_s) and _is_num(link_s)
            and all(_is_str(v) for v in (commit, branch, runner, host, digest, control))
            and all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                    for v in (rebuilt, fresh, cold, forced, dirty))
            and isinstance(recipes, str) and isinstance(links, str) and _is_str(indistinct)
            and _is_str(divergence)):
        raise ValueError(f"run {run_id!r} has a value of the wrong type, or a time that is negative, "
                         f"not finite or over {MAX_SECONDS:,} s")
    recipes_list, links_list = json.loads(recipes), json.loads(links)
    indistinct_list = json.loads(indistinct) if indistinct is not None else []
    divergence_list = json.loads(divergence) if divergence is not None else []
    if not (isinstance(recipes_list, list) and all(isinstance(x, str) for x in recipes_list)
            and isinstance(indistinct_list, list) and all(isinstance(x, str) for x in indistinct_list)
            and isinstance(links_list, list) and all(isinstance(x, dict) for x in links_list)
            and isinstance(divergence_list, list) and all(isinstance(x, dict) for x in divergence_list)):
        raise ValueError(f"run {run_id!r} has recipes, links or divergence that are not lists")
    return RunRecord(
        run_id=run_id, kind=kind, gate=gate, linker=linker, verdict=verdict, started_at=started_at,
        wall_s=wall_s, commit=commit, branch=branch, runner=runner, host=host, compile_s=compile_s,
        link_s=link_s, units_rebuilt=rebuilt, units_fresh=fresh,
        cold=None if cold is None else bool(cold), forced_relink=None if forced is None else bool(forced),
        recipes=tuple(recipes_list), directives_digest=digest, control=control,
        dirty=None if dirty is None else bool(dirty), indistinct=tuple(indistinct_list),
        links=tuple(links_list), divergence=tuple(divergence_list),
    )

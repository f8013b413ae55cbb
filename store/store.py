"""`Store`: the one object per run that owns the DuckDB connection and the named queries."""

from __future__ import annotations

import fcntl
import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import aiosql
import duckdb

SQL_DIR = Path(str(files("sql")))  # the top-level sql/ folder, installed as a package
QUERY_DIR = SQL_DIR / "queries"
#: The store a command uses when not told otherwise; the one place this path is written.
from store.defaults import DEFAULT_DB  # noqa: E402,F401

#: Idempotent DDL, applied in this order when a store is opened for writing.
DDL_FILES = (
    "schema.sql",
    "event_schema.sql",
    "player_matches.sql",
    "dd_schema.sql",
    "scoring_schema.sql",
    "skill_schema.sql",
    "mistakes_schema.sql",
)

Row = dict[str, Any]


def describe_failure(exc: BaseException) -> str | None:
    """One sentence a user can act on for a store failure (a full disk, a damaged file), or None
    for anything else. Each statement is a transaction, so nothing half-written stays behind."""
    if not isinstance(exc, duckdb.Error | OSError):
        return None
    text = str(exc)
    if "No space left on device" in text or getattr(exc, "errno", None) == 28:
        return (f"no space left on the disk ({text.splitlines()[0]}). Nothing of the step that "
                "failed was kept; free some space and run the same command again.")  # fmt: skip
    damaged = ("not a valid DuckDB database", "Corrupt", "could not read all bytes",
               "Could not read enough bytes", "checksum", "INTERNAL Error")  # fmt: skip
    if isinstance(exc, duckdb.Error) and any(d.lower() in text.lower() for d in damaged):
        return (f"the store is damaged ({text.splitlines()[0]}). Move it aside and run "
                "`ddrank run` (or `ddrank ingest`) with the same files to rebuild it.")  # fmt: skip
    return None


class StoreLockedError(RuntimeError):
    """Another ddrank process holds the database; DuckDB allows one writer process."""


@cache
def queries() -> Any:
    """Every named query of `sql/queries/*.sql` (aiosql's `-- name: ...` sections)."""
    return aiosql.from_path(QUERY_DIR, "duckdb", mandatory_parameters=False)


def sql_file(name: str) -> str:
    return (SQL_DIR / name).read_text()


def open_connection(path: str | Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the DuckDB file, turning a lock conflict into a sentence a user can act on."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise StoreLockedError(
                f"{path} is in use by another ddrank process (DuckDB allows one writer). "
                "Wait for it to finish, or point --db at another file."
            ) from exc
        raise
    if not read_only:
        for name in DDL_FILES:
            con.execute(sql_file(name)).fetchall()
    return con


class Store:
    """One run's connection to the store, with named queries and a count of each query run.

    `rows`/`frame`/`scalar` run a named query of `sql/queries/` (or, for the few statements built
    at run time, a SQL string passed as `sql=`); `counts` says how often each ran, so a test can
    show that a stage reads the boards once.
    """

    def __init__(self, path: str | Path = DEFAULT_DB, read_only: bool = False,
                 con: duckdb.DuckDBPyConnection | None = None) -> None:  # fmt: skip
        self.path = Path(path)
        self.read_only = read_only
        self.con = con if con is not None else open_connection(self.path, read_only)
        self.counts: Counter[str] = Counter()

    # -- life cycle -------------------------------------------------------------------------
    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- named queries ----------------------------------------------------------------------
    def sql(self, name: str) -> str:
        """The text of named query `name`, with DuckDB's `$param` placeholders."""
        return getattr(queries(), name).sql

    def _cursor(self, name: str | None, sql: str | None, params: Mapping[str, Any] | Sequence
                ) -> duckdb.DuckDBPyConnection:  # fmt: skip
        text = sql if sql is not None else self.sql(name or "")
        self.counts[name or "<inline>"] += 1
        return self.con.execute(text, params or None)

    def rows(self, name: str | None = None, /, sql: str | None = None, **params: Any) -> list[Row]:
        """A query's rows as dicts."""
        cur = self._cursor(name, sql, params)
        cols = [d[0] for d in cur.description or []]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    def tuples(
        self, name: str | None = None, /, sql: str | None = None, **params: Any
    ) -> list[tuple]:
        return self._cursor(name, sql, params).fetchall()

    def scalar(self, name: str | None = None, /, sql: str | None = None, **params: Any) -> Any:
        rows = self._cursor(name, sql, params).fetchall()  # all: fetchone leaves it unfinished
        return rows[0][0] if rows else None

    def frame(self, name: str | None = None, /, sql: str | None = None, **params: Any) -> Any:
        """A query's result as a polars DataFrame (DuckDB 2: through a relation, not execute)."""
        text = sql if sql is not None else self.sql(name or "")
        self.counts[name or "<inline>"] += 1
        return self.con.sql(text, params=params or None).pl()

    def run(self, name: str | None = None, /, sql: str | None = None, **params: Any) -> None:
        """A statement that returns nothing (insert, update, delete)."""
        self._cursor(name, sql, params).fetchall()

    def run_many(self, name: str, param_rows: Iterable[Mapping[str, Any]]) -> int:
        """One statement for many parameter rows; an empty list does nothing (DuckDB refuses it)."""
        batch = list(param_rows)
        if batch:
            self.counts[name] += 1
            self.con.executemany(self.sql(name), batch)
        return len(batch)

    def insert_frame(self, table: str, frame: Any) -> int:
        """Append a polars/arrow frame to `table`, matching columns by name."""
        if len(frame) == 0:
            return 0
        self.counts[f"insert:{table}"] += 1
        self.con.register("_ddrank_frame", frame)
        try:
            cols = ", ".join(f'"{c}"' for c in frame.columns)
            self.con.execute(f"insert into {table} ({cols}) select {cols} from _ddrank_frame")
        finally:
            self.con.unregister("_ddrank_frame")
        return len(frame)

    def table_count(self, table: str) -> int:
        return int(self.con.execute(f"select count(*) from {table}").fetchall()[0][0])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing: a partition's rows are committed together or not at all."""
        self.con.execute("begin transaction").fetchall()  # fetched: else the next relation fails
        try:
            yield
        except BaseException:
            self.con.execute("rollback").fetchall()
            raise
        self.con.execute("commit").fetchall()


#: Lock files this process holds, so a hard exit (a second Ctrl-C) can still remove them.
HELD_LOCKS: set[Path] = set()


def release_held_locks() -> None:
    """Remove the lock files this process holds (the OS releases the locks themselves at exit)."""
    for lock_path in list(HELD_LOCKS):
        lock_path.unlink(missing_ok=True)
        HELD_LOCKS.discard(lock_path)


@contextmanager
def store_lock(path: str | Path = DEFAULT_DB, wait: float = 0.0) -> Iterator[None]:
    """Hold an exclusive lock on the store for a whole pipeline run.

    DuckDB lets one process write; two pipeline runs on one store would otherwise fail halfway.
    The second run is told who holds the lock. `wait` seconds are granted for a short holder.
    The lock file is removed on the way out.
    """
    lock_path = Path(f"{path}.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    while True:
        fh = open(lock_path, "a+")  # noqa: SIM115 - held for the duration of the context
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            if time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            raise StoreLockedError(
                f"{path} is being updated by another ddrank run ({holder}). "
                "Wait for it to finish; nothing was changed."
            ) from None
        if _same_file(fh, lock_path):
            break
        fh.close()  # the holder removed the file as we locked it: lock the new one
    try:
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()} since {time.strftime('%Y-%m-%d %H:%M:%S')}")
        fh.flush()
        HELD_LOCKS.add(lock_path)
        yield
    finally:
        lock_path.unlink(missing_ok=True)
        HELD_LOCKS.discard(lock_path)
        fh.close()  # closing releases the lock, also when the process dies


def _same_file(fh: Any, path: Path) -> bool:
    """Is the locked handle still the file at `path` (not one a finishing holder unlinked)?"""
    try:
        return os.fstat(fh.fileno()).st_ino == path.stat().st_ino
    except FileNotFoundError:
        return False

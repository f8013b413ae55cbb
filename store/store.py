"""`Store`: the one object per run that owns the DuckDB connection and the named queries."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
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


class ArrowStream:
    """A frame as DuckDB reads it through the Arrow C stream interface. DuckDB reads a polars
    DataFrame through `to_arrow()`, which imports pyarrow and numpy (0.3-0.6 s of a director's
    3 s); the frame's own `__arrow_c_stream__` gives the same columns without them."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return self.frame.__arrow_c_stream__(requested_schema)


def arrow_stream(frame: Any) -> Any:
    """`frame` ready for `con.register`: a polars frame behind `ArrowStream`, others as they are.
    A column of polars' Null type (every value None, no type inferred) goes through pyarrow as
    before: DuckDB refuses the C stream's null array (no validity bitmap)."""
    if not type(frame).__module__.startswith("polars"):
        return frame
    return frame if null_columns(frame) else ArrowStream(frame)


def null_columns(frame: Any) -> set[str]:
    """The columns of a polars frame whose type is Null (nothing but None)."""
    import polars as pl

    return {name for name, dtype in frame.schema.items() if dtype == pl.Null}


def describe_failure(exc: BaseException) -> str | None:
    """One sentence a user can act on for a store failure (a full disk, a damaged file, a store
    or folder that cannot be written), or None for anything else. Each statement is a
    transaction, so nothing half-written stays behind."""
    if isinstance(exc, StoreNotWritableError):
        return str(exc)
    if not isinstance(exc, duckdb.Error | OSError):
        return None
    text = str(exc)
    if "No space left on device" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        return (f"no space left on the disk ({text.splitlines()[0]}). Nothing of the step that "
                "failed was kept; free some space and run the same command again.")  # fmt: skip
    if isinstance(exc, OSError) and exc.errno in NOT_WRITABLE_ERRNOS:
        where = exc.filename or text
        return (f"{where}: {exc.strerror or text} (a read-only mount, an immutable file, or "
                "another user's). Nothing was changed.")  # fmt: skip
    damaged = ("not a valid DuckDB database", "Corrupt", "could not read all bytes",
               "Could not read enough bytes", "checksum", "INTERNAL Error")  # fmt: skip
    if isinstance(exc, duckdb.Error) and any(d.lower() in text.lower() for d in damaged):
        return (f"the store is damaged ({text.splitlines()[0]}). Move it aside and run "
                "`ddrank run` (or `ddrank ingest`) with the same files to rebuild it.")  # fmt: skip
    return None


#: What a write to a read-only mount, an immutable file (`chattr +i`) or a file of another user
#: fails with; DuckDB says the same in words.
NOT_WRITABLE_ERRNOS = (errno.EROFS, errno.EPERM, errno.EACCES)
_NOT_WRITABLE_WORDS = ("Read-only file system", "Operation not permitted", "Permission denied")


class StoreNotWritableError(PermissionError):
    """The store cannot be written (a read-only mount, an immutable file, no permission)."""


class StoreLockedError(RuntimeError):
    """Another ddrank process holds the database; DuckDB allows one writer process."""


@cache
def queries() -> Any:
    """Every named query of `sql/queries/*.sql` (aiosql's `-- name: ...` sections)."""
    return aiosql.from_path(QUERY_DIR, "duckdb", mandatory_parameters=False)


def sql_file(name: str) -> str:
    return (SQL_DIR / name).read_text()


def open_connection(path: str | Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the DuckDB file, turning a lock conflict or a store that cannot be written into a
    sentence a user can act on. A read-only open creates nothing, not even the folder."""
    path = Path(path)
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as exc:
        text = str(exc)
        if "lock" in text.lower():
            raise StoreLockedError(
                f"{path} is in use by another ddrank process (DuckDB allows one writer). "
                "Wait for it to finish, or point --db at another file."
            ) from exc
        if not read_only and any(w in text for w in _NOT_WRITABLE_WORDS):
            why = next(w for w in _NOT_WRITABLE_WORDS if w in text)
            raise StoreNotWritableError(
                f"the store {path} cannot be written ({why}: a read-only mount, an immutable "
                "file, or another user's). Nothing was changed; commands that only read "
                "(audit, report, player, event) still work."
            ) from None
        raise
    con.execute("set memory_limit = ?", [memory_limit()]).fetchall()
    if not read_only:
        apply_schema(con)
    return con


#: DuckDB's memory for one store (its default is 80% of the machine's RAM, which it keeps as a
#: page cache and for sorts). Beyond it, DuckDB spills to `<store>.tmp` beside the store. Issue 37:
#: a million results in 2 GB of the whole process tree, and a peak that does not grow with the
#: archive. At 1 GB the run's own process still grew with the store (bench_scale stages, load
#: 6-10, 2026-12-07: clean 875 MB at 300,000 results, 1,087 MB at 1M; ingest's final insert 849
#: MB at 1M); at 512 MB: clean 606 MB (300,000) and 755 MB (1M), ingest 623 MB (1M), with the
#: same CPU time (clean at 1M: 180.6 against 181.5 CPU-s). 256 MB was tried (5ae6e79): one 1M
#: run passed with less memory (own MB: clean 704 -> 510, scoring 663 -> 570), the next ran out
#: of memory in scoring's fingerprint query (`scoring_event_inputs`, a hash aggregate over the
#: archive's table results), so 512 MB stays until that query is bounded by itself.
DEFAULT_MEMORY = "512MB"
MEMORY_ENV = "DDRANK_DUCKDB_MEMORY"
#: The limit `Store.release_cache` sets for a moment: DuckDB evicts every block it can to meet it.
RELEASE_LIMIT = "1MB"


def memory_limit() -> str:
    """The memory_limit a store is opened with (`DDRANK_DUCKDB_MEMORY`, else `DEFAULT_MEMORY`)."""
    return os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Every DDL file in one transaction: one write to disk instead of one per statement (a new
    store took 1.3-1.9 s on a busy disk, 0.5 s so)."""
    con.execute("begin transaction").fetchall()
    try:
        for name in DDL_FILES:
            con.execute(sql_file(name)).fetchall()
    except BaseException:
        con.execute("rollback").fetchall()
        con.close()
        raise
    con.execute("commit").fetchall()


class StoreElsewhere:
    """A `Store` that was pickled into another process: its path, and an error on any use."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"the store {self.path} is open in the run's own process; a worker "
                           "cannot use it (it gets rows and returns rows)")  # fmt: skip


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

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled (Prefect sends a flow's parameters to its pool workers), a store becomes a
        note of its path that cannot be used: DuckDB lets one process hold the file, and
        workers never open it (they get rows and return rows)."""
        return (StoreElsewhere, (str(self.path),))

    def release_cache(self) -> None:
        """Give back DuckDB's cache of the store's blocks (the stages run between).

        DuckDB keeps every block a query read, up to memory_limit, until the limit makes it
        evict: one connection serves the whole run, so what scoring read (233 MB at 1M generated
        results) stayed resident through the skill ratings and the site. Setting a tiny limit
        for a moment evicts the unpinned blocks (the store's blocks are on disk and read again
        when needed) and frees them at once (a 1M store with 164 MB cached: 0 MB left, and the
        process's RSS 265 -> 94 MB at 16 MB, in 0.02-0.1 s); then the run's limit is set again.
        Query results do not depend on the cache."""
        try:
            self.con.execute(f"set memory_limit = '{RELEASE_LIMIT}'").fetchall()
        except duckdb.Error:  # not all of it could be evicted (pinned): what could was
            pass
        finally:
            self.con.execute("set memory_limit = ?", [memory_limit()]).fetchall()

    def checkpoint(self) -> None:
        """Write what the store's log (WAL) holds into the database file now (DuckDB's
        `CHECKPOINT`). DuckDB checkpoints by itself once the log passes `checkpoint_threshold`
        (16 MB), inside whichever statement crosses it: at 1M generated results, an insert into
        scored_results that did rose by up to 226 MB (issue 37). A stage that writes in batches
        checkpoints after each, so each checkpoint writes one batch's rows, outside any insert."""
        self.con.execute("checkpoint").fetchall()

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
        """A query's rows as dicts (fetched 10,000 at a time: memory never holds every row both
        as a tuple and as a dict)."""
        cur = self._cursor(name, sql, params)
        cols = [d[0] for d in cur.description or []]
        out: list[Row] = []
        while batch := cur.fetchmany(10_000):
            out += [dict(zip(cols, r, strict=True)) for r in batch]
        return out

    def batches(self, name: str | None = None, /, size: int = 5_000, sql: str | None = None,
                **params: Any) -> Iterator[list[Row]]:  # fmt: skip
        """A query's rows as dicts, `size` at a time: memory holds one batch, not the result.
        The query runs on its own cursor, so the caller may run other queries between batches."""
        text = sql if sql is not None else self.sql(name or "")
        self.counts[name or "<inline>"] += 1
        cur = self.con.cursor()
        try:
            cur.execute(text, params or None)
            cols = [d[0] for d in cur.description or []]
            while batch := cur.fetchmany(size):
                yield [dict(zip(cols, r, strict=True)) for r in batch]
        finally:
            cur.close()

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
        import polars as pl  # a relation exports an Arrow C stream: no pyarrow (0.3-0.6 s) needed

        return pl.DataFrame(self.con.sql(text, params=params or None))

    def run(self, name: str | None = None, /, sql: str | None = None, **params: Any) -> None:
        """A statement that returns nothing (insert, update, delete)."""
        self._cursor(name, sql, params).fetchall()

    def insert_rows(self, table: str, rows: Iterable[Mapping[str, Any]],
                    schema: Mapping[str, Any], *, or_ignore: bool = False) -> int:  # fmt: skip
        """Append parameter rows to `table` as one frame (`schema`: column -> polars type).

        One columnar insert, not DuckDB's `executemany` (about 0.9 ms a row: 6,000 skill ratings
        took 5.2 s that way and 0.013 s as a frame). `or_ignore`: rows whose key is already
        stored are left out (`INSERT OR IGNORE`)."""
        import polars as pl

        batch = list(rows)
        if not batch:
            return 0
        frame = pl.DataFrame({c: [r.get(c) for r in batch] for c in schema},
                             schema=dict(schema))  # fmt: skip
        return self.insert_frame(table, frame, or_ignore=or_ignore)

    def insert_frame(self, table: str, frame: Any, *, or_ignore: bool = False) -> int:
        """Append a polars/arrow frame to `table`, matching columns by name (`or_ignore`: rows
        whose key is already stored are left out)."""
        if len(frame) == 0:
            return 0
        self.counts[f"insert:{table}"] += 1
        nulls = null_columns(frame) if type(frame).__module__.startswith("polars") else set()
        if len(nulls) == len(frame.columns):  # nothing but None: the frame as it is (pyarrow)
            nulls = set()
        self.con.register("_ddrank_frame", arrow_stream(frame.drop(*nulls) if nulls else frame))
        try:
            cols = ", ".join(f'"{c}"' for c in frame.columns)
            values = ", ".join("NULL" if c in nulls else f'"{c}"' for c in frame.columns)
            verb = "insert or ignore" if or_ignore else "insert"
            self.con.execute(f"{verb} into {table} ({cols}) select {values} from _ddrank_frame")
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


class LockRefusedError(StoreLockedError):
    """The lock file's place holds something ddrank will not write to (a symbolic link, a
    hard-linked or special file): following it would overwrite another file."""


def _open_lock(lock_path: Path) -> int:
    """Open (or create) the lock file without following a symbolic link, and refuse anything but
    a plain file of one link: the holder's pid is written into it."""
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW: the last part of the path is a symlink
            raise LockRefusedError(
                f"{lock_path} is a symbolic link; ddrank never follows one for its lock (it "
                "would overwrite the file it points to). Remove it and run again."
            ) from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        what = "not a plain file" if not stat.S_ISREG(info.st_mode) else "a hard link"
        raise LockRefusedError(
            f"{lock_path} is {what}; ddrank writes its lock only to a plain file of its own. "
            "Remove it and run again."
        )
    return fd


@contextmanager
def store_lock(path: str | Path = DEFAULT_DB, wait: float = 0.0) -> Iterator[None]:
    """Hold an exclusive lock on the store for a whole pipeline run.

    DuckDB lets one process write; two pipeline runs on one store would otherwise fail halfway.
    The second run is told who holds the lock. `wait` seconds are granted for a short holder.
    The lock is an `fcntl` lock on `<db>.lock`, opened with `O_NOFOLLOW`: a symbolic link (or a
    hard link) placed there is refused, never written through. A lock file left by a process
    that died holds no lock, so the next run takes it over. The file is removed on the way out.
    """
    lock_path = Path(f"{path}.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    while True:
        fd = _open_lock(lock_path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            if time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            raise StoreLockedError(
                f"{path} is being updated by another ddrank run ({holder}). "
                "Wait for it to finish; nothing was changed."
            ) from None
        if _same_file(fd, lock_path):
            break
        os.close(fd)  # the holder removed the file as we locked it: lock the new one
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} since {time.strftime('%Y-%m-%d %H:%M:%S')}".encode(), 0)
        HELD_LOCKS.add(lock_path)
        yield
    finally:
        lock_path.unlink(missing_ok=True)
        HELD_LOCKS.discard(lock_path)
        os.close(fd)  # closing releases the lock, also when the process dies


def _same_file(fd: int, path: Path) -> bool:
    """Is the locked file still the one at `path` (not one a finishing holder unlinked)?"""
    try:
        return os.fstat(fd).st_ino == path.lstat().st_ino
    except FileNotFoundError:
        return False

"""DuckDB access: one place opens the store, applies the DDL and explains lock conflicts."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"
DEFAULT_DB = Path("data/ddrank.duckdb")
# Idempotent DDL, applied in this order on every read-write connect (later files may use earlier).
DDL_FILES = (
    "schema.sql",
    "event_schema.sql",
    "player_matches.sql",
    "dd_schema.sql",
    "scoring_schema.sql",
    "skill_schema.sql",
)


class StoreLockedError(RuntimeError):
    """Another ddrank process holds the database; DuckDB allows one writer process."""


def sql_file(name: str) -> str:
    return (SQL_DIR / name).read_text()


def connect(path: str | Path = DEFAULT_DB, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the store and make sure every table exists (all DDL in sql/ is idempotent)."""
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
        if not (SQL_DIR / "schema.sql").exists():
            raise FileNotFoundError(f"{SQL_DIR / 'schema.sql'}: the store's DDL is missing")
        for name in DDL_FILES:
            if (SQL_DIR / name).exists():
                con.execute(sql_file(name)).fetchall()
    return con


@contextmanager
def store_lock(path: str | Path = DEFAULT_DB, wait: float = 0.0) -> Iterator[None]:
    """Hold an exclusive lock on the store for a whole pipeline run.

    DuckDB lets one process write; two pipeline runs on one store would otherwise fail halfway
    (or, across a crash, double-count). The second run is told who holds the lock instead.
    `wait` seconds are granted for a short holder (the inbox watcher reading the store) to let go.
    """
    lock_path = Path(f"{path}.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fh = open(lock_path, "a+")  # noqa: SIM115 - held for the duration of the context
    deadline = time.monotonic() + wait
    try:
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() < deadline:
                    time.sleep(0.2)
                    continue
                fh.seek(0)
                holder = fh.read().strip() or "another process"
                raise StoreLockedError(
                    f"{path} is being updated by another ddrank run ({holder}). "
                    "Wait for it to finish; nothing was changed."
                ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()} since {time.strftime('%Y-%m-%d %H:%M:%S')}")
        fh.flush()
        yield
    finally:
        fh.close()  # closing releases the lock, also when the process dies

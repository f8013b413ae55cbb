"""Transitional: the store moved to `store/` (one `Store` object per run). Import from there."""

from __future__ import annotations

from pathlib import Path

import duckdb

from store.store import (  # noqa: F401 - re-exported while modules move to Store
    DDL_FILES,
    DEFAULT_DB,
    SQL_DIR,
    StoreLockedError,
    open_connection,
    sql_file,
    store_lock,
)


def connect(path: str | Path = DEFAULT_DB, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the store and make sure every table exists (all DDL in sql/ is idempotent)."""
    return open_connection(path, read_only)

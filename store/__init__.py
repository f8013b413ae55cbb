"""The store: one DuckDB connection per run, the DDL, and the named queries of `sql/`.

Every table is read and written through a `Store` (Kedro's catalog, for DuckDB): no other module
opens the database or writes SQL inline. Workers never open it (DuckDB lets one process hold the
file); they get rows and return rows. The names below are imported on first use, so
`store.DEFAULT_DB` costs no DuckDB import.
"""

from typing import Any

from store.defaults import DEFAULT_DB

__all__ = ["DEFAULT_DB", "Store", "StoreLockedError", "store_lock"]


def __getattr__(name: str) -> Any:
    if name in ("Store", "StoreLockedError", "store_lock"):
        from store import store as _store

        return getattr(_store, name)
    raise AttributeError(f"module 'store' has no attribute {name!r}")

"""The store: one DuckDB connection per run, the DDL, and the named queries of `sql/`.

Every table is read and written through a `Store` (Kedro's catalog, for DuckDB): no other module
opens the database or writes SQL inline. Workers never open it (DuckDB lets one process hold the
file); they get rows and return rows.
"""

from store.store import DEFAULT_DB, Store, StoreLockedError, store_lock

__all__ = ["DEFAULT_DB", "Store", "StoreLockedError", "store_lock"]

"""DuckDB access: one place opens the store, applies the DDL and explains lock conflicts."""

from __future__ import annotations

from pathlib import Path

import duckdb

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"
DEFAULT_DB = Path("data/ddrank.duckdb")
# Idempotent DDL, applied in this order on every read-write connect (later files may use earlier).
DDL_FILES = ("schema.sql", "player_matches.sql", "dd_schema.sql", "scoring_schema.sql")


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
        for name in DDL_FILES:
            if (SQL_DIR / name).exists():
                con.execute(sql_file(name)).fetchall()
    return con

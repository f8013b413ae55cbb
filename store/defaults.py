"""Where the store lives when a command is not told: the one place this path is written.

Kept apart from `store.store` so the command line can show it in `--help` without importing DuckDB.
"""

from pathlib import Path

DEFAULT_DB = Path("data/ddrank.duckdb")

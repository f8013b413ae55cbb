"""Where the store and the outputs go when a command is not told: the one place these paths are
written. Both are relative, so they are taken from the current directory (an installed wheel
writes where it is run, never into its own package).

Kept apart from `store.store` so the command line can show it in `--help` without importing DuckDB.
"""

from pathlib import Path

#: The DuckDB store: `ddrank.duckdb` in the current directory.
DEFAULT_DB = Path("ddrank.duckdb")
#: Reports, exports and the site: `out/` in the current directory.
DEFAULT_OUT = Path("out")

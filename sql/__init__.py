"""DuckDB DDL and aggregation queries (a package only so that installs carry the .sql files)."""

-- Named queries of the store as a whole. Each room of the pipeline keeps its own file here;
-- `store.Store` runs them by name (aiosql named sections, DuckDB `$param` placeholders).

-- name: table_names
-- Every table of the store, for counts and freshness checks.
select table_name from information_schema.tables where table_schema = 'main' order by table_name;

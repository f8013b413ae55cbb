"""The store gives DuckDB's cache back between stages (issue 37: a peak that does not grow with
the archive), and nothing a query returns changes.

Real records: the bundled 2012 world-class PBN (7,632 table results).
"""

from __future__ import annotations

from pathlib import Path

from stages.ingest import ingest_paths
from store import Store
from store.store import RELEASE_LIMIT

ROOT = Path(__file__).resolve().parent.parent
PBN = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
CACHED = "select coalesce(sum(memory_usage_bytes), 0) from duckdb_memory() where tag = 'BASE_TABLE'"
LIMIT = "select current_setting('memory_limit')"


def _cached(store: Store) -> int:
    return int(store.con.execute(CACHED).fetchall()[0][0])


def test_release_cache_evicts_the_store_blocks_and_keeps_the_limit(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    with Store(db) as store:
        ingest_paths(store, [PBN])
    with Store(db) as store:  # a fresh connection: nothing cached yet
        limit = store.con.execute(LIMIT).fetchall()
        whole = "select count(*), sum(hash(columns(*))) from raw_records"
        before = store.con.execute(whole).fetchall()
        assert before[0][0] == 7632
        cached = _cached(store)
        assert cached > 2**20  # the records' blocks, read once, stay cached
        store.release_cache()
        assert _cached(store) < min(cached, 2**20)  # evicted down to RELEASE_LIMIT
        assert RELEASE_LIMIT == "1MB"
        assert store.con.execute(LIMIT).fetchall() == limit  # the run's limit is back
        assert store.con.execute(whole).fetchall() == before  # read again from the file
        assert _cached(store) >= cached - 2**20


def test_each_stage_starts_without_the_cache_of_the_one_before(tmp_path: Path) -> None:
    """The stage list (as `ddrank results` runs it) releases the cache after each stage: every
    stage after the first starts with at most RELEASE_LIMIT of the store's blocks cached, and the
    stages' results are those of the stage list (scores and skill ratings of the PBN)."""
    from stages.pipeline import open_run, run_stages
    from stages.settings import load_settings

    settings = load_settings(inputs=[str(PBN)], db=str(tmp_path / "s.duckdb"),
                             out=str(tmp_path / "out"), workers=1, double_dummy=False,
                             regression=False, names_scope="none", ratings=True)  # fmt: skip
    at_start: dict[str, int] = {}
    at_end: dict[str, int] = {}
    limits = set()

    def call(stage, run):  # noqa: ANN001, ANN202 - the stage list's hook
        at_start[stage.name] = _cached(run.store)
        limits.add(run.store.con.execute(LIMIT).fetchall()[0][0])
        out = stage.run(run)
        at_end[stage.name] = _cached(run.store)
        return out

    with open_run(settings) as run:
        summary = run_stages(run, call)
        limits.add(run.store.con.execute(LIMIT).fetchall()[0][0])
        rated = run.store.table_count("skill_ratings")
        scored = run.store.table_count("scored_results")
    assert list(at_start)[:2] == ["ingest", "clean"] and "skill ratings" in at_start
    assert scored == 7328 and rated > 0 and summary["skill"]["boards"] > 0
    assert max(at_end.values()) > 2**20  # the stages do read blocks into the cache
    for name in list(at_start)[1:]:
        assert at_start[name] <= 2**20, name
    assert len(limits) == 1  # the run's limit (memory_limit()) after every release

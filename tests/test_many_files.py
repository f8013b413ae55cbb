"""Many small files, one pass (issue 32, finding 7: 10,000 one-table LIN files had not finished
`ddrank results` after 900 s and flooded Prefect's event queue).

The time is measured by `bench/bench_ingest.py --many-files` (no timing here: a shared machine).
These tests check what makes many files cost what one file costs, on one-table LIN files made
by the bench's generator from the bundled vugraph file's real tables (GENERATED, for scale only):
the same records as one file holding the same texts, written by as many statements as that one
file needs (not one per file); and past `CACHED_EVENTS_UP_TO` changed events, scoring runs in the
stage itself, not through the flow's (Prefect-cached) session task per event.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hostile import ROOT

from ddrank.scoring.score import score
from stages import scoring_stage
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from stages.settings import PipelineSettings
from store import Store


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_ingest", ROOT / "bench" / "bench_ingest.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ingest(db: Path, path: Path) -> tuple[dict, set[str], int]:
    with Store(db) as store:
        summary = ingest_paths(store, [path], workers=1)
        ids = {rid for (rid,) in store.con.execute("select record_id from raw_records").fetchall()}
        return summary.as_dict(), ids, store.counts["insert_raw_records_from"]


def test_many_files_are_written_like_one_file(tmp_path: Path) -> None:
    many, one = _bench().one_table_lins(tmp_path, 300)
    assert len(list(many.iterdir())) == 300
    m, many_ids, many_writes = _ingest(tmp_path / "many.duckdb", many)
    o, one_ids, one_writes = _ingest(tmp_path / "one.duckdb", one)
    assert (m["files"], o["files"]) == (300, 1)
    assert m["new"] == o["new"] == 300  # one table each: the same 300 table results
    assert many_ids == one_ids
    assert many_writes == one_writes == 1  # one insert for 300 files, not 300


@pytest.fixture
def sixty_files(tmp_path: Path) -> Path:
    """60 one-table files, two events (the generator's title changes every 30 tables), cleaned."""
    many, _ = _bench().one_table_lins(tmp_path, 60)
    db = tmp_path / "s.duckdb"
    with Store(db) as store:
        ingest_paths(store, [many], workers=1)
        clean_pending(store, workers=1)
    return db


@pytest.mark.parametrize("up_to, cached", [(50, True), (1, False)])
def test_past_the_cached_limit_events_are_scored_in_the_stage(
    sixty_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, up_to: int, cached: bool
) -> None:
    """Two changed events: the batch is marked for the flow's cached session task when the limit
    allows, and scored in the stage itself past it; the same scores either way."""
    monkeypatch.setattr(scoring_stage, "CACHED_EVENTS_UP_TO", up_to)
    settings = PipelineSettings(db=str(sixty_files), out=str(tmp_path / "out"), ratings=False)
    marked = []
    with Store(sixty_files) as store:
        run = scoring_stage.ScoringRun(store, settings)
        for work in run.batches():
            marked.append((work.cached, len(work.sources)))
            run.take(work, {ev: score(src, run.settings) for ev, src in work.sources.items()})
        summary = run.finish()
    assert marked == [(cached, 2)]
    assert summary["results"] == 60 and len(summary["rescored"]) == 2

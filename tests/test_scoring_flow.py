"""`ddrank run`'s score → ratings → split stage: outputs in out/, and a rerun with one new file
scores only that file's event (the others are cached on their content)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from pipeline_run import run_pipeline

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
USEBIO = (
    ROOT.parent / "shared" / "data" / "events" / "usebio" / "realbridge-club-2025-04-07.usebio.xml"
)

pytestmark = pytest.mark.flow


@pytest.mark.skipif(
    not USEBIO.is_file(),
    reason="../shared/data/events is absent; USEBIO files may not be bundled: no licence (SOURCES.md)",
)
def test_run_scores_rates_and_rescores_only_the_new_event(
    lin_pipeline: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    # The first run is the session's uninterrupted run over the LIN (tests/conftest.py), copied:
    # its store and outputs, as `ddrank run` left them.
    db, first = lin_pipeline
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert "scoring: 1 event(s) scored, 0 unchanged" in first.stdout + first.stderr  # flow log
    for made in db.parent.iterdir():
        if made.name.startswith("full"):
            copy = shutil.copytree if made.is_dir() else shutil.copy2
            copy(made, tmp_path / made.name)
    out = tmp_path / "full-out"
    for name in ("results.csv", "ranking.csv", "ratings.csv", "teams.csv"):
        assert (out / name).is_file(), name
    with (out / "ranking.csv").open() as fh:
        header = next(csv.reader(fh))
    assert header == ["event", "session", "section", "direction", "pair", "players", "boards",
                      "mp", "pct", "rank", "place_text", "score_text", "pct_text"]  # fmt: skip

    second = run_pipeline(tmp_path, "full", [LIN, USEBIO])
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "scoring: 1 event(s) scored, 1 unchanged" in second.stdout + second.stderr
    con = duckdb.connect(str(tmp_path / "full.duckdb"), read_only=True)
    try:
        assert con.sql("select count(*) from scored_events").fetchall() == [(2,)]
        published = con.sql("select count(*), count(*) filter (where abs(ns_mp - published_ns_mp)"
                            " <= 0.01) from scored_results where published_ns_mp is not null"
                            ).fetchall()  # fmt: skip
        assert published == [(168, 168)]
        periods = con.sql("select count(*) from rating_periods").fetchall()
        assert periods == [(2,)]
    finally:
        con.close()
    report = (out / "report.md").read_text()
    assert "| matchpoints per line | 168 | 168 | 0 |" in report


WELWYN = ROOT.parent / "shared" / "data" / "events" / "usebio" / "welwyn-2025-04-09.usebio.xml"


def _ddrank(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false")
    done = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


@pytest.mark.skipif(
    not WELWYN.is_file(),
    reason="../shared/data/events is absent; USEBIO files may not be bundled: no licence (SOURCES.md)",
)
def test_flow_with_settings_mp_method_none_writes_what_ddrank_score_writes(tmp_path: Path) -> None:
    """A deployment-style call of `score-events-and-lehman` with settings mp_method="none" (each
    board on its own top, as BriAn publishes) gives the results.csv of `ddrank score FILE
    --mp-method none`, and every published matchpoint of the Welwyn club night agrees."""
    from flows.scoring import score_events_and_lehman
    from flows.server import prefect_api
    from stages.settings import PipelineSettings

    db, out = tmp_path / "store.duckdb", tmp_path / "out"
    _ddrank("ingest", str(WELWYN), "--db", str(db))
    _ddrank("clean", "--db", str(db), "--workers", "1")
    settings = PipelineSettings(inputs=[str(WELWYN)], db=str(db), out=str(out), workers=1,
                                mp_method="none")  # fmt: skip
    with prefect_api():
        summary = score_events_and_lehman(settings)
    assert summary["published"][0] == {"what": "matchpoints per line", "compared": 144,
                                       "agree": 144, "disagree": 0}  # fmt: skip
    _ddrank("score", str(WELWYN), "--mp-method", "none", "--out", str(tmp_path / "score"))
    by_flow = _csv_rows(out / "results.csv")
    by_score = _csv_rows(tmp_path / "score" / "results.csv")
    assert len(by_flow) == 144
    # One event either way; the store names it by its event id, a file by its name and date.
    assert len({r["event"] for r in by_flow}) == len({r["event"] for r in by_score}) == 1
    key = ("session", "section", "board", "ns_pair", "ew_pair")

    def order(rows: list[dict[str, str]]) -> list[dict[str, str]]:
        rows = [{k: v for k, v in r.items() if k != "event"} for r in rows]
        return sorted(rows, key=lambda r: tuple(r[k] for k in key))

    assert order(by_flow) == order(by_score)
    board21 = [r for r in by_flow if r["board"] == "21" and r["published_ns_mp"]]
    assert all(r["ns_mp"] == r["published_ns_mp"] for r in board21)  # a top of 8, not 10


def test_each_stage_reads_the_table_results_once(tmp_path: Path) -> None:
    """Scoring, Lehman, the split and the skill ratings of a run on a real file: each stage issues
    one read of the table results (scoring reads the boards, the rest read `scored_results`; the
    skill stage one per batch of whole events)."""
    from stages import ratings, scoring, skill, split
    from store import Store

    db, out = tmp_path / "store.duckdb", tmp_path / "out"
    _ddrank("ingest", str(LIN), "--db", str(db))
    _ddrank("clean", "--db", str(db), "--workers", "1")
    with Store(db) as store:
        loaded = scoring.load_store(store)
        done = scoring.score_and_save(store, loaded)
        assert store.counts["scoring_boards"] == 1
        rated = ratings.update_ratings(store)
        assert store.counts["rating_boards"] == 1 and rated["periods"] == 1
        imp_events = [ev for ev, sc in done["scores"].items() if sc.info.scoring == "TEAMS"]
        assert imp_events, "the USBF semi-final is a teams event"
        summary = split.split_imp_events(store, imp_events, out / "split")
        assert summary["max_residual"] < 1e-9 and summary["tables"] > 0
        # the split reads a batch of whole events at a time (issue 37): one event, one read
        assert store.counts["scored_tables_of"] == 1
        rated_skill = skill.rate_store(store)
        assert rated_skill["boards"] == summary["tables"]
        # the skill stage reads a batch of whole events at a time (issue 37: bounded memory):
        # this file is one event, so one read of its scored table results
        # (the query the split reads too: the split's read and this one)
        assert store.counts["scored_tables_of"] == 2
        reads = {
            q: n
            for q, n in store.counts.items()
            if q in ("scoring_boards", "rating_boards", "scored_tables_of")
        }
        assert reads == {"scoring_boards": 1, "rating_boards": 1, "scored_tables_of": 2}

"""The DD engine end to end: real records through ingest, cleaning and the `dd_analysis` flow.

* DDS's own regression deals (data/dds/list100.txt), converted to a PBN hand record, must come out
  of the store with exactly DDS's TABLE and TRACE.
* The 2012 world-class sample (a subset by default; the whole file under `-m slow`) must give a
  trace of cards + 1 values for every valid play, auction counters for every board with an
  auction, and a `ddrank stats` CSV in the paper's layout without NaN.
* A board that kills the solver costs only itself: it is quarantined, everything else finishes, and
  a rerun computes nothing.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import duckdb
import polars as pl
import pytest
from fixtures.list100 import list100_pbn, parse_list100, play_seats

from ddrank.dd import (
    SolveJob,
    SolveOutput,
    SolverCrash,
    TrickTable,
    play_problem,
    solve_with_bisection,
)
from ddrank.dd.sandbox import FAULT_ENV
from ddrank.mistakes import VARIABLES
from ddrank.types import Card, Deal, Seat
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store import Store

ROOT = Path(__file__).resolve().parents[1]
WORLDCLASS = ROOT / "ddrank/data/sample/pbn/worldclass-2012-example3.pbn"
CASES = parse_list100()


# ---------------------------------------------------------------- pure parts (no solver, no flow)


def test_every_list100_play_is_legal_and_corruptions_are_caught() -> None:
    """The validator accepts all 100 real plays and names the fault in corrupted copies: a card the
    seat does not hold, a revoke, and a card played out of turn. DDS would crash on these."""
    for case in CASES:
        deal = Deal.from_pbn(case.pbn)
        cards = [Card.parse(c) for c in case.play]
        seats = play_seats(case)
        assert play_problem(deal, case.trump, case.leader, cards, seats) is None
    case = CASES[0]  # N leads CT; E holds C4 and CQ, so a diamond from E is a revoke
    deal = Deal.from_pbn(case.pbn)
    cards = [Card.parse(c) for c in case.play[:4]]
    seats = play_seats(case)[:4]
    stolen = [Card.parse("SA")] + cards[1:]  # SA is in W's hand, not N's
    assert "not in N's remaining hand" in play_problem(deal, case.trump, case.leader, stolen, seats)
    revoke = [cards[0], Card.parse("D4")] + cards[2:]
    assert "revoked" in play_problem(deal, case.trump, case.leader, revoke, seats)
    turn = [seats[1], seats[0]] + seats[2:]
    assert "was to play" in play_problem(deal, case.trump, case.leader, cards, turn)


def test_bisection_isolates_the_single_crashing_item() -> None:
    """With a solver that dies on one deal, bisection returns every other result and names exactly
    that deal; a job with no bad item runs once."""
    jobs = tuple((f"d{i}", f"pbn{i}") for i in range(11))

    def solver(job: SolveJob) -> SolveOutput:
        if any(deal_id == "d7" for deal_id, _ in job.tables):
            raise SolverCrash(-11, "Segmentation fault")
        return SolveOutput(tables={d: (7,) * 20 for d, _ in job.tables}, solver_runs=1)

    out = solve_with_bisection(SolveJob(tables=jobs), solver)
    assert sorted(out.tables) == sorted(d for d, _ in jobs if d != "d7")
    assert [d for d, _ in out.crashed_deals] == ["d7"]
    assert "SIGSEGV" in out.crashed_deals[0][1]
    clean = solve_with_bisection(SolveJob(tables=jobs[:7]), solver)
    assert clean.solver_runs == 1 and not clean.crashed_deals


# ---------------------------------------------------------------- store + flow


@pytest.fixture(scope="module")
def prefect_server():
    """The worker's Prefect API (tests/prefect_server.py; each flow run would otherwise start
    its own)."""
    from prefect_server import worker_api

    with worker_api() as url:
        yield url


def _ingest(db: Path, pbn: Path, partition_size: int) -> None:
    with Store(db) as store:
        ingest_paths(store, [pbn], partition_size=partition_size)
        clean_pending(store, workers=1)


def _snapshot(db: Path) -> dict[str, list]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
            for t in ("dd_tables", "play_traces", "player_board_stats", "boards", "exclusions")
        }
    finally:
        con.close()


def _stored_tables(con: duckdb.DuckDBPyConnection) -> dict[str, TrickTable]:
    cells: dict[str, list[int]] = {}
    for deal_id, strain, declarer, tricks in con.execute("SELECT * FROM dd_tables").fetchall():
        from ddrank.types import Strain

        cells.setdefault(deal_id, [0] * 20)[
            int(Strain.parse(strain)) * 4 + int(Seat.parse(declarer))
        ] = tricks
    return {d: TrickTable(tuple(c)) for d, c in cells.items()}


@pytest.fixture(scope="module")
def list100_db(tmp_path_factory, prefect_server) -> tuple[Path, dict]:
    """list100 as a PBN file -> ingest (4 partitions) -> clean -> dd_analysis with 2 workers."""
    from flows.dd_analysis import dd_analysis

    tmp = tmp_path_factory.mktemp("list100")
    pbn = tmp / "list100.pbn"
    pbn.write_text(list100_pbn(CASES))
    db = tmp / "store.duckdb"
    _ingest(db, pbn, partition_size=25)
    # refresh_cache: really run DDS here, even if an earlier run persisted these partitions
    summary = dd_analysis(db=str(db), workers=2, refresh_cache=True)
    return db, summary


def test_list100_tables_and_traces_equal_dds_reference(list100_db) -> None:
    """Every stored DD table equals TABLE; every stored trace equals TRACE card for card. DDS
    reports 48 cards at most (the last trick is forced), so a 52-card trace continues with the
    value after card 48, making cards + 1 values in all."""
    db, summary = list100_db
    assert summary["boards_tallied"] == 100 and summary["quarantined"] == []
    assert summary["tables_computed"] == 100 and summary["traces_computed"] == 100
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = _stored_tables(con)
        rows = con.execute(
            "SELECT b.board_no, b.deal_id, t.trace, len(b.play) FROM boards b "
            "JOIN play_traces t USING (record_id)"
        ).fetchall()
    finally:
        con.close()
    assert len(tables) == 100 and len(rows) == 100
    for board_no, deal_id, trace, cards in rows:
        case = CASES[int(board_no) - 1]
        flat = [v for row in tables[deal_id].to_dds_rows() for v in row]
        assert flat == list(case.table), f"board {board_no}: DD table"
        assert len(trace) == cards + 1 == len(case.play) + 1
        assert tuple(trace[: len(case.trace)]) == case.trace, f"board {board_no}: trace"
        assert set(trace[len(case.trace) - 1 :]) == {case.trace[-1]}


def test_list100_rerun_computes_nothing_and_changes_nothing(list100_db) -> None:
    """A second run finds no pending board: no DDS call, identical store."""
    from flows.dd_analysis import dd_analysis

    db, _ = list100_db
    before = _snapshot(db)
    summary = dd_analysis(db=str(db), workers=2)
    assert summary["pending_boards"] == 0
    assert summary["tables_computed"] == summary["traces_computed"] == summary["solver_runs"] == 0
    assert _snapshot(db) == before


def test_crashing_board_is_quarantined_and_everything_else_completes(
    tmp_path, prefect_server, monkeypatch
) -> None:
    """Six list100 boards in three partitions; the solver process dies with SIGSEGV whenever it is
    handed deal #4 (fault injection through the environment, inherited by the real solver child).
    The flow bisects partition 1 down to that deal, quarantines its board as solver_crash (moved
    from boards to exclusions, so raw = boards + exclusions still holds) and stores correct
    tables, traces and counters for the five others. A rerun without the fault computes nothing."""
    from flows.dd_analysis import dd_analysis

    cases = CASES[:6]
    bad = Deal.from_pbn(cases[3].pbn).deal_id
    pbn = tmp_path / "six.pbn"
    pbn.write_text(list100_pbn(cases))
    db = tmp_path / "store.duckdb"
    _ingest(db, pbn, partition_size=2)
    monkeypatch.setenv(FAULT_ENV, bad)
    summary = dd_analysis(db=str(db), workers=2, refresh_cache=True)
    assert summary["boards_tallied"] == 5
    assert len(summary["quarantined"]) == 1 and summary["solver_runs"] > 3
    con = duckdb.connect(str(db), read_only=True)
    try:
        excl = con.execute("SELECT record_id, reason, detail FROM exclusions").fetchall()
        raw, kept = con.execute(
            "SELECT (SELECT count(*) FROM raw_records), (SELECT count(*) FROM boards)"
        ).fetchone()
        tables = _stored_tables(con)
        stats_boards = con.execute(
            "SELECT count(DISTINCT record_id) FROM player_board_stats"
        ).fetchone()[0]
        traces = con.execute("SELECT count(*) FROM play_traces").fetchone()[0]
    finally:
        con.close()
    assert [(r, why) for r, why, _ in excl] == [(summary["quarantined"][0], "solver_crash")]
    assert "SIGSEGV" in excl[0][2]
    assert (raw, kept) == (6, 5) and stats_boards == 5 and traces == 5
    assert bad not in tables and len(tables) == 5
    for case in cases:
        deal_id = Deal.from_pbn(case.pbn).deal_id
        if deal_id != bad:
            assert [v for r in tables[deal_id].to_dds_rows() for v in r] == list(case.table)
    monkeypatch.delenv(FAULT_ENV)
    before = _snapshot(db)
    again = dd_analysis(db=str(db), workers=2)
    assert again["pending_boards"] == 0 and again["solver_runs"] == 0
    assert _snapshot(db) == before


def _worldclass_subset(path: Path, games: int | None) -> Path:
    """The first `games` table results of the 2012 sample (whole boards: the second table of a
    board inherits its deal from the first, so the cut falls between boards)."""
    text = WORLDCLASS.read_text(encoding="latin-1")
    if games is None:
        return WORLDCLASS
    blocks = text.split("\n\n")
    path.write_text("\n\n".join(blocks[:games]) + "\n", encoding="latin-1")
    return path


def _check_real_data(db: Path, out_csv: Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    con = duckdb.connect(str(db), read_only=True)
    try:
        boards = con.execute("SELECT count(*) FROM boards").fetchone()[0]
        assert boards > 0
        # every board with a (valid) play has a trace of cards + 1 values
        bad_traces = con.execute(
            "SELECT count(*) FROM boards b LEFT JOIN play_traces t USING (record_id) "
            "WHERE b.play IS NOT NULL AND len(b.play) > 0 AND b.declarer IS NOT NULL "
            "AND b.record_id NOT IN (SELECT record_id FROM play_issues WHERE reason = 'dd_invalid_play') "
            "AND (t.trace IS NULL OR len(t.trace) <> len(b.play) + 1)"
        ).fetchone()[0]
        assert bad_traces == 0
        with_play = con.execute("SELECT count(*) FROM play_traces").fetchone()[0]
        assert with_play > 0
        # every kept board with an auction has auction statistics for all four seats
        missing = con.execute(
            "SELECT count(*) FROM boards b WHERE b.auction IS NOT NULL AND b.auction <> '' "
            "AND (SELECT count(*) FROM player_board_stats s WHERE s.record_id = b.record_id "
            "     AND s.auctions_analyzed = 1) <> 4"
        ).fetchone()[0]
        assert missing == 0
        assert con.execute("SELECT count(*) FROM boards WHERE auction <> ''").fetchone()[0] > 0
    finally:
        con.close()
    result = CliRunner().invoke(app, ["stats", "--db", str(db), "--csv", str(out_csv)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    try:  # Table 4 rates: NULL exactly where the denominator is 0, never NaN
        from ddrank.mistakes.variables import RATES

        cols = {r[0] for r in con.execute("DESCRIBE player_stats").fetchall()}
        assert {r for r, _, _ in RATES} | set(VARIABLES) <= cols
        for rate, _num, den in RATES:
            wrong = con.execute(
                f"SELECT count(*) FROM player_stats WHERE ({den} = 0) <> ({rate} IS NULL) "
                f"OR isnan({rate})"
            ).fetchone()[0]
            assert wrong == 0, rate
    finally:
        con.close()
    df = pl.read_csv(out_csv, infer_schema_length=None)
    paper = (ROOT / "data/paper/dds_final_results.csv").open().readline().split(",")
    assert df.columns == [c.strip() for c in paper]
    assert df.height > 0 and df["mp"].null_count() == df.height  # names not matched here
    for col in VARIABLES:
        values = df[col].to_list()
        assert all(v is not None and not math.isnan(v) for v in values), col
    assert df["auctions_analyzed"].sum() > 0 and df["cards_played_as_declarer"].sum() > 0


def test_real_2012_sample_subset(tmp_path, prefect_server) -> None:
    """The first 60 table results of the 2012 world-class file (30 boards, two tables each)."""
    from flows.dd_analysis import dd_analysis

    db = tmp_path / "store.duckdb"
    _ingest(db, _worldclass_subset(tmp_path / "subset.pbn", 60), partition_size=500)
    summary = dd_analysis(db=str(db), runner="thread", workers=1, refresh_cache=True)
    assert summary["tables_computed"] < summary["boards_tallied"]  # one table per distinct deal
    _check_real_data(db, tmp_path / "stats.csv")


@pytest.mark.slow
def test_real_2012_sample_whole_file(tmp_path, prefect_server) -> None:
    """All 7,632 table results (2,298 distinct deals): several minutes of DDS on 2 cores."""
    from flows.dd_analysis import dd_analysis

    db = tmp_path / "store.duckdb"
    _ingest(db, WORLDCLASS, partition_size=500)
    dd_analysis(db=str(db), workers=os.cpu_count() or 1)
    _check_real_data(db, tmp_path / "stats.csv")

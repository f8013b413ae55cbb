"""Ingest and clean into DuckDB: accounting identity, idempotence, partitions, bad input."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from ddrank.types import Deal
from stages.audit import audit_tables
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store.store import open_connection as connect

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA.parent / "ddrank" / "data" / "sample"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "ddrank.duckdb"
    con = connect(db)
    first = ingest_paths(con, [SAMPLE / "pbn", SAMPLE / "lin"], partition_size=500)
    assert (first.read, first.new, first.duplicate) == (7961, 7961, 0)
    clean_pending(con, workers=1)
    con.close()
    return db


def test_raw_records_equal_boards_plus_exclusions(store: Path) -> None:
    con = connect(store)
    audit = audit_tables(con)
    assert audit["raw_records"] == 7632 + 299 + 30
    assert audit["boards"] + audit["excluded"] == audit["raw_records"] and audit["balanced"]
    # every raw record is in exactly one of the two tables
    both = con.sql("SELECT count(*) FROM boards JOIN exclusions USING (record_id)").fetchall()
    assert both == [(0,)]


def test_second_ingest_reports_nothing_new(store: Path) -> None:
    con = connect(store)
    again = ingest_paths(con, [SAMPLE / "pbn", SAMPLE / "lin"])
    assert (again.new, again.duplicate) == (0, 7961)
    assert clean_pending(con).cleaned == 0


def test_every_board_has_52_distinct_cards(store: Path) -> None:
    con = connect(store)
    deals = [d for (d,) in con.sql("SELECT DISTINCT deal FROM boards").fetchall()]
    assert len(deals) > 2000
    for deal in deals:
        hands = Deal.from_pbn(deal).hands  # raises unless 4 x 13 distinct cards
        assert len(frozenset().union(*(h.cards for h in hands))) == 52


def test_boards_are_partitioned_and_deals_hashed(store: Path) -> None:
    con = connect(store)
    sizes = con.sql("SELECT partition_id, count(*) FROM raw_records GROUP BY 1").fetchall()
    assert max(n for _, n in sizes) == 500
    same_deal = con.sql(
        "SELECT count(DISTINCT deal_id), count(DISTINCT deal) FROM boards"
    ).fetchall()[0]
    assert same_deal[0] == same_deal[1]


def test_new_file_adds_only_its_new_records(tmp_path: Path) -> None:
    """A real PBN file split in two: the second half brings only its own records."""
    text = (SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn").read_text()
    games = text.split("\n\n")
    half = len(games) // 2
    (tmp_path / "a.pbn").write_text("\n\n".join(games[:half]))
    (tmp_path / "b.pbn").write_text("\n\n".join(games))
    con = connect(tmp_path / "s.duckdb")
    a = ingest_paths(con, [tmp_path / "a.pbn"])
    b = ingest_paths(con, [tmp_path / "b.pbn"])
    assert a.new + b.new == 299 and b.duplicate == a.new
    assert min(b.partitions) > max(a.partitions)  # old partitions never change


def test_garbage_and_truncated_files_never_crash(tmp_path: Path) -> None:
    (tmp_path / "garbage.pbn").write_bytes(bytes(range(256)) * 4)
    good = (SAMPLE / "pbn" / "worldclass-2012-example3.pbn").read_text().splitlines()
    (tmp_path / "cut.pbn").write_text("\n".join(good[:60]) + '\n[Deal "W:AK')
    shutil.copy(FIXTURES / "bridgedeals_dump.sql", tmp_path / "dump.sql")
    con = connect(tmp_path / "s.duckdb")
    summary = ingest_paths(con, [tmp_path])
    clean_pending(con)
    where = {(Path(str(u["file"])).name, u["line"]) for u in summary.unreadable}
    assert ("garbage.pbn", 1) in where
    # a file cut short is refused whole, naming the line of the cut (issue 36): its complete
    # games would rank the pairs on part of the session
    (cut,) = summary.refused
    assert cut == {"file": str(tmp_path / "cut.pbn"), "reason": "refused: line 61: the file "
                   "ends inside a tag ('[Deal \"W:AK'): it is cut short, so none of it is read"}  # fmt: skip
    assert ("dump.sql", 6) in where and ("dump.sql", 8) in where
    audit = audit_tables(con)
    assert audit["balanced"]
    kept = con.sql("SELECT count(*) FROM raw_records WHERE source_file LIKE '%cut.pbn'").fetchall()[
        0
    ][0]
    assert kept == 0
    unreadable = dict((r["reason"], r["count"]) for r in audit["table5_exclusions"])["unreadable"]
    assert unreadable == len(summary.unreadable)


def test_bridgedeals_from_sqlite_and_csv(tmp_path: Path) -> None:
    """The paper's table read from an SQLite file and from a CSV export gives the same records."""
    from ddrank.parsers.bridgedeals import parse_dump

    rows = [
        r
        for r in parse_dump((FIXTURES / "bridgedeals_dump.sql").read_text(), "d")
        if not r.parse_error
    ]
    cols = (DATA / "paper" / "create_table.sql").read_text()
    db = sqlite3.connect(tmp_path / "bridgedeals.db")
    db.execute(cols)
    names = ["event", "site", "date", "board", "dealer", "deal", "vulnerable", "bidstart",
             "auction", "contract", "lead", "play", "declarer", "result", "westname",
             "eastname", "northname", "southname"]  # fmt: skip
    attr = {"board": "board_no"}
    values = [[getattr(r, attr.get(n, n)) for n in names] for r in rows]
    db.executemany(
        f"INSERT INTO bridgedeals ({','.join(names)}) VALUES ({','.join('?' * len(names))})", values
    )  # noqa: E501
    db.commit()
    db.close()
    import csv

    with open(tmp_path / "bridgedeals.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(names)
        w.writerows(values)
    for name in ("bridgedeals.db", "bridgedeals.csv"):
        con = connect(tmp_path / f"{name}.duckdb")
        s = ingest_paths(con, [tmp_path / name])
        assert s.new == len(rows) == 5 and not s.unreadable
        clean_pending(con)
        got = con.sql(
            "SELECT r.event, r.westname, b.contract, b.ns_vulnerable FROM raw_records r "
            "LEFT JOIN boards b USING (record_id) ORDER BY r.source_line"
        ).fetchall()
        assert got[0][:2] == ("Bermuda Bowl 1987; Final", "O'Brien")


def test_cli_ingest_and_clean_json(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.duckdb")
    lin = str(SAMPLE / "lin")
    r = runner.invoke(app, ["ingest", lin, "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert (out["records_read"], out["new"], out["duplicate"]) == (30, 30, 0)
    r = runner.invoke(app, ["clean", "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["cleaned"] == 30 and out["audit"]["balanced"]
    r = runner.invoke(app, ["ingest", lin, "--db", db, "--json"])
    assert json.loads(r.output)["new"] == 0


def test_cli_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        app, ["ingest", str(tmp_path / "nope.pbn"), "--db", str(tmp_path / "x.duckdb")]
    )
    assert r.exit_code == 2 and "nope.pbn" in r.output


def test_locked_store_is_a_clear_error(tmp_path: Path) -> None:
    """DuckDB allows one writer process; a second process gets a message, not a traceback."""
    import subprocess
    import sys

    db = tmp_path / "locked.duckdb"
    con = connect(db)
    code = (
        "from store.store import StoreLockedError, open_connection as connect\n"
        f"try:\n    connect({str(db)!r})\nexcept StoreLockedError as e:\n    print('LOCKED', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, timeout=60)  # fmt: skip
    con.close()
    assert "LOCKED" in out.stdout and "another ddrank process" in out.stdout

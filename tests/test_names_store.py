"""Name matching over a store, the `ddrank match-names` command and the `match_names` flow."""

from __future__ import annotations

import csv
import json

import pytest
from test_names import LIN, ONLINE_PBN, RANKINGS_CSV
from typer.testing import CliRunner

from ddrank.names import parse_rankings


@pytest.fixture(scope="module")
def entries():
    return parse_rankings(RANKINGS_CSV.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- DB, CLI, flow


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from store.store import open_connection as connect

    path = tmp_path_factory.mktemp("names") / "store.duckdb"
    con = connect(path)
    ingest_paths(con, [LIN, ONLINE_PBN], 500)
    clean_pending(con, 1)
    con.close()
    return path


def test_board_players_before_and_after_matching(store, entries):
    from stages.names import match_board_names
    from store import Store
    from store.store import open_connection as connect

    con = connect(store)
    try:
        before = con.sql(
            "SELECT DISTINCT raw_name, player FROM board_players WHERE raw_name = 'Rodwell'"
        ).fetchall()
        assert before == [("Rodwell", "Rodwell")]  # matching has not run: raw names
        decisions = match_board_names(Store(store, con=con), entries)
        n_units = con.sql(
            "SELECT count(*) FROM (SELECT DISTINCT raw_name, context FROM player_matches)"
        ).fetchall()[0][0]
        assert (
            n_units
            == len(decisions)
            == con.sql("SELECT count(*) FROM player_matches").fetchall()[0][0]
        )
        rows = dict(
            con.sql(
                "SELECT raw_name, (player, mp) FROM board_players "
                "WHERE record_id IN (SELECT record_id FROM boards WHERE event = '2010 USBF SF A')"
            ).fetchall()
        )
        assert rows["Rodwell"] == ("Eric Rodwell", 1202.0)
        assert rows["Meckstroth"][0] == "Jeff Meckstroth"
        assert rows["Levin"] == (None, None)  # tied, no evidence in this store: left out
        assert (
            con.sql(
                "SELECT count(*) FROM board_players WHERE player IS NULL AND method IS NULL"
            ).fetchall()[0][0]
            == 0
        )
        online = con.sql(
            "SELECT DISTINCT player FROM board_players WHERE raw_name = 'Michael Askgaard#23324'"
        ).fetchall()
        assert online == [("Michael Askgaard",)]
        seats = con.sql("SELECT count(*) FROM board_players").fetchall()[0][0]
        assert seats == 4 * con.sql("SELECT count(*) FROM boards").fetchall()[0][0]
    finally:
        con.close()


def _app():
    from cli.main import app

    return app


def test_cli_names_file_writes_csv(tmp_path, entries):
    names = tmp_path / "names.txt"
    names.write_text(
        "Balicki\nClemens Wanha#184195\n\nWeinstein\n" + "x" * 10240 + "\n", encoding="utf-8"
    )
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(
        _app(),
        [
            "match-names",
            "--rankings",
            str(RANKINGS_CSV),
            "--names",
            str(names),
            "--csv",
            str(out),
            "--review",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    # the blank line is not a name: four rows, one per name
    assert [r["raw_name"] for r in rows][:3] == ["Balicki", "Clemens Wanha#184195", "Weinstein"]
    assert [r["ranking_name"] for r in rows] == ["Cezary Balicki", "", "", ""]
    assert [r["method"] for r in rows] == ["fuzzy", "none", "ambiguous", "none"]
    assert "1 of 4 names matched" in result.output
    assert list(rows[0])[:4] == ["raw_name", "ranking_name", "method", "score"]
    assert "Weinstein" in result.output  # review table


def test_review_lists_every_tied_candidate(tmp_path):
    """ "Helness" alone fits Tor and Gunn Helness of the WBF list equally: the review shows both,
    and blank or blank-looking lines are no names."""
    names = tmp_path / "names.txt"
    names.write_text("Helness\n\n   \nGeir Helgemo\n", encoding="utf-8")
    for strategy in ("fuzzy", "seed"):
        result = CliRunner().invoke(_app(), ["match-names", "--rankings", str(RANKINGS_CSV),
                                             "--names", str(names), "--review", "--json",
                                             "--strategy", strategy])  # fmt: skip
        assert result.exit_code == 0, result.output
        summary = json.loads(result.output)
        assert summary["names"] == 2
        (case,) = summary["review_cases"]
        assert case["raw_name"] == "Helness" and case["method"] == "ambiguous"
        assert sorted(case["runner_up"].split(" | ")) == ["Gunn Helness", "Tor Helness"]


def test_cli_db_mode_json_and_help(store):
    runner = CliRunner()
    help_text = runner.invoke(_app(), ["match-names", "--help"]).output
    assert "--rankings" in help_text and "--review" in help_text and "seed" in help_text
    result = runner.invoke(
        _app(),
        [
            "match-names",
            "--rankings",
            str(RANKINGS_CSV),
            "--db",
            str(store),
            "--strategy",
            "seed",
            "--json",
            "--review",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert (
        summary["strategy"] == "seed"
        and summary["names"] == summary["matched"] + summary["unmatched"]
    )
    assert any(c["raw_name"] == "Levin" for c in summary["review_cases"])
    bad = runner.invoke(
        _app(),
        ["match-names", "--rankings", str(RANKINGS_CSV), "--db", str(store), "--strategy", "best"],
    )
    assert bad.exit_code != 0


@pytest.mark.flow
def test_flow_match_names_on_a_name_file(tmp_path, monkeypatch):
    monkeypatch.setenv("DO_NOT_TRACK", "1")
    from prefect_server import worker_api

    from flows.names import match_names

    names = tmp_path / "names.txt"
    names.write_text("LallH\nLallJ\nLall\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    # the worker's Prefect API (tests/prefect_server.py): no server start of its own
    with worker_api():
        result = match_names(str(RANKINGS_CSV), names=str(names), out=str(out), review=True)
    assert result["matched"] == 2 and result["names"] == 3
    assert [c["raw_name"] for c in result["review_cases"]] == ["Lall"]
    assert "Hemant Lall" in out.read_text(encoding="utf-8")

"""Bridgemate `.bws` reader on the two bundled ACBL club games (tests/data/bridgemate, Unlicense)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from ddrank.cleaning import clean_record
from ddrank.parsers.bridgemate import contract_and_tricks, join_bws
from ddrank.parsers.handrecord import hand_record_deals
from store.inputs.bridgemate import TABLES, read_bws

DATA = Path(__file__).parent / "data" / "bridgemate"
LBC = DATA / "LBC-2026-01-26.bws"
CLUB = DATA / "club-2026-01-19.bws"


@pytest.fixture(scope="module")
def lbc():
    return read_bws(LBC)


@pytest.fixture(scope="module")
def club():
    return read_bws(CLUB)


@pytest.mark.parametrize(("name", "count"), [("lbc", 270), ("club", 297)])
def test_every_result_with_section_round_table_pairs_and_deal(name, count, request) -> None:
    parsed = request.getfixturevalue(name)
    records = parsed.records
    assert parsed.format == "bws" and len(records) == count
    assert not any(r.parse_error for r in records)
    assert all(r.section == "A" and r.session == "1" for r in records)
    assert all(r.round and r.table_no and r.ns_pair and r.ew_pair and r.board_no for r in records)
    assert len({(r.round, r.table_no, r.board_no) for r in records}) == count
    hands = hand_record_deals(
        (DATA / f"{Path(records[0].source_file).stem}.pbn").read_text("latin-1")
    )
    assert len(hands) == 36
    for rec in records:  # joined by board number to the BridgeComposer hand record, with its par
        hand = hands[rec.board_no]
        assert (rec.deal, rec.dealer, rec.vulnerable) == (hand.deal, hand.dealer, hand.vulnerable)
        assert (rec.par_score, rec.par_contract) == (hand.par_score, hand.par_contract)
    assert all(clean_record(r).exclusion is None for r in records)
    (event,) = parsed.events
    assert (event.scoring, event.movement) == ("MP", "mitchell")


def test_lbc_first_result_as_entered(lbc) -> None:
    first = lbc.records[0]  # ReceivedData ID 1: table 1, round 1, board 1, "4 S" by N, "+2"
    assert (first.source_line, first.table_no, first.round, first.board_no) == (1, "1", "1", "1")
    assert (first.ns_pair, first.ew_pair, first.contract, first.declarer, first.result) == (
        "1", "1", "4S", "N", "12")  # fmt: skip
    assert (first.event, first.date) == ("Bridge game", "2026.01.26")
    # PlayerNumbers: ACBL numbers entered at table 1
    assert (first.northname, first.north_id) == ("Lynn Gast", "8502978")
    assert (first.westname, first.west_id) == ("Norman Bregman", "5415322")
    assert (first.par_score, first.par_contract) == ("980", "NS 6S=")  # OptimumScore "NS 980"


def test_lbc_contract_and_result_encodings(lbc) -> None:
    contracts = Counter(r.contract for r in lbc.records)
    assert contracts["3NT"] == 55 and contracts["4SX"] == 7  # "3 NT", "4 S x"
    # six boards "Not played" (Remarks): no contract, no result, kept as entered
    not_played = [r for r in lbc.records if not r.contract]
    assert len(not_played) == 6 and all(not r.result and not r.declarer for r in not_played)
    results = Counter(int(r.result) - (int(r.contract[0]) + 6) for r in lbc.records if r.result)
    assert results[0] == 85 and results[1] == 73 and results[-5] == 1  # "=", "+1", "-5"


def test_club_pass_and_redouble(club) -> None:
    passed = [r for r in club.records if r.contract == "Pass"]
    assert len(passed) == 2 and all(not r.declarer and not r.result for r in passed)
    assert [r.contract for r in club.records if r.contract.endswith("XX")] == ["1CXX"]


@pytest.mark.parametrize("name", ["lbc", "club"])
def test_mitchell_pairs_keep_their_players_as_east_west_move(name, request) -> None:
    records = request.getfixturevalue(name).records
    for side, seats in (("ns", ("north", "south")), ("ew", ("east", "west"))):
        by_pair: dict[str, set[tuple[str, ...]]] = {}
        for r in records:
            ids = tuple(getattr(r, f"{s}_id") for s in seats)
            by_pair.setdefault(getattr(r, f"{side}_pair"), set()).add(ids)
        assert all(len(v) == 1 for v in by_pair.values()), side
    assert all(r.north_id and r.east_id and r.south_id and r.west_id for r in records)


def test_an_id_without_a_name_keeps_its_id(club) -> None:
    # 7646884 was entered at table 9 East with no name, and the club's list does not know it
    theirs = [r for r in club.records if r.east_id == "7646884"]
    assert theirs and all(r.eastname == "" and r.ew_pair == "9" for r in theirs)


def test_erased_and_reentered_rows() -> None:
    """An erased row is not a result; a row entered again replaces the earlier one."""
    import logging

    from access_parser import AccessParser

    logging.getLogger("access_parser").setLevel(logging.CRITICAL + 1)
    db = AccessParser(str(LBC))
    tables = {name: {k: list(v) for k, v in db.parse_table(name).items()} for name in TABLES}
    received = tables["ReceivedData"]
    n = len(received["ID"])
    for values in received.values():  # table 1's first result entered again, corrected
        values.append(values[0])
    received["ID"][-1] = 10_000
    received["Result"][-1] = "+1"
    received["Erased"][1] = True  # and the second row erased at its table
    parsed = join_bws(tables, (DATA / "LBC-2026-01-26.pbn").read_text("latin-1"), "x.bws")
    assert len(parsed.records) == n - 1
    corrected = [r for r in parsed.records if (r.table_no, r.round, r.board_no) == ("1", "1", "1")]
    assert [(r.source_line, r.result) for r in corrected] == [(10_000, "11")]
    assert not any(r.source_line == 2 for r in parsed.records)


@pytest.mark.parametrize(
    ("contract", "result", "expected"),
    [("4 S x", "+1", ("4SX", "11")), ("3 NT", "=", ("3NT", "9")), ("1 C xx", "-2", ("1CXX", "5")),
     ("PASS", "", ("Pass", "")), ("2 H", "", ("2H", "")), ("", "", ("", ""))],
)  # fmt: skip
def test_contract_and_result_encoding(contract, result, expected) -> None:
    assert contract_and_tricks(contract, result) == expected


def test_binary_junk_and_truncated_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bws"
    junk.write_bytes(os.urandom(50_000))
    (rec,) = read_bws(junk).records
    assert rec.source_file == str(junk) and "not a Bridgemate .bws file" in rec.parse_error
    cut = tmp_path / "cut.bws"
    cut.write_bytes(LBC.read_bytes()[:5000])
    parsed = read_bws(cut)
    assert [r.parse_error for r in parsed.records if r.parse_error]  # a clear error, no exception


@pytest.fixture(scope="module")
def odbc_driver():
    """The MDBTools ODBC driver, or a skip saying how to get it: no test installs system
    packages (.ci/run runs ops/install-bws-driver.sh, so CI never skips these tests)."""
    from store.inputs import bws_odbc

    if not bws_odbc.available():
        pytest.skip("the MDBTools ODBC driver is not installed (ops/install-bws-driver.sh)")
    yield bws_odbc
    bws_odbc.stop()


@pytest.mark.parametrize("path", [LBC, CLUB], ids=["lbc", "club"])
def test_odbc_driver_reads_what_access_parser_reads(path: Path, odbc_driver, monkeypatch) -> None:
    """The fast route (MDBTools ODBC driver in a helper process) gives the records, rankings and
    events access-parser gives, field for field; the club game's players were entered by number
    alone, so its names come from the 14,020-row PlayerNames table, read by the driver too."""
    tables = odbc_driver.read_tables(path, TABLES)
    assert tables is not None and len(tables["ReceivedData"]["ID"]) == {LBC: 270, CLUB: 297}[path]
    fast = read_bws(path)
    monkeypatch.setattr(odbc_driver, "available", lambda: False)
    slow = read_bws(path)
    assert fast.records == slow.records and fast.events == slow.events
    assert fast.standings == slow.standings
    assert sum(1 for r in fast.records if r.northname) > 0.9 * len(fast.records)


def test_odbc_driver_damaged_file_is_read_by_access_parser(tmp_path: Path, odbc_driver) -> None:
    """A file cut at a page boundary: the driver complains (or finds no results) and access-parser,
    which names the problem, reads it."""
    cut = tmp_path / "cut.bws"
    cut.write_bytes(LBC.read_bytes()[: 4096 * 73])
    assert odbc_driver.read_tables(cut, TABLES) is None
    (rec,) = [r for r in read_bws(cut).records if r.parse_error]
    assert rec.source_file == str(cut) and "ReceivedData" in rec.parse_error

"""Readers: PBN inheritance, LIN vugraph with claims, and the paper's bridgedeals dump quirks."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.parsers.bridgedeals import parse_dump
from ddrank.parsers.lin import parse_lin
from ddrank.parsers.pbn import parse_pbn

DATA = Path(__file__).resolve().parent.parent / "data"
WORLDCLASS = DATA.parent / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
ONLINE = DATA.parent / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
LIN = DATA.parent / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def worldclass() -> list:
    return parse_pbn(WORLDCLASS.read_text(), str(WORLDCLASS))


def test_pbn_reads_every_table_result(worldclass: list) -> None:
    assert len(worldclass) == 7632  # 3,816 boards x 2 tables, per shared/README
    assert not any(r.parse_error for r in worldclass)
    # two unnamed passed-out tables of board 37 are identical text: both kept, distinct ids
    assert len({r.record_id for r in worldclass}) == 7632


def test_pbn_deal_and_board_inherited_by_second_table(worldclass: list) -> None:
    first, second = worldclass[0], worldclass[1]
    assert second.source_line == 29  # the second table result omits [Board] and [Deal]
    assert second.board_no == "1" and second.deal == first.deal
    assert second.deal.startswith("W:.AQJ85.986.JT973")
    assert (second.contract, second.declarer, second.result) == ("4SX", "N", "10")


def test_pbn_names_inherited_per_table_across_boards(worldclass: list) -> None:
    """Board 2 names nobody: its k-th table keeps the players of board 1's k-th table."""
    b2t1, b2t2 = worldclass[2], worldclass[3]
    assert b2t1.board_no == b2t2.board_no == "2"
    assert (b2t1.northname, b2t1.southname, b2t1.westname, b2t1.eastname) == (
        "Balicki", "Zmudzinski", "Nystrom", "Upmark")  # fmt: skip
    assert (b2t2.northname, b2t2.southname, b2t2.westname, b2t2.eastname) == (
        "Ahlesved", "Petersson", "Zak", "Zaremba")  # fmt: skip


def test_pbn_play_column_format_with_dash_and_end_marker(worldclass: list) -> None:
    rec = worldclass[1]
    tokens = rec.play.split()
    assert rec.lead == "E" and len(tokens) == 36 and "*" not in tokens
    assert tokens[-4:] == ["-", "S6", "ST", "SQ"]


def test_pbn_auction_notes_and_hash_inheritance() -> None:
    recs = parse_pbn(ONLINE.read_text(), str(ONLINE))
    assert len(recs) == 299
    assert recs[1].auction == "1C =1= Pass 1NT =2= Pass Pass Pass"
    assert recs[1].northname == "Marius Agica#46561"
    text = '[Event "E"]\n[Board "1"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n[North "A"]\n\n[Event "#"]\n[Board "#"]\n[Deal "#"]\n[North "B"]\n'  # noqa: E501
    a, b = parse_pbn(text, "t.pbn")
    assert (b.event, b.board_no, b.deal) == ("E", "1", a.deal)


def test_pbn_comments_are_dropped() -> None:
    text = '[Board "3"]\n{a comment; with [brackets]\nover two lines}\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n[Auction "N"]\n1S Pass ; rest of line\n2S AP\n'  # noqa: E501
    (rec,) = parse_pbn(text, "c.pbn")
    assert rec.auction == "1S Pass 2S AP" and rec.board_no == "3"


def test_pbn_garbage_and_truncation_become_records_with_lines() -> None:
    good = WORLDCLASS.read_text().splitlines()[:27]
    text = "\x00\x01 binary junk\n" + "\n".join(good) + '\n\n[Board "2"]\n[Deal "W:J84.AK4'
    recs = parse_pbn(text, "bad.pbn")
    assert recs[0].parse_error and recs[0].source_line == 1
    assert recs[1].board_no == "1" and not recs[1].parse_error
    assert recs[-1].parse_error and "malformed tag" in recs[-1].parse_error
    assert recs[-1].source_line == 30  # the game of the cut tag starts at [Board "2"]


def test_lin_vugraph_rooms_names_and_claims() -> None:
    recs = parse_lin(LIN.read_text(), str(LIN))
    assert len(recs) == 30  # boards 46-60, open and closed rooms
    o46, c46 = recs[0], recs[1]
    assert (o46.room, c46.room, o46.board_no) == ("Open", "Closed", "46")
    # pn| lists South, West, North, East of the open room, then of the closed room
    assert (o46.southname, o46.westname, o46.northname, o46.eastname) == (
        "Meckstroth", "Levin", "Rodwell", "Weinstein")  # fmt: skip
    assert (c46.southname, c46.westname, c46.northname, c46.eastname) == (
        "Stansby", "Hamman", "Martel", "Mahmood")  # fmt: skip
    assert o46.dealer == "E" and o46.vulnerable == "None"  # md|4... and sv|o|
    assert len(o46.deal.split()) == 4  # the implied fourth hand is completed
    assert o46.auction == "1H P 3C P 4H P P P"
    assert o46.play_format == "sequence" and len(o46.play.split()) == 20
    assert o46.result == "10"  # mc|10| after five tricks
    assert (o46.event, o46.home_team, o46.visit_team) == ("2010 USBF SF A", "Nickell", "Fleisher")


def test_lin_double_is_not_confused_with_diamonds() -> None:
    recs = parse_lin(LIN.read_text(), str(LIN))
    assert recs[2].auction == "P 1D P 1S P 2N P 3N P P P"
    assert all("1X" not in r.auction for r in recs)


def test_lin_garbage_file_is_one_unreadable_record() -> None:
    (rec,) = parse_lin("this is not a lin file at all", "junk.lin")
    assert rec.parse_error and rec.source_line == 1


def test_dump_quirks() -> None:
    """Seed §2.1: semicolons inside values, runs of 0-7 semicolons after a tuple, escaped and
    unescaped single quotes in names, NULLs, a damaged tuple and a truncated last record."""
    recs = parse_dump((FIXTURES / "bridgedeals_dump.sql").read_text(), "dump.sql")
    good = [r for r in recs if not r.parse_error]
    bad = [r for r in recs if r.parse_error]
    assert good[0].event == "Bermuda Bowl 1987; Final" and good[0].site == "Ocho Rios"
    assert good[0].westname == "O'Brien" and good[0].eastname == "D'Orsi"
    assert good[0].contract == "7NTXX" and good[0].declarer == "^S" and good[0].result == "14"
    assert good[1].vulnerable == "NZ" and good[1].bidstart == "7"
    assert good[2].northname == "" and good[2].vulnerable == "" and good[2].result == ""
    assert [r.source_line for r in bad] == [6, 8]
    assert "values for 30 columns" in bad[0].parse_error
    assert "ends inside" in bad[1].parse_error
    assert len(recs) == 7


def test_dump_without_header_uses_create_table_order() -> None:
    line = "(7;'Spingold';'';'2004.07.25';1;'F';'N';'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765';'None';'N';'1S P P P';'1S';'E';'';'N';7;'';'W';'E';'N';'S';0;0;0;0;'IMP';'';'';'Open';'')"  # noqa: E501
    (rec,) = parse_dump(line, "x.sql")
    assert (rec.event, rec.contract, rec.lead, rec.declarer, rec.northname) == (
        "Spingold", "1S", "E", "N", "N")  # fmt: skip

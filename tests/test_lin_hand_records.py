"""BBO LIN hand records (one or many tables a file), RealBridge's URL-encoded LIN, claims, alerts."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ddrank.cleaning import clean_record
from ddrank.parsers.lin import parse_lin, parse_lin_file

EVENTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "events"
BBO = EVENTS / "bbo-lin"
SKYCLUB = BBO / "skyclub-2013-08-10"
REALBRIDGE = EVENTS / "usebio" / "realbridge-club-2025-04-07.usebio.xml"

needs_shared = pytest.mark.skipif(
    not BBO.exists(),
    reason="../shared/data/events is absent; these files may not be bundled: no licence allows it (SOURCES.md)",
)


def _files() -> list[Path]:
    return sorted(BBO.rglob("*.lin"))


@needs_shared
def test_all_49_hand_records_ingest_with_auction_and_play() -> None:
    files = _files()
    assert len(files) == 49
    for path in files:
        parsed = parse_lin_file(path.read_text(encoding="latin-1"), str(path))
        (rec,) = parsed.records
        assert not rec.parse_error, path
        assert rec.board_no and rec.dealer in "NESW" and rec.vulnerable, path
        assert rec.auction.endswith("P P P") and rec.play_format == "sequence", path
        assert all(
            getattr(rec, f"{s}name") and getattr(rec, f"{s}_id")
            for s in ("north", "east", "south", "west")
        ), path
        result = clean_record(rec)  # the cleaning rules accept every auction and play
        assert result.exclusion is None and result.play_issue is None, (path, result)
        assert result.board is not None and result.board.play, path


@needs_shared
def test_one_hand_record_field_by_field() -> None:
    path = BBO / "misc" / "3381671193.lin"
    (rec,) = parse_lin(path.read_text(), str(path))
    # pn| names South, West, North, East; BBO handles are the players' ids
    assert (rec.southname, rec.westname, rec.northname, rec.eastname) == (
        "jdr9999", "sisse1745", "jaak99", "myriam1745")  # fmt: skip
    assert rec.north_id == "jaak99"
    assert (rec.board_no, rec.dealer, rec.vulnerable) == (
        "1",
        "N",
        "None",
    )  # ah|Board 1|, md|3, sv|o
    assert rec.deal.startswith("N:AQ983.A973.K92.3 ")  # North first, ranks in order
    assert rec.auction == "1S 2N P 3C P 3D P 3H P 4D P 5D P P P"  # "2N!" alerted, an|gesthem|
    assert len(rec.play.split()) == 44 and rec.play.split()[:4] == ["S2", "S4", "SA", "S7"]
    assert rec.result == "11"  # mc|11|: declarer claimed 11 tricks in all


@needs_shared
def test_claims_alerts_and_vulnerability() -> None:
    records = [parse_lin(p.read_text(encoding="latin-1"), str(p))[0] for p in _files()]
    claims = [r for r in records if r.result]
    assert len(claims) == 16  # the files that end with mc|N|
    for rec in claims:
        board = clean_record(rec).board
        assert board is not None and board.claim_tricks == int(rec.result)
    alerted = BBO / "misc" / "1047742261.lin"  # ten an| explanations, one per alerted call
    (rec,) = parse_lin(alerted.read_text(), str(alerted))
    assert rec.auction == "P 1S P 2H P 3H P 3N P 4D P 4H P 4S P 4N P 5C P 5H P P P"
    assert (rec.board_no, rec.vulnerable, rec.dealer) == ("9", "EW", "N")
    assert rec.northname == "~~M36094"  # a BBO robot seat is a player like any other


@needs_shared
def test_a_file_of_many_tables_like_a_bbo_hand_history() -> None:
    """BBO's hand histories put one table per line; some writers run them together."""
    tables = [p.read_text().strip() for p in sorted(SKYCLUB.glob("*.lin"))]
    for joiner in ("\n", ""):
        records = parse_lin("\n".join(tables) if joiner else "".join(tables), "history.lin")
        assert len(records) == 44 and not any(r.parse_error for r in records)
        singles = [parse_lin(t, "one.lin")[0] for t in tables]
        assert [(r.deal, r.auction, r.play, r.result, r.northname) for r in records] == [
            (r.deal, r.auction, r.play, r.result, r.northname) for r in singles
        ]
    lines = parse_lin("\n".join(tables), "history.lin")
    assert [r.source_line for r in lines] == list(range(1, 45))


@needs_shared
def test_realbridge_url_encoded_lin() -> None:
    lin = re.search(r"<LIN_DATA>(.*?)</LIN_DATA>", REALBRIDGE.read_text()).group(1)
    (rec,) = parse_lin(lin, "realbridge.lin")
    assert (rec.board_no, rec.vulnerable, rec.dealer) == ("1", "None", "N")
    # pn|Jeff%20Green%231747%2C...: 'name#id', South, West, North, East
    assert (rec.southname, rec.south_id, rec.westname, rec.west_id) == (
        "Jeff Green", "1747", "Ken Bentley", "5051")  # fmt: skip
    assert (rec.northname, rec.north_id) == ("Sheila Gabriel", "1876")
    assert rec.auction == "P 1N P P P" and rec.result == "8" and len(rec.play.split()) == 52
    encoded_pipes = lin.replace("|", "%7C")  # the whole text encoded, pipes too
    assert parse_lin(encoded_pipes, "x.lin")[0].play == rec.play


def test_binary_junk_is_one_clear_error() -> None:
    records = parse_lin(os.urandom(100_000).decode("latin-1"), "junk.lin")
    assert records and all(r.parse_error and r.source_file == "junk.lin" for r in records)
    assert records[0].source_line == 1  # reported from where the junk starts
    (text,) = parse_lin("this is not a lin file at all", "junk.lin")
    assert "no LIN table result" in text.parse_error


@needs_shared
def test_multi_megabyte_single_line() -> None:
    path = SKYCLUB / "20784109.lin"
    text = path.read_text().strip()
    long_comment = text.replace("|pg||", "|nt|" + "x" * (4 << 20) + "|pg||", 1)
    (rec,) = parse_lin(long_comment, "long.lin")
    assert not rec.parse_error and rec.play == parse_lin(text, "x")[0].play
    (junk,) = parse_lin("y" * (8 << 20), "long.lin")
    assert junk.parse_error


@needs_shared
def test_text_between_pairs_is_reported_with_its_line() -> None:
    text = (SKYCLUB / "20784109.lin").read_text().strip()
    broken = text.replace("|pg||", "|pg||\n garbage here \n", 1)
    (rec,) = parse_lin(broken, "broken.lin")
    assert "garbage here" in rec.parse_error and "line 2" in rec.parse_error  # where it stands


def _tricks_by_endplay(deal: str, contract: str, declarer: str, cards: list[str]) -> int:
    """Declarer's tricks, counted from endplay's trick winners (independent of ddrank's replay)."""
    from endplay.types import Card, Deal, Denom, Player

    board = Deal(deal)
    board.trump = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts,
                   "S": Denom.spades, "N": Denom.nt}[contract[1]]  # fmt: skip
    side = "NESW".index(declarer) % 2
    board.first = Player(("NESW".index(declarer) + 1) % 4)  # left of declarer leads
    won = 0
    for k, card in enumerate(cards, start=1):
        board.play(Card(card))
        if k % 4 == 0:
            won += int(board.first) % 2 == side  # the trick's winner leads the next one
    return won


@needs_shared
def test_complete_play_without_result_gives_declarer_tricks() -> None:
    """33 of the 49 BBO hand records were played out with no claim, so they carry no result:
    cleaning counts declarer's tricks from the validated 52-card play and says so in `repairs`.
    Every record stays kept (raw = clean + excluded with nothing excluded)."""
    derived = 0
    for path in _files():
        (rec,) = parse_lin_file(path.read_text(encoding="latin-1"), str(path)).records
        board = clean_record(rec).board
        assert board is not None, path
        if rec.result.strip():
            assert board.repairs is None or "from the complete play" not in board.repairs
            continue
        if board.play is None or len(board.play) < 52:
            assert board.result is None, path  # an unfinished play with no claim: unknown
            continue
        assert board.result == _tricks_by_endplay(
            board.deal, board.contract, board.declarer, board.play
        ), path
        assert f"result: {board.result} tricks, from the complete play" in board.repairs
        derived += 1
    assert derived == 31
    # 20784148.lin: East's 4H, all 52 cards played, no claim: 12 tricks
    (rec,) = parse_lin_file((SKYCLUB / "20784148.lin").read_text(encoding="latin-1"), "x").records
    board = clean_record(rec).board
    assert (rec.result, board.contract, board.declarer, board.result) == ("", "4H", "E", 12)


def test_a_dot_inside_a_holding_does_not_crash_the_reader() -> None:
    """Found by the random junk above (CI, 2026-11-25): `md|` holdings containing '.' made
    `_remaining_hand` index a fifth suit."""
    (rec,) = parse_lin("pn|a,b,c,d|md|3S.2H3D4C5,S.3H4D5C6,SAH.AD2C3|mb|p|mb|p|mb|p|mb|p|pg||",
                       "dots.lin")  # fmt: skip
    assert rec.source_file == "dots.lin"

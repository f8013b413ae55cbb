"""USEBIO reader on real files: published travellers, rankings and event facts; hostile input."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ddrank.cleaning import clean_record
from ddrank.limits import LimitExceeded, Limits
from ddrank.parsers.handrecord import board_dealer_vulnerability
from ddrank.parsers.usebio import parse_usebio

EVENTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "events"
USEBIO = EVENTS / "usebio"
WELWYN = USEBIO / "welwyn-2025-04-09.usebio.xml"
WELWYN_HANDS = USEBIO / "welwyn-2025-04-09.hands.pbn"
REALBRIDGE = USEBIO / "realbridge-club-2025-04-07.usebio.xml"
SAMPLES = USEBIO / "ebu-samples"

needs_shared = pytest.mark.skipif(
    not USEBIO.exists(),
    reason="../shared/data/events is absent; these files may not be bundled: no licence allows it (SOURCES.md)",
)


def _welwyn():
    return parse_usebio(
        WELWYN.read_bytes(), str(WELWYN), hands_pbn=WELWYN_HANDS.read_text(encoding="latin-1")
    )


@needs_shared
def test_welwyn_traveller_lines_as_published() -> None:
    parsed = _welwyn()
    assert parsed.format == "usebio"
    assert len(parsed.records) == 144 and not any(r.parse_error for r in parsed.records)
    first = parsed.records[0]  # board 1, the first TRAVELLER_LINE (line 251 of the file)
    assert (first.source_line, first.board_no, first.ns_pair, first.ew_pair) == (251, "1", "1", "8")
    assert (first.contract, first.declarer, first.result, first.ns_score) == ("4H", "S", "9", "-50")
    assert (first.published_ns_mp, first.published_ew_mp) == ("3.0", "7.0")
    assert (first.event, first.date, first.organiser) == (
        "Wednesday AM Pairs", "2025.04.09", "Welwyn Garden City Bridge Club")  # fmt: skip
    # players from PARTICIPANTS with their EBU numbers: pair 1 is Gabriel and Collier
    assert (first.northname, first.north_id) == ("Sheila Gabriel", "00462158")
    assert (first.southname, first.south_id) == ("Jacqueline Collier", "00477484")
    # the deal comes from the Bridgewebs hand record beside it, joined by board number
    assert first.deal == "N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64"
    assert (first.dealer, first.vulnerable) == ("N", "None")
    assert all(r.deal for r in parsed.records)


@needs_shared
def test_welwyn_adjusted_and_passed_out_lines() -> None:
    parsed = _welwyn()
    adjusted = [r for r in parsed.records if r.adjusted]
    assert len(adjusted) == 1
    (a,) = adjusted  # <SCORE>A5050</SCORE>, "Adjusted score", 4.0 match points each way
    assert (a.board_no, a.ns_pair, a.ew_pair, a.adjusted) == ("21", "3", "14", "50/50")
    assert (a.contract, a.ns_score, a.published_ns_mp, a.published_ew_mp) == ("", "", "4.0", "4.0")
    passed = [r for r in parsed.records if r.contract == "PASS"]
    assert [(r.board_no, r.ns_pair, r.ew_pair, r.ns_score, r.published_ns_mp) for r in passed] == [
        ("16", "1", "11", "0", "5.0"), ("16", "9", "8", "0", "5.0")]  # fmt: skip


@needs_shared
def test_welwyn_rankings_and_event_facts() -> None:
    parsed = _welwyn()
    assert len(parsed.standings) == 13
    top = parsed.standings[0]
    assert (top.pair, top.published_place, top.published_pct) == ("1", "1", "62.01923")
    assert (top.players, top.player_ids) == (
        "Sheila Gabriel - Jacqueline Collier", "00462158 - 00477484")  # fmt: skip
    ties = [(s.pair, s.published_place) for s in parsed.standings if s.published_place == "9="]
    assert ties == [("9", "9="), ("13", "9=")]
    (event,) = parsed.events
    assert (event.event, event.date_start, event.scoring) == (
        "Wednesday AM Pairs", "2025-04-09", "MP")  # fmt: skip
    # six results a board, a top of 10: 2 match points per result beaten (EBU); 13 pairs that
    # change direction: a Howell
    assert (event.mp_top, event.movement, event.across_field) == ("2", "howell", False)


@needs_shared
def test_realbridge_lines_carry_auction_and_play_from_lin_data() -> None:
    parsed = parse_usebio(REALBRIDGE.read_bytes(), str(REALBRIDGE))
    records = parsed.records
    assert len(records) == 168 and not any(r.parse_error for r in records)
    assert all(r.ns_pair and r.ew_pair and r.published_ns_mp for r in records)
    assert all(r.deal for r in records)
    with_play = [r for r in records if r.auction and r.play]
    # one line's LIN_DATA is another table's (board 12, NS 15 v EW 10: the traveller says 3NT by
    # North, its LIN bids 2S by East): its auction and play are not taken for this result
    (odd,) = [r for r in records if not r.play]
    assert (odd.board_no, odd.ns_pair, odd.ew_pair, odd.contract, odd.declarer) == (
        "12", "15", "10", "3N", "N")  # fmt: skip
    assert len(with_play) == 167
    first = records[0]
    assert (first.board_no, first.ns_pair, first.ew_pair, first.contract, first.declarer) == (
        "1", "11", "12", "1N", "E")  # fmt: skip
    assert (first.result, first.ns_score, first.published_ns_mp, first.published_ew_mp) == (
        "8", "-120", "5", "9")  # fmt: skip
    assert first.published_ns_pct == "35.71"  # LIN zz|35.71%25|: 5 of a top of 14
    assert first.auction == "P 1N P P P" and first.play_format == "sequence"
    assert len(first.play.split()) == 52
    # LIN `pn|` seats the players exactly, `name#id`
    assert (first.northname, first.north_id, first.southname, first.south_id) == (
        "Sheila Gabriel", "1876", "Jeff Green", "1747")  # fmt: skip
    for rec in with_play:  # every merged play passes the cleaning rules
        result = clean_record(rec)
        assert result.exclusion is None and result.play_issue is None, (rec.source_line, result)


@needs_shared
def test_realbridge_published_percentages_follow_from_published_match_points() -> None:
    """The lines' sides are read right: each pair's published MPs give its published %."""
    parsed = parse_usebio(REALBRIDGE.read_bytes(), str(REALBRIDGE))
    (event,) = parsed.events
    assert (event.scoring, event.mp_top, event.movement) == ("MP", "2", "mitchell")
    top = 14  # 8 results a board, 2 per result beaten
    for standing in parsed.standings:
        side = "ns" if standing.direction == "NS" else "ew"
        mine = [r for r in parsed.records if getattr(r, f"{side}_pair") == standing.pair]
        points = sum(float(getattr(r, f"published_{side}_mp")) for r in mine)
        assert round(100 * points / (top * len(mine)), 2) == float(standing.published_pct)


@needs_shared
@pytest.mark.parametrize(
    ("name", "lines", "scoring", "standings"),
    [
        ("mp-pairs.usebio.xml", 242, "MP", 22),
        ("cross-imp-pairs.usebio.xml", 192, "IMP", 17),
        ("multiple-teams.usebio.xml", 240, "TEAMS", 30 + 2 * 40),  # + each match, both teams
        ("point-a-board.usebio.xml", 336, "BAM", 24 + 2 * 28),
        ("public.multi-section-pairs.xml", 335, "MP", 32),
    ],
)
def test_ebu_samples_read_without_error(
    name: str, lines: int, scoring: str, standings: int
) -> None:
    path = SAMPLES / name
    parsed = parse_usebio(path.read_bytes(), str(path))
    assert len(parsed.records) == lines
    assert not any(r.parse_error for r in parsed.records)
    assert all(r.ns_pair and r.ew_pair and r.board_no for r in parsed.records)
    assert parsed.events[0].scoring == scoring
    assert len(parsed.standings) == standings


@needs_shared
def test_ebu_cross_imps_teams_and_sections() -> None:
    cross = parse_usebio((SAMPLES / "cross-imp-pairs.usebio.xml").read_bytes(), "x")
    first = cross.records[0]
    assert (first.ns_pair, first.ew_pair, first.ns_score, first.published_imps) == (
        "17", "14", "480", "-1.14")  # fmt: skip
    assert (cross.standings[0].pair, cross.standings[0].published_imps) == ("1", "-8.86")

    teams = parse_usebio((SAMPLES / "multiple-teams.usebio.xml").read_bytes(), "t")
    open_, closed = teams.records[2], teams.records[3]  # round 1, team 1 v 3, board 2
    assert (open_.round, open_.home_team, open_.visit_team, open_.room) == ("1", "1", "3", "Open")
    # board 2: IMPS 8 for team 1, who sit NS in the open room and EW in the closed room
    assert (open_.ns_pair, open_.ns_score, open_.published_imps) == ("1-1-2", "-140", "8")
    assert (closed.ns_pair, closed.ns_score, closed.published_imps) == ("3-1-2", "-500", "-8")
    team10 = next(s for s in teams.standings if s.pair == "10" and not s.team_name)
    assert (team10.published_vp, team10.published_place) == ("119", "1")

    pab = parse_usebio((SAMPLES / "point-a-board.usebio.xml").read_bytes(), "p")
    first = pab.records[0]  # TEAM_POINTS 0, OPPOSING_TEAM_POINTS 2: the NS team lost the board
    assert (first.published_ns_mp, first.published_ew_mp, first.room) == ("0", "2", "Open")

    multi = parse_usebio((SAMPLES / "public.multi-section-pairs.xml").read_bytes(), "m")
    assert {r.section for r in multi.records} == {"A", "B"}
    (event,) = multi.events
    assert (event.across_field, event.mp_top) == (True, "2")  # one field over both sections
    assert [r.adjusted for r in multi.records if r.adjusted] == ["50/50"]


@needs_shared
def test_handset_deals_are_joined_and_voids_read() -> None:
    parsed = parse_usebio((SAMPLES / "mp-pairs.usebio.xml").read_bytes(), "mp")
    board2 = next(r for r in parsed.records if r.board_no == "2")
    # <HEARTS>-</HEARTS> is a void
    assert board2.deal.split()[1] == "Q64..KQ8643.KQT4"
    assert all(clean_record(r).exclusion is None for r in parsed.records)


def test_board_numbers_give_dealer_and_vulnerability() -> None:
    assert board_dealer_vulnerability("1") == ("N", "None")
    assert board_dealer_vulnerability("7") == ("S", "All")
    assert board_dealer_vulnerability("16") == ("W", "EW")
    assert board_dealer_vulnerability("17") == ("N", "None")
    assert board_dealer_vulnerability("x") == ("", "")


BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&f;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&secret;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""


@pytest.mark.parametrize(("data", "line"), [(BOMB, 3), (EXTERNAL, 2)])
def test_entity_bomb_and_external_entity_are_refused(data: bytes, line: int) -> None:
    parsed = parse_usebio(data, "hostile.xml")
    (rec,) = parsed.records
    assert rec.source_file == "hostile.xml" and rec.source_line == line
    assert "refused" in rec.parse_error and "entit" in rec.parse_error
    assert "root:" not in rec.parse_error  # nothing of /etc/passwd was read


def test_binary_junk_and_other_xml_are_clear_errors() -> None:
    junk = parse_usebio(os.urandom(100_000), "junk.xml")
    assert junk.records == [] and junk.refused.startswith("refused: line ")
    assert "not well-formed" in junk.refused
    (html,) = parse_usebio(b"<html><body/></html>", "page.xml").records
    assert "not a USEBIO file" in html.parse_error and "<html>" in html.parse_error


def test_multi_megabyte_single_line_is_bounded() -> None:
    data = b"<USEBIO><EVENT><EVENT_DESCRIPTION>" + b"x" * (8 << 20) + b"</EVENT_DESCRIPTION>"
    with pytest.raises(LimitExceeded, match="the text of <EVENT_DESCRIPTION>: more than 65,536"):
        parse_usebio(data, "long.xml")  # refused as its text arrives: max_value_chars (issue 40)
    parsed = parse_usebio(data, "long.xml", limits=Limits(max_value_chars=16 << 20))
    assert parsed.records == [] and parsed.refused.startswith("refused: line 1: not well-formed")


@needs_shared
def test_a_truncated_file_is_refused_whole() -> None:
    """Cut inside board 11, the file once gave boards 1-10 and two lines of board 11: a ranking
    the scorer never published. Now nothing of it is read, and the refusal names the line."""
    data = WELWYN.read_bytes()
    board11 = data.index(b"<BOARD_NUMBER>11</BOARD_NUMBER>")
    second_line_end = data.index(
        b"</TRAVELLER_LINE>", data.index(b"</TRAVELLER_LINE>", board11) + 1
    )
    cut = data[: second_line_end + 60]  # inside the third line of board 11
    parsed = parse_usebio(cut, "cut.xml")
    assert (parsed.records, parsed.standings, parsed.events) == ([], [], [])
    line = cut.count(b"\n") + 1  # the cut is on the file's last line
    assert parsed.refused.startswith(f"refused: line {line}: not well-formed XML (")
    assert parsed.refused.endswith("the file is cut short or damaged, so none of it is read")


@needs_shared
def test_latin1_under_a_utf8_declaration_is_read() -> None:
    data = WELWYN.read_bytes().replace(b'encoding="ISO-8859-1"', b'encoding="UTF-8"')
    data = data.replace(b"Jacqueline Collier", "Jacqueline Collièr".encode("latin-1"))
    parsed = parse_usebio(data, "misdeclared.xml")
    assert len(parsed.records) == 144 and not any(r.parse_error for r in parsed.records)
    assert parsed.records[0].southname == "Jacqueline Collièr"


@needs_shared
def test_ingest_joins_the_hand_record_beside_the_usebio_file() -> None:
    from store.inputs.read import hands_of, read_parsed

    assert hands_of(WELWYN) == WELWYN_HANDS and hands_of(REALBRIDGE) is None
    parsed, _ = read_parsed(WELWYN)
    assert parsed.format == "usebio" and len(parsed.records) == 144
    assert all(r.deal for r in parsed.records)


@needs_shared
def test_a_board_with_its_own_hands() -> None:
    """USEBIO lets a BOARD of the event carry its HANDs: the sample's board 1 hands moved there."""
    data = (SAMPLES / "mp-pairs.usebio.xml").read_bytes()
    handset = data.index(b"<HANDSET")
    first = data.index(b"<HAND>", handset)
    hands = data[first : data.index(b"<DUPLICATES>0", first)]
    tag = b"<BOARD_NUMBER>1</BOARD_NUMBER>"
    at = data.index(tag) + len(tag)
    moved = data[:at] + hands + data[at:handset] + b"</USEBIO>"
    records = parse_usebio(moved, "moved.xml").records
    assert not any(r.parse_error for r in records)
    board1 = [r for r in records if r.board_no == "1"]
    assert len(board1) == 11 and all(r.deal.startswith("N:KJ.KJ87642.87.62 ") for r in board1)
    assert not any(r.deal for r in records if r.board_no != "1")


@needs_shared
def test_welwyn_hand_record_joins_the_usebio_event(tmp_path: Path) -> None:
    """The companion hand record carries no organiser; its 24 deals still belong to the one
    USEBIO event (one `events` row), whichever file is ingested first, and re-ingesting adds
    nothing."""
    from stages.ingest import ingest_paths
    from store.store import open_connection as connect

    for order in ((WELWYN_HANDS, WELWYN), (WELWYN, WELWYN_HANDS)):
        folder = tmp_path / order[0].name
        folder.mkdir()
        for src in order:
            shutil.copy(src, folder / src.name)
        con = connect(folder / "store.duckdb")
        for src in order:
            ingest_paths(con, [folder / src.name], workers=1)
        events = con.execute("SELECT event_id, name, organiser, date_start FROM events").fetchall()
        assert len(events) == 1, events
        event_id, name, organiser, date_start = events[0]
        assert (name, organiser, date_start) == (
            "Wednesday AM Pairs", "Welwyn Garden City Bridge Club", "2025-04-09")  # fmt: skip
        deals = con.execute("SELECT DISTINCT event_id, count(*) FROM deals GROUP BY 1").fetchall()
        assert deals == [(event_id, 24)]
        again = ingest_paths(con, [folder / src.name for src in order], workers=1)
        assert again.new == 0 and again.new_deals == 0 and again.new_events == 0
        assert con.execute("SELECT count(*) FROM events").fetchall()[0][0] == 1
        con.close()

"""The ACBLscore game-file decoder on bytes built here from the layout it documents
(`ddrank.parsers.acblscore_layout`): generated for structure checks only, no real game in them.
The real files' published numbers are tested in tests/test_acblscore.py (they may not be
bundled); these tests run everywhere: the structures, the side codes, the errors."""

from __future__ import annotations

import struct

import pytest

from ddrank.parsers.acblscore import dates, parse_acblscore
from ddrank.parsers.acblscore_layout import CorruptGameFile, read_game_file
from ddrank.parsers.registry import read_bytes, sniff

HEADER = 0x0A14


def _pstr(text: str, size: int) -> bytes:
    raw = text.encode("latin-1")
    return (bytes([len(raw)]) + raw).ljust(size, b"\0")


class _File:
    """A game file assembled structure by structure (each: u16 length, then its payload)."""

    def __init__(self) -> None:
        self.buf = bytearray(HEADER)

    def add(self, payload: bytes) -> int:
        at = len(self.buf)
        self.buf += struct.pack("<H", len(payload)) + payload
        return at

    def patch(self, at: int, fmt: str, *values: object) -> None:
        struct.pack_into(fmt, self.buf, at, *values)

    def done(self) -> bytes:
        self.buf[2:6] = b"\x03AC3"
        self.patch(0, "<H", HEADER - 2)
        self.patch(6, "<I", len(self.buf))
        return bytes(self.buf)


def _player(last: str, first: str, number: str) -> bytes:
    p = bytearray(120)
    p[0:17], p[0x11:0x22] = _pstr(last, 17), _pstr(first, 17)
    p[0x22:0x33], p[0x33:0x36], p[0x36:0x3E] = (
        _pstr("Long Beach", 17),
        _pstr("CA", 3),
        _pstr(number, 8),
    )
    return bytes(p)


def _entry(number: int, unscaled: int, pct: int, boards: int, names: tuple[str, str]) -> bytes:
    e = bytearray(0x192)
    struct.pack_into("<HiIIIIIHB", e, 0, number, 0, unscaled, unscaled, 0, unscaled, 0, pct, 1)
    e[0x2F - 2] = boards  # offsets below count from the structure's start, 2 before the payload
    struct.pack_into("<HHHHHH", e, 0x5E - 2, 1, 0, 1, 0, 1, 1)  # rank records
    e[0xA4 - 2 : 0xA4 - 2 + 240] = _player(names[0], "Ann", "1234567") + _player(
        names[1], "Bo", "NM"
    )
    return bytes(e)


def build(two_boards: bool = True, board1: tuple[bytes, ...] = (), copies: int = 0) -> bytes:
    """One event, one Mitchell section of one table: NS 1 v EW 1 on boards 1 and 2 (`board1`:
    the slots of board 1 instead; `copies`: that many more boards of 255 tables each, every one
    its own structure, the way a hostile file would claim millions of traveller lines)."""
    f = _File()
    ev = bytearray(0x2E4)
    ev[0x02:0x1C] = _pstr("Monday Pairs", 26)
    ev[0x1C:0x2A] = _pstr("Monday Aft", 14)
    ev[0x46:0x5A] = _pstr("July 24, 2017", 20)
    ev[0x5A:0x74] = _pstr("Test Club", 26)
    ev[0xAE:0xB5] = _pstr("123456", 7)
    for k, letter in enumerate("ABC"):
        ev[0xF4 + 95 * k] = ord(letter)
    event_at = f.add(bytes(ev))
    details_at = f.add(bytes(0x322))
    entries = [f.add(_entry(1, 150, 7500, 2, ("Smith", "Jones"))),
               f.add(_entry(1, 50, 2500, 2, ("Brown", "Green")))]  # fmt: skip
    lists = []
    for k, at in enumerate(entries):
        payload = struct.pack("<HHH", k + 1, 2, 1) + bytes(12) + struct.pack("<HHI", 0, 2, at)
        lists.append(f.add(payload))
    slots = [
        struct.pack("<BBHhIHhI", 1, 1, 1, 42, 100, 1, -42, 0),  # 4S= +420: NS 1.00, EW 0.00
        struct.pack("<BBHhIHhI", 1, 1, 1, 2060, 50, 1, 2040, 50),  # average-plus / -minus
    ]
    per_board = [board1 or (slots[0],), (slots[1],)][: 1 + two_boards]
    per_board += [(slots[0],) * 255] * copies
    boards = [f.add(struct.pack("<HBB", n + 1, 2, len(s)) + b"".join(s))
              for n, s in enumerate(per_board)]  # fmt: skip
    index = struct.pack("<HH", 1, len(boards)) + bytes(0x20)
    index += b"".join(struct.pack("<BBHI", n % 255 + 1, 0, 1, at) for n, at in enumerate(boards))
    index_at = f.add(index)
    f.patch(details_at + 4, "<II", lists[0], lists[1])
    f.patch(0x12, "<I", event_at)
    f.buf[0x13E] = 1
    f.buf[0x13F:0x142] = _pstr("A", 3)
    f.patch(0x13E + 4, "<IIH", details_at, index_at, 2)
    return f.done()


def test_the_layout_read_back() -> None:
    g = read_game_file(build())
    (ev,) = g.events
    assert (ev.name, ev.session_name, ev.date, ev.club, ev.club_number) == (
        "Monday Pairs",
        "Monday Aft",
        "July 24, 2017",
        "Test Club",
        "123456",
    )
    assert [s.letter for s in ev.strats] == ["A", "B", "C"]
    (sec,) = g.sections
    assert (sec.letter, sec.event, sec.max_score, sec.howell) == ("A", 1, 2, False)
    ns, ew = sec.lists[0][0], sec.lists[1][0]
    assert ns is not None and ew is not None
    assert (ns.unscaled, ns.percentage, ns.boards, ns.players[0].name, ns.players[1].number) == (
        150,
        7500,
        2,
        "Ann Smith",
        "NM",
    )
    assert [(b.number, [(s.ns_score, s.ns_mp, s.ew_score) for s in b.slots]) for b in sec.boards] == [
        (1, [(42, 100, -42)]), (2, [(2060, 50, 2040)])]  # fmt: skip


def test_records_standings_and_sniffing() -> None:
    data = build()
    assert sniff(data[:65536]) == "acblscore"
    p = read_bytes(data, "x.ACA")
    assert [(r.board_no, r.ns_score, r.adjusted, r.published_ns_mp, r.published_ew_mp,
             r.northname, r.south_id, r.date) for r in p.records] == [
        ("1", "420", "", "1.00", "0.00", "Ann Smith", "", "2017.07.24"),
        ("2", "", "60/40", "0.50", "0.50", "Ann Smith", "", "2017.07.24")]  # fmt: skip
    assert [(s.direction, s.pair, s.published_mp, s.published_pct, s.published_place, s.overall)
            for s in p.standings] == [("NS", "1", "1.50", "75.00", "1", False),
                                      ("NS", "1", "", "", "1", True),
                                      ("EW", "1", "0.50", "25.00", "1", False),
                                      ("EW", "1", "", "", "1", True)]  # fmt: skip
    (ev,) = p.events
    assert (ev.scorer, ev.federation, ev.mp_top, ev.date_start) == ("ACBLscore", "ACBL", "1",
                                                                     "2017-07-24")  # fmt: skip


@pytest.mark.parametrize("cut", [5, 100, 0x200, HEADER + 40, -30, -3])
def test_cut_short_anywhere_is_one_error_naming_the_structure(cut: int) -> None:
    data = build()
    p = parse_acblscore(data[:cut], "short.ACM")
    assert (p.records, p.standings, p.events) == ([], [], [])
    assert p.refused.startswith("corrupt ACBLscore game file: ")


def test_a_structure_that_runs_past_the_end_is_named() -> None:
    data = bytearray(build(two_boards=False))
    index_at = struct.unpack_from("<I", data, 0x13E + 8)[0]
    struct.pack_into("<H", data, index_at + 4, 500)  # 500 boards claimed in a short index
    with pytest.raises(CorruptGameFile, match="section A board index at byte .*: 500 boards"):
        read_game_file(bytes(data))
    struct.pack_into("<I", data, 0x12, len(data) - 3)  # the event's details past the end
    with pytest.raises(CorruptGameFile, match="event 1 details at byte"):
        read_game_file(bytes(data))


def test_a_structure_pointed_to_twice_is_refused() -> None:
    """Two boards pointing at one results structure (a hostile file could point thousands):
    refused, so what a file yields never exceeds its own bytes."""
    data = bytearray(build())
    index_at = struct.unpack_from("<I", data, 0x13E + 8)[0]
    first = struct.unpack_from("<I", data, index_at + 0x26 + 4)[0]
    struct.pack_into("<BBHI", data, index_at + 0x26 + 8, 2, 0, 1, first)
    with pytest.raises(
        CorruptGameFile,
        match="board 2 results at byte .* is also section A "
        "board 1 results: a structure pointed to twice",
    ):
        read_game_file(bytes(data))


def test_values_that_are_not_matchpoints_are_said() -> None:
    """IMPs stored where matchpoints are (an IMP pairs game): the two sides share no top."""
    imps = (struct.pack("<BBHhIHhI", 1, 1, 1, 42, 600, 1, -42, 0),
            struct.pack("<BBHhIHhI", 2, 1, 1, -5, 0, 1, 5, 500))  # fmt: skip
    p = parse_acblscore(build(two_boards=False, board1=imps), "imps.ACE")
    assert [w for _, w in p.warnings] == [
        "section A: the values stored per result are not matchpoints (their two sides do not "
        "share a top): an IMP or other event read as matchpoints"
    ]
    assert parse_acblscore(build(), "mp.ACE").warnings == []


def test_not_a_game_file() -> None:
    with pytest.raises(CorruptGameFile, match="no ACBLscore signature"):
        read_game_file(b"\x12\x0a\x03AB3" + bytes(100))


def test_dates() -> None:
    assert dates("August 8, 2017") == ("2017.08.08", "2017-08-08")
    assert dates("sometime") == ("sometime", "")

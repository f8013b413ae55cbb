"""The layout of an ACBLscore game file (`.ACA`, `.ACM`, `.ACE`): bytes in, its structures out.

ACBLscore (the ACBL's club scoring program, Turbo Pascal) keeps each game in one binary file. Its
layout was never published by the ACBL; Matthew Kidd described it in "ACBLscore Game Files
Decoded" (lajollabridge.com). This module follows that description, and every offset below was
checked against 49 real club files (`tests/test_acblscore.py`): the matchpoints each file stores
sum to each pair's stored total, the totals give the stored percentages, and so on.

The file is a chain of structures, each a little-endian `u16` length (of what follows it) and its
payload. Numbers are little-endian; text is Pascal strings (a length byte, then Latin-1).

* Header (offset 0): "AC3" (a Pascal string at 2), the file's own length (`u32` at 6), then the
  offsets (`u32`) of up to 50 events at 0x12 and 100 section summaries of 22 bytes at 0x13e.
* Section summary: its event (1-based), its letter(s) (a Pascal string of up to 2), the offsets
  of its section details and board index, its maximum score, and two chains of section numbers
  (previous, next): the sections matchpointed as one field, and the sections ranked together.
* Event details: names (event, session, director, date, club, club number) and the strats.
* Section details: the offsets of its two pair lists (North-South and East-West of a Mitchell,
  two halves of a Howell) and, in a Howell, which list entry each pair number is.
* Board index: per board, its number, how many results it has and the offset of its results.
* Board results: per table, round, table, each side's pair, score (tens of points) and
  matchpoints (hundredths). A score of 2000 + p is an artificial p% (2060 = average plus); 900,
  950 and 999 mean the board was not played there (999 is an empty slot).
* Pair entry (402 bytes): a director's adjustment, the pair's matchpoints as played, its session
  score (factored to the full number of boards, the adjustment included), carry-over, final
  score (hundredths), percentage (hundredths), strat, boards played, whether it is eligible
  (0) or not (10: ranked after every eligible pair), its rank in each strat, and its two
  players (names, city, ACBL player number).

Nothing here interprets scores: `ddrank.parsers.acblscore` turns the structures into records.
A structure that does not fit in the file, does not have the size its kind has, or is pointed to
twice raises `CorruptGameFile` naming the structure: every record read is bytes of the file, so
what a file yields is bounded by its size. Within that, the traveller lines and pair entries the
file's structures declare are counted before any is built, and checked against `Limits.max_rows`
(`LimitExceeded`: the file is refused whole); the running count is checked again as they are.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from ddrank.limits import DEFAULT_LIMITS, Limits

SIGNATURE = b"\x03AC3"
MAX_EVENTS = 50
MAX_SECTIONS = 100
EVENTS_AT = 0x12
SUMMARIES_AT = 0x13E
SUMMARY_SIZE = 22
PAIR_ENTRY_SIZE = 0x192  # a pairs event's entry; teams and individual events differ
PLAYER_SIZE = 120
SLOT_SIZE = 18
STRAT_SIZE = 95
AWARD_AT = 0x34  # a pair entry's masterpoint awards: three sets of AWARD_SET_SIZE bytes
AWARD_SET_SIZE = 12
PIGMENTS = " BSRGP"  # black, silver, red, gold, platinum (index 0: none)
#: Score codes (tens of points) that are not results: the board was not played at that table.
NOT_PLAYED = {900: "not played (ACBLscore code 900)", 950: "not played (ACBLscore code 950)",
              999: "empty slot"}  # fmt: skip
ARTIFICIAL = range(2000, 2101)  # 2000 + the side's percentage


class CorruptGameFile(ValueError):
    """The file is not a whole ACBLscore game file; the message names the structure."""


@dataclass(frozen=True, slots=True)
class Player:
    last: str
    first: str
    city: str
    state: str
    number: str  # ACBL player number ("" when none was entered)

    @property
    def name(self) -> str:
        return " ".join(x for x in (self.first, self.last) if x)


@dataclass(frozen=True, slots=True)
class Rank:
    """A pair's rank in one strat: its place in the ranking and the award places (0 = none)."""

    section_low: int
    section_high: int  # 0, or the last place of a tie (2/3)
    overall_low: int
    overall_high: int
    rank: int  # its position in the strat's ranking (ties in the order ACBLscore listed them)


@dataclass(frozen=True, slots=True)
class PairEntry:
    offset: int
    list_no: int  # 1 or 2 (North-South / East-West of a Mitchell)
    index: int  # its place in that list (1-based): the Mitchell pair number
    adjustment: int  # a director's adjustment to the session score, hundredths (signed)
    unscaled: int  # matchpoints as played, hundredths
    session: int  # factored to the full number of boards, hundredths
    carryover: int
    final: int
    percentage: int  # hundredths of a per cent
    strat: int  # 1-based index of its strat in the event
    boards: int  # boards it played
    eligible: bool  # False: not eligible for awards, ranked after every eligible pair
    ranks: tuple[Rank, ...]
    players: tuple[Player, ...]
    #: the masterpoints the pair won, as ACBLscore recorded its award: (hundredths, pigment)
    #: per colour ('B' black, 'S' silver, 'R' red, 'G' gold, 'P' platinum), its "total" set
    award: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Slot:
    """One table's result on a board (one traveller line)."""

    offset: int
    round: int
    table: int
    ns_pair: int
    ns_score: int  # tens of points, or a code (artificial, not played)
    ns_mp: int  # hundredths
    ew_pair: int
    ew_score: int
    ew_mp: int


@dataclass(frozen=True, slots=True)
class Board:
    number: int
    offset: int
    results: int  # how many results ACBLscore counted
    slots: tuple[Slot, ...]
    stored_as: int = 0  # the number its results structure carries, where it differs (renumbered)


@dataclass
class Section:
    index: int  # 1-based position in the summary table
    event: int  # 1-based
    letter: str
    max_score: int  # a full pair's top over the session, in matchpoints
    scored_with: tuple[int, int]  # (previous, next) section matchpointed in the same field
    ranked_with: tuple[int, int]  # (previous, next) section ranked together
    howell: bool
    pair_map: dict[int, tuple[int, int]]  # Howell pair number -> (list, index)
    lists: tuple[list[PairEntry | None], list[PairEntry | None]]
    boards: list[Board] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Strat:
    letter: str
    min_mp: int
    max_mp: int  # 0 = no limit


@dataclass(frozen=True, slots=True)
class Event:
    index: int
    offset: int
    name: str
    session_name: str
    director: str
    date: str  # as written: "July 24, 2017"
    club: str
    club_number: str
    strats: tuple[Strat, ...]


@dataclass
class GameFile:
    size: int
    events: list[Event]
    sections: list[Section]


class _Bytes:
    """Bounds-checked reads: a read past the end names the structure being read."""

    def __init__(self, data: bytes, limits: Limits = DEFAULT_LIMITS) -> None:
        self.data = data
        self.limits = limits
        self.rows = 0  # traveller lines and pair entries read so far (`max_rows`)
        self.seen: dict[int, str] = {}  # offset -> the structure read there

    def count_rows(self, n: int) -> None:
        """`n` more rows are about to be built: refused (LimitExceeded) past `max_rows`."""
        self.rows += n
        self.limits.check_rows(self.rows, "ACBLscore traveller lines and pair entries",
                               exact=False)  # fmt: skip

    def once(self, o: int, what: str) -> None:
        """A structure is read once: two pointers to one place are a corrupt (or hostile) file,
        whose records would otherwise multiply past its size."""
        if o in self.seen:
            raise CorruptGameFile(f"{what} at byte {o:,} is also {self.seen[o]}: a structure "
                                  "pointed to twice")  # fmt: skip
        self.seen[o] = what

    def need(self, offset: int, size: int, what: str) -> None:
        if offset < 0 or offset + size > len(self.data):
            raise CorruptGameFile(f"{what} at byte {offset:,} runs past the end of the file "
                                  f"({len(self.data):,} bytes): truncated or corrupt")  # fmt: skip

    def u8(self, o: int, what: str) -> int:
        self.need(o, 1, what)
        return self.data[o]

    def u16(self, o: int, what: str) -> int:
        self.need(o, 2, what)
        return int(struct.unpack_from("<H", self.data, o)[0])

    def i16(self, o: int, what: str) -> int:
        self.need(o, 2, what)
        return int(struct.unpack_from("<h", self.data, o)[0])

    def i32(self, o: int, what: str) -> int:
        self.need(o, 4, what)
        return int(struct.unpack_from("<i", self.data, o)[0])

    def u32(self, o: int, what: str) -> int:
        self.need(o, 4, what)
        return int(struct.unpack_from("<I", self.data, o)[0])

    def text(self, o: int, limit: int, what: str) -> str:
        n = self.u8(o, what)
        if n > limit:
            raise CorruptGameFile(f"{what} at byte {o:,}: a text of {n} characters where at most "
                                  f"{limit} fit")  # fmt: skip
        self.need(o + 1, n, what)
        return self.data[o + 1 : o + 1 + n].decode("latin-1").strip()

    def structure(self, o: int, what: str, size: int | None = None) -> int:
        """The payload length of the structure at `o`, checked to fit (and to be `size`)."""
        n = self.u16(o, what)
        self.need(o + 2, n, what)
        if size is not None and n != size:
            raise CorruptGameFile(f"{what} at byte {o:,} is {n} bytes long, not {size}")
        return n


def is_game_file(head: bytes) -> bool:
    """An ACBLscore game file begins with its header's length and the Pascal string "AC3"."""
    return head[2:6] == SIGNATURE


def read_game_file(data: bytes, limits: Limits = DEFAULT_LIMITS) -> GameFile:
    """Every event, section, pair entry and board of a game file; raises `CorruptGameFile`, or
    `ddrank.limits.LimitExceeded` when its rows pass `limits.max_rows`."""
    b = _Bytes(data, limits)
    if not is_game_file(data):
        raise CorruptGameFile('no ACBLscore signature ("AC3" at byte 2)')
    stated = b.u32(6, "header")
    if stated != len(data):
        raise CorruptGameFile(f"header: the file says it is {stated:,} bytes long, it is "
                              f"{len(data):,} (truncated or corrupt)")  # fmt: skip
    b.need(0, SUMMARIES_AT + MAX_SECTIONS * SUMMARY_SIZE, "header")
    limits.check_rows(declared_rows(data), "ACBLscore traveller lines and pair entries")
    events = [_event(b, k + 1, o) for k in range(MAX_EVENTS)
              if (o := b.u32(EVENTS_AT + 4 * k, "header"))]  # fmt: skip
    sections = []
    for k in range(MAX_SECTIONS):
        at = SUMMARIES_AT + SUMMARY_SIZE * k
        if data[at]:
            sections.append(_section(b, k + 1, at, len(events)))
    return GameFile(len(data), events, sections)


def declared_rows(data: bytes) -> int:
    """The traveller lines and pair entries the sections' pair lists and board indexes declare,
    each structure counted once, read before anything is built. Counting stops at the first
    pointer that leads outside the file: the full read names that structure as corrupt."""
    b, seen, total = _Bytes(data), {0}, 0
    try:
        for k in range(MAX_SECTIONS):
            at = SUMMARIES_AT + SUMMARY_SIZE * k
            if not data[at]:
                continue
            details, index_at = b.u32(at + 4, "summary"), b.u32(at + 8, "summary")
            lists = {b.u32(details + 4, "details"), b.u32(details + 8, "details")} - seen
            total += sum(b.u16(o + 6, "pair list") for o in lists)
            seen |= lists
            boards = {b.u32(index_at + 0x2A + 8 * e, "index")
                      for e in range(b.u16(index_at + 4, "index"))} - seen  # fmt: skip
            total += sum(b.u8(o + 5, "board results") for o in boards)
            seen |= boards
    except CorruptGameFile:
        pass
    return total


def _event(b: _Bytes, index: int, o: int) -> Event:
    what = f"event {index} details"
    b.structure(o, what)
    strats = []
    for k in range(3):
        at = o + 0xF2 + STRAT_SIZE * k
        letter = chr(b.u8(at + 4, what))
        strats.append(Strat(letter, b.u16(at, what), b.u16(at + 2, what)))
    return Event(index, o, b.text(o + 4, 25, what), b.text(o + 0x1E, 13, what),
                 b.text(o + 0x2C, 27, what), b.text(o + 0x48, 19, what),
                 b.text(o + 0x5C, 30, what), b.text(o + 0xB0, 6, what), tuple(strats))  # fmt: skip


def _section(b: _Bytes, index: int, at: int, events: int) -> Section:
    what = f"section summary {index}"
    event = b.u8(at, what)
    letter = b.text(at + 1, 2, what)
    if not 1 <= event <= events:
        raise CorruptGameFile(f"{what}: section {letter!r} belongs to event {event}, and the file "
                              f"has {events} event(s)")  # fmt: skip
    details, index_at = b.u32(at + 4, what), b.u32(at + 8, what)
    sec = Section(index, event, letter, b.u16(at + 12, what),
                  (b.u8(at + 15, what), b.u8(at + 16, what)),
                  (b.u8(at + 17, what), b.u8(at + 18, what)), False, {}, ([], []))  # fmt: skip
    what = f"section {letter} details"
    b.once(details, what)
    b.structure(details, what)
    sec.howell = b.u8(details + 0x18, what) == 1
    sec.lists = (_pair_list(b, b.u32(details + 4, what), 1, letter),
                 _pair_list(b, b.u32(details + 8, what), 2, letter))  # fmt: skip
    if sec.howell:
        for pair in range(1, b.u8(details + 0x1B, what) + 1):
            o = details + 0x12D + 2 * (pair - 1)
            index_in, list_no = b.u8(o, what), b.u8(o + 1, what)
            if list_no in (1, 2) and 1 <= index_in <= len(sec.lists[list_no - 1]):
                sec.pair_map[pair] = (list_no, index_in)
    sec.boards = _boards(b, index_at, letter)
    return sec


def _pair_list(b: _Bytes, o: int, list_no: int, letter: str) -> list[PairEntry | None]:
    what = f"section {letter} pair list {list_no}"
    b.once(o, what)
    n = b.structure(o, what)
    count = b.u16(o + 6, what)
    if 0x12 + 8 * count > n:
        raise CorruptGameFile(f"{what} at byte {o:,}: {count} entries do not fit in {n} bytes")
    b.count_rows(count)
    out: list[PairEntry | None] = []
    for k in range(count):
        e = o + 0x14 + 8 * k
        flag, ptr = b.u16(e + 2, what), b.u32(e + 4, what)
        out.append(_pair_entry(b, ptr, list_no, k + 1, letter) if flag and ptr else None)
    return out


def _pair_entry(b: _Bytes, o: int, list_no: int, index: int, letter: str) -> PairEntry | None:
    what = f"section {letter} pair entry {index} of list {list_no}"
    b.once(o, what)
    b.structure(o, what, PAIR_ENTRY_SIZE)
    boards = b.u8(o + 0x2F, what)
    if not boards:
        return None  # a number in the movement that no pair took
    ranks = tuple(
        Rank(
            b.u16(q, what),
            b.u16(q + 2, what),
            b.u16(q + 4, what),
            b.u16(q + 6, what),
            b.u16(q + 10, what),
        )  # fmt: skip
        for q in (o + 0x5E + 20 * k for k in range(3))
    )
    players = tuple(_player(b, o + 0xA4 + PLAYER_SIZE * k, what) for k in range(2))
    strat = b.u8(o + 0x1E, what)
    if not 1 <= strat <= len(ranks):  # an index into the event's strats: anything else is damage
        raise CorruptGameFile(f"{what} at byte {o:,}: strat {strat}, of {len(ranks)} an event "
                              "has: the file is damaged")  # fmt: skip
    return PairEntry(o, list_no, index, b.i32(o + 4, what), b.u32(o + 8, what),
                     b.u32(o + 0xC, what), b.u32(o + 0x10, what), b.u32(o + 0x14, what),
                     b.u16(o + 0x1C, what), strat, boards,
                     b.u8(o + 0x33, what) == 0, ranks, players,
                     _award(b, o + AWARD_AT + 2 * AWARD_SET_SIZE, what))  # fmt: skip


def _award(b: _Bytes, o: int, what: str) -> tuple[tuple[int, str], ...]:
    """A masterpoint award: up to three (hundredths, pigment, reason) of 4 bytes; the list ends
    at the first empty one. Kidd's layout: the pair entry holds three such sets at 0x34
    (previous sessions, this session, total); the total is what the pair won."""
    out = []
    for k in range(3):
        points, pigment = b.u16(o + 4 * k, what), b.u8(o + 4 * k + 2, what)
        if not points:
            break
        out.append((points, PIGMENTS[pigment] if pigment < len(PIGMENTS) else "?"))
    return tuple(out)


def _player(b: _Bytes, o: int, what: str) -> Player:
    return Player(b.text(o, 16, what), b.text(o + 0x11, 16, what), b.text(o + 0x22, 16, what),
                  b.text(o + 0x33, 2, what), b.text(o + 0x36, 7, what))  # fmt: skip


def _boards(b: _Bytes, o: int, letter: str) -> list[Board]:
    what = f"section {letter} board index"
    b.once(o, what)
    n = b.structure(o, what)
    count = b.u16(o + 4, what)
    if 0x24 + 8 * count > n:
        raise CorruptGameFile(f"{what} at byte {o:,}: {count} boards do not fit in {n} bytes")
    out = []
    for k in range(count):
        e = o + 0x26 + 8 * k
        number, results, ptr = b.u8(e, what), b.u16(e + 2, what), b.u32(e + 4, what)
        slots, stored = _slots(b, ptr, number, letter) if ptr else ((), number)
        out.append(Board(number, ptr, results, slots, stored if stored != number else 0))
    return out


def _slots(b: _Bytes, o: int, number: int, letter: str) -> tuple[tuple[Slot, ...], int]:
    """The board's slots, and the board number its results structure carries (the index's
    number is the board's: a board the director renumbered keeps its old number there)."""
    what = f"section {letter} board {number} results"
    b.once(o, what)
    n = b.structure(o, what)
    count = b.u8(o + 5, what)
    if n != 4 + SLOT_SIZE * count:
        raise CorruptGameFile(f"{what} at byte {o:,}: {count} tables do not make {n} bytes")
    b.count_rows(count)
    out = []
    for k in range(count):
        q = o + 6 + SLOT_SIZE * k
        out.append(Slot(q, b.u8(q, what), b.u8(q + 1, what), b.u16(q + 2, what),
                        b.i16(q + 4, what), b.u32(q + 6, what), b.u16(q + 10, what),
                        b.i16(q + 12, what), b.u32(q + 14, what)))  # fmt: skip
    return tuple(out), b.u16(o + 2, what)

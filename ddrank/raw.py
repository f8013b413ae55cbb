"""Raw hand records, exactly as a source wrote them, before any cleaning.

Every source format (PBN, LIN, the paper's `bridgedeals` dump) is read into the same flat record,
whose fields are those of the paper's `bridgedeals` table. The record id is a hash of the content
alone, so the same table result read twice (again, or from another file) is one record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

# Fields that identify the content of a table result (provenance excluded on purpose).
CONTENT_FIELDS = (
    "event", "date", "site", "board_no", "stage", "dealer", "deal", "vulnerable", "bidstart",
    "auction", "contract", "declarer", "lead", "play", "play_format", "result",
    "northname", "eastname", "southname", "westname", "scoring", "home_team", "visit_team",
    "room", "parse_error",
)  # fmt: skip


# Fields of the event model. They count in the record id only when set, so a record that carries
# none of them keeps the id it had before the event model existed.
EVENT_FIELDS = (
    "organiser", "session", "section", "round", "table_no", "ns_pair", "ew_pair",
    "north_id", "east_id", "south_id", "west_id", "ns_score", "adjusted", "phantom",
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_ew_pct",
    "published_imps", "par_score", "par_contract", "player_numbers", "ew_score", "repeat",
)  # fmt: skip


class _computed_once:  # noqa: N801 - used as a decorator, like functools.cached_property
    """`functools.cached_property` without its lock (Python 3.11 takes one on every first read):
    the value is stored in the instance on first read; `del obj.name` makes it computed again."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


#: `source_format` of a PBN game whose `ScoreTable` is its board's traveller: the table results
#: are the table's rows, so the game's own contract and result (an annotated table, or nothing)
#: are kept for its auction and play but are not one more result to score (PBN 2.1 ScoreTable).
BOARD_GAME = "pbn-board"


@dataclass
class RawRecord:
    source_file: str
    source_line: int
    source_format: str
    event: str = ""
    date: str = ""
    site: str = ""
    board_no: str = ""
    stage: str = ""
    dealer: str = ""
    deal: str = ""
    vulnerable: str = ""
    bidstart: str = ""
    auction: str = ""
    contract: str = ""
    declarer: str = ""
    lead: str = ""
    play: str = ""
    play_format: str = "columns"  # 'columns': PBN/dump, by seat from the leader; 'sequence': LIN
    result: str = ""
    northname: str = ""
    eastname: str = ""
    southname: str = ""
    westname: str = ""
    scoring: str = ""
    home_team: str = ""
    visit_team: str = ""
    room: str = ""
    parse_error: str = ""  # non-empty: the source text here could not be read as a record
    # --- event model (see EVENT_FIELDS); "" when the source does not say ---
    organiser: str = ""
    session: str = ""  # session / segment / stage label, e.g. "1", "Round of 16 seg 3"
    section: str = ""  # section letter or name, e.g. "A"
    round: str = ""  # round number within the session
    table_no: str = ""
    ns_pair: str = ""  # pair (or team) number of North-South
    ew_pair: str = ""
    north_id: str = ""  # a player id the source carries: national id, BBO handle
    east_id: str = ""
    south_id: str = ""
    west_id: str = ""
    ns_score: str = ""  # North-South's score as published, e.g. "420", "-50"
    adjusted: str = ""  # adjusted score as "NS%/EW%", e.g. "60/40", "50/50", "40/40"
    phantom: str = ""  # "NS" / "EW": that side is a phantom or sit-out, not players
    published_ns_mp: str = ""
    published_ew_mp: str = ""
    published_ns_pct: str = ""
    published_ew_pct: str = ""
    published_imps: str = ""  # North-South's IMPs as published (cross-IMP, Butler or teams)
    par_score: str = ""  # published par for NS, e.g. "420" (OptimumScore "NS 420")
    par_contract: str = ""
    # An individual event's players at the table by their numbers in the event, "N|E|S|W"
    # (PBN `PlayerId_North`.., USEBIO individual traveller lines); "" in pairs and teams events
    player_numbers: str = ""
    occurrence: int = 0  # k-th identical copy within one file (two unnamed passed-out tables)
    # The opening lead card where a source gives it without the play (USEBIO <LEAD>SJ, Bridgemate
    # LeadCard): shown on the site. Not part of the record id (a file read before it was kept
    # keeps its ids).
    lead_card: str = ""
    # The Butler datum a scorer published for the board (Ruter `ButlerDatum`, USEBIO
    # `BOARD_AVERAGE`), compared with ours; not part of the record id.
    published_datum: str = ""
    # East-West's own score (their side, e.g. "980") where it is not the negative of ns_score: a
    # director's split score (ACBLscore). With `adjusted` also set, North-South's side is the
    # artificial one and East-West's the score.
    ew_score: str = ""
    # "NS"/"EW": that side's pair had already played this board in an earlier round (a movement
    # error); the result stays in the board's field for the others, and does not count for that
    # pair (ACBLscore). The pair's first result on the board is its own.
    repeat: str = ""

    @_computed_once
    def record_id(self) -> str:
        # one update of the joined text: the same digest as one update per field, faster
        text = "\x1f".join(_content(self)) + "\x1f"
        event = _event(self)
        if any(event):
            text += "".join([p + v + "\x1f" for p, v in zip(_EVENT_KEYS, event, strict=True) if v])
        h = hashlib.sha1(text.encode("utf-8", "surrogatepass"))
        if self.occurrence:
            h.update(f"#{self.occurrence}".encode())
        if self.parse_error:  # unreadable text is only identified by where it was
            h.update(f"{self.source_file}:{self.source_line}".encode())
        return h.hexdigest()[:20]

    def as_row(self) -> dict[str, object]:
        row: dict[str, object] = {name: getattr(self, name) for name in _FIELD_NAMES}
        row["record_id"] = self.record_id
        return row


_content = attrgetter(*CONTENT_FIELDS)
_EVENT_KEYS = tuple(f"{name}=" for name in EVENT_FIELDS)
_event = attrgetter(*EVENT_FIELDS)
_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RawRecord))
RAW_COLUMNS: tuple[str, ...] = ("record_id",) + _FIELD_NAMES


def number_repeats(records: list[RawRecord]) -> list[RawRecord]:
    """Give identical records of one file distinct ids, stably, so none is lost as a duplicate."""
    seen: dict[str, int] = {}
    for rec in records:
        rid = rec.record_id
        k = seen.get(rid, 0)
        seen[rid] = k + 1
        if k:
            rec.occurrence = k
            del rec.record_id  # the cached id predates the occurrence number
    return records


#: Where a record sits, as its source names it: the columns of errors.csv after file and line.
PLACE_FIELDS = ("event", "session", "section", "round", "table", "board")


def place_text(place: Mapping[str, str]) -> str:
    """A place (`place_of`) in words, the event left out: 'section A, round 3, board 10'."""
    names = ("session", "section", "round", "table", "board")
    return ", ".join(f"{n} {v}" for n in names if (v := place.get(n)))


def place_of(row: Mapping[str, Any]) -> dict[str, str]:
    """A record's place (PLACE_FIELDS) from a raw record's or a board's fields. A teams match
    without a section is its own section ('A v B'); a table without a number, its room."""

    def s(key: str) -> str:
        v = row.get(key)
        return "" if v is None else str(v).strip()

    match = " v ".join(x for x in (s("home_team"), s("visit_team")) if x)
    return {"event": s("event"), "session": s("session") or s("stage"),
            "section": s("section") or match, "round": s("round"),
            "table": s("table_no") or s("room"), "board": s("board_no")}  # fmt: skip


@dataclass
class RawStanding:
    """One line of a published ranking (PBN `TotalScoreTable`, USEBIO `PARTICIPANTS`, ...).

    Kept as published; scoring never overwrites it, it is compared with it.
    """

    source_file: str
    source_line: int
    event: str = ""
    date: str = ""
    session: str = ""  # "" = the whole event
    section: str = ""
    direction: str = ""  # "NS", "EW" or "" (Howell, teams)
    pair: str = ""  # pair or team number as published
    team_name: str = ""
    players: str = ""  # names joined by " - " in seat order where known
    player_ids: str = ""  # ids joined by " - ", same order; "" where unknown
    published_mp: str = ""
    published_pct: str = ""
    published_imps: str = ""
    published_vp: str = ""
    published_place: str = ""  # "3" or "3=" as published
    phantom: bool = False
    boards: str = ""  # boards the line covers, as published (PBN `NrBoards`); "" unknown
    # A match's published result (USEBIO MATCH: TEAM_SCORE) rather than a ranking line: the team
    # `pair` against `opponent`, its VPs (`published_vp`) or board points (`published_mp`).
    opponent: str = ""
    # A strat's letter (ACBL): the place is in the ranking of the pairs eligible for that strat
    # (the event's ranking restricted to them), not in the whole field's.
    strat: str = ""
    # What a director applied to the pair's total, as published (ACBLscore): an adjustment to
    # its session score ("-12.00"), the score carried over from earlier sessions ("105.43"), and
    # whether it may take a place among the others (False: ranked after every eligible pair).
    adjustment: str = ""
    carryover: str = ""
    eligible: bool = True
    # A place among every pair of the event across sections and directions, on their totals
    # with any carry-over (ACBLscore's overall ranking; published for the places with awards).
    overall: bool = False
    # The masterpoints the line won, as the scorer recorded them: "1.29 Red; 1.29 Black"
    # (ACBLscore), each amount with its colour.
    award: str = ""
    # One session of a longer event (Magic Contest, Ruter): the cumulative ranking the same row
    # publishes, as printed: its place, total, percentage and the boards it covers (carry-over
    # included); the line's own values are the session's.
    cumulative_place: str = ""
    cumulative_mp: str = ""
    cumulative_pct: str = ""
    cumulative_boards: str = ""


@dataclass
class RawEvent:
    """What a source says about an event as a whole."""

    source_file: str
    event: str = ""
    organiser: str = ""
    date_start: str = ""  # ISO yyyy-mm-dd where known
    date_end: str = ""
    scoring: str = ""  # MP | IMP (cross-IMPs) | BUTLER | BAM | TEAMS (IMPs to VPs) | ""
    movement: str = ""  # "howell" | "mitchell" | "" when unknown
    across_field: bool = False  # one field across sections (else each section is a field)
    mp_top: str = ""  # "2" per result beaten (EBU, FFB) or "1" (ACBL); "" unknown
    scorer: str = ""  # the scoring program the source names (USEBIO PROGRAM_NAME: "BriAn")
    federation: str = ""  # whose rules the source follows, where it tells ("ACBL", "EBU")
    # Sections matchpointed as one field / ranked together where the source says more than
    # `across_field` can (ACBLscore joins some sections and not others): "A+B;C", "" = as
    # across_field says (all sections one field, or each its own).
    fields: str = ""
    rankings: str = ""
    # The most matchpoints a pair can score in a session (ACBLscore scales every section's
    # session scores to it): "360"; "" unknown.
    max_score: str = ""


@dataclass
class ParsedFile:
    """Everything one reader got from one file: table results, published rankings, event facts."""

    format: str
    records: list[RawRecord]
    standings: list[RawStanding] = field(default_factory=list)
    events: list[RawEvent] = field(default_factory=list)
    # (line, warning): the format's rules this file breaks that reading tolerates (nothing dropped)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    # hand-record deals: games with a deal and no table result (stored in `deals`, not results)
    deals: list[RawRecord] = field(default_factory=list)
    # why the whole file was refused (over a `ddrank.limits` limit, or a SQLite view): one line;
    # a refused file has no records and nothing of it is stored
    refused: str = ""
    # every table result of the file was named by its path, its content naming no event
    # (`ddrank.events.name_unnamed`): `group_unnamed` may group it with its folder's other files
    named_by_path: bool = False

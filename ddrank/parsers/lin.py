"""BBO LIN reader: vugraph files, BBO hand records and hand histories, RealBridge's URL-encoded LIN.

LIN is a flat list of `key|value|` pairs. Three layouts occur:

* vugraph: the 8 players of both rooms are named once (`pn|`, South/West/North/East of the open
  room, then of the closed room) and each table result starts with `qx|o12|` (open room, board 12)
  or `qx|c12|`; `rs|` lists the results of all tables;
* BBO hand records (what BBO hands out for every table played there, alone or many to a file, as
  in hand histories and tournament downloads): `pn|S,W,N,E|st||md|...|rh||ah|Board 9|sv|e|mb|...|
  an|...|pg||pc|...|mc|11|`; a table starts at its `pn|`/`qx|` or, lacking both, at its `md|`;
* RealBridge: a hand record whose values are URL-encoded (`pn|Jeff%20Green%231747%2C...`), the
  players written `name#id`.

Cards are played in true order (`pc|`), so the play is stored in 'sequence' format; `mc|N|` is a
claim of N total tricks for declarer; `an|` explains the call before it (not kept: the record has
no field for alerts). BBO handles are the players' ids as well as their names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from urllib.parse import unquote

from ddrank.raw import ParsedFile, RawEvent, RawRecord, number_repeats

_LIN_SEAT = {"1": "S", "2": "W", "3": "N", "4": "E"}
_LIN_VUL = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
_RESULT = re.compile(r"^(\d)([CDHSN])([NESW])(X{0,2}|x{0,2})([=+-]\d*)?$", re.IGNORECASE)
_ENCODED = re.compile(r"(?:^|\|)(?:pn|md)\|[^|]*%2C", re.IGNORECASE)
_BOARD_LABEL = re.compile(r"(\d+)\s*$")
_VG_SCORING = {"I": "TEAMS", "P": "MP", "B": "BAM"}


_SUITS = re.compile(r"([SHDC])")


def _lin_hands(md: str) -> tuple[str, list[str]]:
    """`md|3S...,H...,...|` → (dealer letter, hands 'S.H.D.C' in LIN order South, West, North, East).

    The fourth hand, when left out, is the cards nobody else holds.
    """
    dealer = _LIN_SEAT.get(md[:1], "")
    hands = md[1:].rstrip(",").split(",") if md else []
    pbn_hands = []
    for hand in hands:
        suits = {"S": "", "H": "", "D": "", "C": ""}
        parts = _SUITS.split(hand.upper())  # ['', 'S', '25', 'H', '79T', ...]
        for k in range(1, len(parts) - 1, 2):
            # a '.' would add a fifth suit (junk input): the deal's own check judges the rest
            suits[parts[k]] += parts[k + 1].replace(".", "")
        pbn_hands.append(f"{suits['S']}.{suits['H']}.{suits['D']}.{suits['C']}")
    if len(pbn_hands) == 3:
        pbn_hands.append(_remaining_hand(pbn_hands))
    return dealer, pbn_hands


def _lin_deal(md: str) -> tuple[str, str]:
    """(dealer, 'S:...' deal in LIN's seat order): the vugraph reader's form, kept so that the ids
    of records read before hand records were supported do not change."""
    dealer, hands = _lin_hands(md)
    return dealer, ("S:" + " ".join(hands)) if hands else ""


_TO_SORTABLE = str.maketrans("AKQJT98765432", "abcdefghijklm")
_FROM_SORTABLE = str.maketrans("abcdefghijklm", "AKQJT98765432")


def _descending(hand: str) -> str:
    """'25.79T.35A.357JA' → '52.T97.A53.AJ753': each suit's ranks from the ace down."""
    return ".".join(
        "".join(sorted(suit.translate(_TO_SORTABLE))).translate(_FROM_SORTABLE)
        for suit in hand.split(".")
    )


def _north_first_deal(md: str) -> tuple[str, str]:
    """(dealer, PBN 'N:...' deal with ranks in descending order); '' when not four hands."""
    dealer, hands = _lin_hands(md)
    if len(hands) != 4:
        return dealer, ("S:" + " ".join(hands)) if hands else ""
    south, west, north, east = (_descending(h) for h in hands)
    return dealer, f"N:{north} {east} {south} {west}"


def _remaining_hand(hands: list[str]) -> str:
    held: list[set[str]] = [set(), set(), set(), set()]
    for hand in hands:
        for k, suit in enumerate(hand.split(".")):
            held[k].update(suit)
    return ".".join("".join(r for r in "AKQJT98765432" if r not in held[k]) for k in range(4))


def _result_tricks(rs: str) -> str:
    """'4HE=' → '10', '3NW+1' → '10', '4SWx-4' → '6', 'PASS' → ''."""
    m = _RESULT.match(rs.strip())
    if not m:
        return ""
    level, delta = int(m.group(1)), m.group(5) or "="
    if delta == "=":
        return str(level + 6)
    sign = 1 if delta[0] == "+" else -1
    return str(level + 6 + sign * int(delta[1:] or 0))


def _player(text: str) -> tuple[str, str]:
    """A `pn|` entry as (name, id): RealBridge writes 'Jeff Green#1747'; a BBO handle is both."""
    t = text.strip()
    name, sep, pid = t.rpartition("#")
    if sep and name.strip() and pid.strip():
        return name.strip(), pid.strip()
    return t, t


def _name_words(entry: str) -> list[str]:
    """A `pn|` entry's words, case and accents folded ('F NYSTROM' -> ['f', 'nystrom'])."""
    name = unicodedata.normalize("NFKD", _player(entry)[0].casefold())
    name = "".join(ch if ch.isalpha() else " " for ch in name if not unicodedata.combining(ch))
    return name.split()


def _same_player(a: str, b: str) -> bool:
    """Whether two `pn|` entries can name one player: the same name, or the same surname where
    one is written shorter ('Johan Upmark' and 'UPMARK', 'F Nystrom' and 'Fredrik Nystrom',
    'Mazurkiewicz' and vugraph's ten-letter 'MAZURKIEWI'), the given names' initials agreeing."""
    x, y = _name_words(a), _name_words(b)
    if not x or not y:
        return False
    if x == y:
        return True
    p, q = sorted((x[-1], y[-1]), key=len)
    if not (p == q or (len(p) >= _TRUNCATED and q.startswith(p))):
        return False
    return len(x) < 2 or len(y) < 2 or x[0][0] == y[0][0]


#: The shortest surname read as another cut short (vugraph writes at most ten letters).
_TRUNCATED = 6


def header_conflict(names: list[str], eight: list[str], room: str) -> list[str]:
    """The players a table's own `pn|` seats in `room` whom the vugraph header (`eight`: South,
    West, North, East of the open room, then of the closed room) seats in the other room; []
    when the table agrees with its header or names players the header does not know (a
    substitute). One person cannot sit in both rooms of a match, so such a table's names are an
    exporter's copy of the other room's, and the header's players for the room are who sat
    there."""
    here, there = (eight[:4], eight[4:8]) if room == "Open" else (eight[4:8], eight[:4])
    return [
        n
        for n in names
        if any(_same_player(n, h) for h in there) and not any(_same_player(n, h) for h in here)
    ]


def _conflict_warning(conflicts: list[tuple[int, str, str, list[str], int]]) -> tuple[int, str]:
    """The one warning of a file whose tables contradict its vugraph header (see
    `header_conflict`): the first such table, and how many there are."""
    line, room, board, names, header = conflicts[0]
    other = "open" if room == "Closed" else "closed"
    more = f" (and {len(conflicts) - 1} more table(s) like it)" if len(conflicts) > 1 else ""
    return line, (
        f"board {board}, {room.lower()} room: its pn| names {', '.join(names)}, whom the vugraph "
        f"header (line {header}) seats in the {other} room{more}; the header's {room.lower()}-"
        "room players are taken as who sat there"
    )


_CALLS = {"D": "X", "DBL": "X", "RDBL": "R", "XX": "R"}


def _call(value: str) -> str:
    call = value.strip().upper().rstrip("!")
    return _CALLS.get(call, call)


class _Memo(dict):
    """value -> normalised value, computed once: a file repeats a few dozen calls and 52 cards
    thousands of times. Bounded, so a hostile file cannot grow it without end."""

    def __init__(self, normalise: Callable[[str], object]) -> None:
        super().__init__()
        self.normalise = normalise

    def __missing__(self, value: str) -> object:
        out = self.normalise(value)
        if len(self) < 10_000:
            self[value] = out
        return out


_CALL_OF = _Memo(_call)
# a match plays each deal at two tables (open and closed room): its `md|` is read once
_DEAL_OF = _Memo(_north_first_deal)  # type: ignore[arg-type]
_LIN_DEAL_OF = _Memo(_lin_deal)  # type: ignore[arg-type]
_CARD_OF = _Memo(lambda value: value.strip().upper())


# One match is either a run of calls (`mb|`), a run of cards (`pc|`), a run of other pairs that
# need no decision one by one (alerts, comments, page breaks), or one other pair; the values of a
# run are gathered afterwards in C. The engine still reads the text pair by pair, so a key can
# never be taken from inside a value.
_RUN_KEYS = "an|nt|pg|st|rh|zz|sk|hc|bt|fh|at|cr"


def _keys(keys: str) -> str:
    # each key as letter classes, not re.IGNORECASE: a case-blind alternation is matched slower
    return "|".join("".join(f"[{c}{c.upper()}]" for c in key) for key in keys.split("|"))


_PAIR_TAIL = r"\|[^|]*\|\s*"
_TOKEN = re.compile(
    # a run of calls or of cards begins with one and takes in the pairs that need no decision
    # (alerts, comments, page breaks) until a pair of another kind
    rf"(?P<calls>(?:{_keys('mb')}){_PAIR_TAIL}(?:(?:{_keys('mb|' + _RUN_KEYS)}){_PAIR_TAIL})*)"
    rf"|(?P<cards>(?:{_keys('pc')}){_PAIR_TAIL}(?:(?:{_keys('pc|' + _RUN_KEYS)}){_PAIR_TAIL})*)"
    rf"|(?P<run>(?:(?:{_keys(_RUN_KEYS)}){_PAIR_TAIL})+)"
    r"|(?P<key>[a-zA-Z]{2})\|(?P<value>[^|]*)\|\s*"
)
# The values of the calls (or cards) of a run alone, each after a pipe (the other pairs give ""),
# are joined and split in C.
_CALL_VALUES = re.compile(rf"(?:{_keys('mb')}(\|[^|]*)\||(?:{_keys(_RUN_KEYS)})\|[^|]*\|)\s*")
_CARD_VALUES = re.compile(rf"(?:{_keys('pc')}(\|[^|]*)\||(?:{_keys(_RUN_KEYS)})\|[^|]*\|)\s*")


def parse_lin_file(text: str, source: str) -> ParsedFile:
    """Every table result of a LIN text (any of the layouts above), and the vugraph event if any.

    Never raises for bad data: text between pairs that is not LIN is noted in the record it falls
    in, and a text with no table at all is one record with `parse_error` set. The text is read
    match by match (no list of all its pairs is built), so memory holds the records, not the text
    taken apart.
    """
    if "|" not in text and "%7C" in text.upper():  # the whole text URL-encoded, pipes included
        text = unquote(text)
    events: list[RawEvent] = []
    warnings: list[tuple[int, str]] = []
    records = list(iter_lin([text], source, events, url_encoded(text), warnings))
    return ParsedFile(format="lin", records=number_repeats(records), events=events,
                      warnings=warnings)  # fmt: skip


def url_encoded(text: str) -> bool:
    """Whether the values of a LIN text are URL-encoded (RealBridge: `pn|Jeff%20Green%2C...`)."""
    return ("%2C" in text or "%2c" in text) and _ENCODED.search(text) is not None


def iter_lin(
    pieces: Iterable[str],
    source: str,
    events: list[RawEvent],
    encoded: bool,
    warnings: list[tuple[int, str]] | None = None,
) -> Iterator[RawRecord]:
    """The table results of a LIN text given in pieces (cut anywhere: a pair cut in two is read
    whole with the next piece), each piece's as soon as it is read, so a large file is read in
    bounded memory; vugraph events are appended to `events`, and to `warnings` (line, text) the
    one warning of tables that contradict their vugraph header (`header_conflict`). `encoded`:
    see `url_encoded`.

    One piece gives the records in the order `parse_lin_file` gives them; with more, the record
    for text outside any table (if any) comes last instead of first.
    """
    decode = unquote if encoded else None
    records: list[RawRecord] = []
    event = stage = home = visit = ""
    legacy = False
    outside: RawRecord | None = None  # the first text before any table that is not LIN
    names: list[str] = []
    eight: list[str] = []  # the last `pn` naming both rooms (a vugraph header)
    eight_line = 0
    ahead = False  # the last `pn` (four names) came between tables: the next table's players
    conflicts: list[tuple[int, str, str, list[str], int]] = []  # tables contradicting the header
    results: list[str] = []
    cur: RawRecord | None = None
    has_deal = False
    calls: list[str] = []
    cards: list[str] = []
    counted = [0, 1]  # (offset, line at that offset): offsets asked for mostly grow
    first_line = 1  # line of the piece's first character
    text = ""

    def lineno(offset: int) -> int:
        at, line = counted
        if offset >= at:
            line += text.count("\n", at, offset)
        else:
            line = text.count("\n", 0, offset) + first_line
        counted[:] = [offset, line]
        return line

    def finish() -> None:
        nonlocal cur
        if cur is None:
            return
        cur.auction = " ".join(calls)
        cur.play = " ".join(cards)
        records.append(cur)
        cur = None

    seated: dict[tuple[str, bool], dict[str, str]] = {}  # the seats of `names`, by room

    def seat_players(rec: RawRecord, room: str) -> None:
        seats = seated.get((room, legacy))
        if seats is None:
            offset = 4 if room == "Closed" and len(names) >= 8 else 0
            entries = (names + [""] * 8)[offset : offset + 4]  # S, W, N, E
            seats = {}
            for seat, entry in zip(("south", "west", "north", "east"), entries, strict=True):
                name, pid = _player(entry) if entry else ("", "")
                seats[f"{seat}name"] = name if not legacy else entry
                if not legacy:
                    seats[f"{seat}_id"] = pid
            seated[(room, legacy)] = seats
        rec.__dict__.update(seats)

    def checked(given: list[str], line: int, room: str, board: str) -> list[str]:
        """A table's own four players, or the header's eight where they contradict it (the
        table names players the header seats in the other room: `header_conflict`)."""
        other = header_conflict(given, eight, room)
        if not other:
            return given
        conflicts.append((line, room, board, other, eight_line))
        return eight

    def start(offset: int, board: str = "", room: str = "") -> RawRecord:
        nonlocal cur, has_deal, calls, cards, legacy, names, ahead
        finish()
        if room and len(eight) >= 8 and len(names) < 8:
            # a room's table: the four names given just before it, if they agree with the
            # header; never the last table's own four (the other room's, or another board's)
            names = checked(names, lineno(offset), room, board) if ahead else eight
            seated.clear()
        ahead = False
        # A table opened by `qx|o12|` is read exactly as before hand records were supported (deal
        # in LIN's seat order, IMP scoring, no ids), so that the ids of such records do not change.
        legacy = bool(board or room)
        cur = RawRecord(
            source_file=source,
            source_line=lineno(offset),
            source_format="lin",
            event=event,
            stage=stage,
            board_no=board,
            room=room,
            home_team=home,
            visit_team=visit,
            play_format="sequence",
            scoring="IMP" if legacy else "",
        )
        seat_players(cur, room)
        has_deal = False
        calls, cards = [], []
        return cur

    pos = 0
    board_index = 0
    found = 0  # records given
    carry = ""  # the end of the last piece, not read yet (a pair cut in two)
    seen_text = False
    pieces = iter(pieces)
    piece = next(pieces, None)
    while piece is not None:
        following = next(pieces, None)
        text = carry + piece if carry else piece
        seen_text = seen_text or not text.isspace() and bool(text)
        pos = 0
        for m in _TOKEN.finditer(text):
            at, end = m.span()
            if at != pos:
                gap = text[pos:at].strip()
                if gap and cur is not None and not cur.parse_error:
                    cur.parse_error = f"unreadable LIN text {gap[:60]!r} at line {lineno(pos)}"
                elif gap and cur is None and outside is None:
                    outside = RawRecord(source, lineno(pos), "lin",
                                        parse_error=f"unreadable LIN text {gap[:60]!r} outside any table")  # fmt: skip
            pos = end
            kind = m.lastgroup
            if kind != "value":  # a run of pairs
                if cur is None or kind == "run":
                    continue
                pairs = (_CALL_VALUES if kind == "calls" else _CARD_VALUES).findall(m.group(kind))
                values = "".join(pairs).split("|")[1:]
                if decode is not None:
                    values = [decode(v) for v in values]
                if kind == "calls":
                    calls += map(_CALL_OF.__getitem__, values)
                else:
                    cards += map(_CARD_OF.__getitem__, values)
                continue
            key, value = m.group("key").lower(), m.group("value")
            if decode is not None:
                value = decode(value)
            if key == "vg":
                f = value.split(",")
                event = f[0].strip() if f else ""
                stage = f[1].strip() if len(f) > 1 else ""
                home = f[5].strip() if len(f) > 5 else ""
                visit = f[7].strip() if len(f) > 7 else ""
                scoring = _VG_SCORING.get(f[2].strip().upper(), "") if len(f) > 2 else ""
                events.append(RawEvent(source_file=source, event=event, scoring=scoring))
            elif key == "rs":
                results = value.split(",")
            elif key == "pn":
                names = [n.strip() for n in value.split(",")]
                if len(names) >= 8:
                    eight, eight_line = names, lineno(at)  # the header's players of both rooms
                elif cur is not None and cur.room and not has_deal and len(eight) >= 8:
                    # `qx|c1|pn|...`: this table's players, unless they contradict the header
                    names = checked(names, cur.source_line, cur.room, cur.board_no)
                elif len(eight) >= 8:
                    ahead = True  # `pn|...|qx|c1|`: the next table's players
                seated.clear()
                if cur is not None and has_deal:
                    finish()  # a hand record's table ended; the next one starts with its players
                elif cur is not None:
                    seat_players(cur, cur.room)  # `qx||pn|...`: this table's players
            elif key == "qx":
                room = {"o": "Open", "c": "Closed"}.get(value[:1].lower(), "")
                board = value[1:] if value[:1].isalpha() else value
                rec = start(at, board.strip(), room)
                if board_index < len(results):
                    rec.result = _result_tricks(results[board_index])
                board_index += 1
            elif key == "md":
                if cur is None or has_deal:
                    start(at)
                assert cur is not None
                cur.dealer, cur.deal = (_LIN_DEAL_OF if legacy else _DEAL_OF)[value]
                cur.bidstart = cur.dealer
                has_deal = True
            elif cur is None:
                continue
            elif key == "ah":
                label = _BOARD_LABEL.search(value.strip())
                if label and not cur.board_no:
                    cur.board_no = label.group(1)
            elif key == "sv":
                cur.vulnerable = _LIN_VUL.get(value.strip().lower(), value)
            elif key == "mc":
                cur.result = value.strip()
        if following is None:
            break
        # the unread end of this piece (a pair cut in two) is read with the next one
        first_line = lineno(pos)
        carry = text[pos:]
        counted[:] = [0, first_line]
        yield from records
        found += len(records)
        records.clear()
        piece = following
    tail = text[pos:].strip()
    if tail and cur is not None and not cur.parse_error:
        cur.parse_error = f"unreadable LIN text {tail[:60]!r} at line {lineno(pos)}"
    elif tail and cur is None and outside is None:
        outside = RawRecord(source, lineno(pos), "lin",
                            parse_error=f"unreadable LIN text {tail[:60]!r} outside any table")  # fmt: skip
    finish()
    if conflicts and warnings is not None:
        warnings.append(_conflict_warning(conflicts))
    if outside is not None and (records or found):
        if found:  # records already given: it comes last
            records.append(outside)
        else:
            records.insert(0, outside)
    if not records and not found and seen_text:
        records.append(
            RawRecord(
                source,
                1,
                "lin",
                parse_error="no LIN table result found (no qx|, pn| or md| pair): not a LIN file",
            )
        )
    yield from records


def parse_lin(text: str, source_file: str) -> list[RawRecord]:
    """Every table result of a LIN text as a raw record (see `parse_lin_file`)."""
    return parse_lin_file(text, source_file).records

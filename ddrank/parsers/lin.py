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
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate
from urllib.parse import unquote

from ddrank.raw import ParsedFile, RawEvent, RawRecord, number_repeats

_PAIR = re.compile(r"([a-zA-Z]{2})\|([^|]*)\|")
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
            suits[parts[k]] += parts[k + 1]
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


_CALLS = {"D": "X", "DBL": "X", "RDBL": "R", "XX": "R"}


def _call(value: str) -> str:
    call = value.strip().upper().rstrip("!")
    return _CALLS.get(call, call)


_STRUCTURE = frozenset(("vg", "rs", "pn", "qx", "md"))


def _pairs_fast(text: str) -> tuple[list[str], list[str], Callable[[int], int]] | None:
    """Keys (lower case), values and where each key starts, by splitting at every `|`, when the
    text is nothing but `key|value|` pairs and white space; None otherwise."""
    tokens = text.split("|")
    tail = tokens.pop()
    if len(tokens) % 2 or tail.strip():
        return None
    raw_keys = tokens[0::2]
    stripped = [k.lstrip() for k in raw_keys]
    joined = "".join(stripped)
    if len(joined) != 2 * len(stripped) or not (joined.isascii() and joined.isalpha()):
        return None
    lower = joined.lower()
    keys = [lower[k : k + 2] for k in range(0, len(lower), 2)]
    lengths = list(accumulate(map(len, tokens), initial=0))  # token j starts at lengths[j] + j

    def offset(k: int) -> int:
        return lengths[2 * k] + 2 * k + len(raw_keys[k]) - len(stripped[k])

    return keys, tokens[1::2], offset


def _pairs_regex(
    text: str,
) -> tuple[list[str], list[str], Callable[[int], int], list[tuple[int, int, str]]]:
    """Keys, values, key offsets, and the text between pairs that is not LIN: (index of the pair
    after it, its offset, the text)."""
    keys: list[str] = []
    values: list[str] = []
    offsets: list[int] = []
    gaps: list[tuple[int, int, str]] = []
    pos = 0
    for m in _PAIR.finditer(text):
        gap = text[pos : m.start()].strip()
        if gap:
            gaps.append((len(keys), pos, gap))
        keys.append(m.group(1).lower())
        values.append(m.group(2))
        offsets.append(m.start())
        pos = m.end()
    tail = text[pos:].strip()
    if tail:
        gaps.append((len(keys), pos, tail))
    return keys, values, offsets.__getitem__, gaps


def parse_lin_file(text: str, source: str) -> ParsedFile:
    """Every table result of a LIN text (any of the layouts above), and the vugraph event if any.

    Never raises for bad data: text between pairs that is not LIN is noted in the record it falls
    in, and a text with no table at all is one record with `parse_error` set. A text that is only
    LIN pairs is split at its pipes, in C, and only the pairs that open tables are looked at one by
    one; each table's calls and cards are gathered by comprehension.
    """
    if "|" not in text and "%7C" in text.upper():  # the whole text URL-encoded, pipes included
        text = unquote(text)
    encoded = ("%2C" in text or "%2c" in text) and _ENCODED.search(text)
    decode = unquote if encoded else None
    fast = _pairs_fast(text)
    if fast is not None:
        keys, values, offset_of = fast
        gaps: list[tuple[int, int, str]] = []
    else:
        keys, values, offset_of, gaps = _pairs_regex(text)
    if decode is not None:
        values = [decode(v) for v in values]
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def lineno(offset: int) -> int:
        return bisect_right(line_starts, offset)

    records: list[RawRecord] = []
    spans: list[tuple[int, int]] = []  # each record's pairs [start, end)
    events: list[RawEvent] = []
    event = stage = home = visit = ""
    legacy = False
    names: list[str] = []
    results: list[str] = []
    cur: RawRecord | None = None
    cur_start = 0
    has_deal = False
    board_index = 0

    def finish(end: int) -> None:
        nonlocal cur
        if cur is not None:
            records.append(cur)
            spans.append((cur_start, end))
        cur = None

    def seat_players(rec: RawRecord, room: str) -> None:
        offset = 4 if room == "Closed" and len(names) >= 8 else 0
        seats = (names + [""] * 8)[offset : offset + 4]  # S, W, N, E
        for seat, entry in zip(("south", "west", "north", "east"), seats, strict=True):
            name, pid = _player(entry) if entry else ("", "")
            setattr(rec, f"{seat}name", name if not legacy else entry)
            if not legacy:
                setattr(rec, f"{seat}_id", pid)

    def start(k: int, board: str = "", room: str = "") -> RawRecord:
        nonlocal cur, cur_start, has_deal, legacy
        finish(k)
        # A table opened by `qx|o12|` is read exactly as before hand records were supported (deal
        # in LIN's seat order, IMP scoring, no ids), so that the ids of such records do not change.
        legacy = bool(board or room)
        cur = RawRecord(
            source_file=source,
            source_line=lineno(offset_of(k)),
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
        cur_start, has_deal = k, False
        return cur

    for k in [k for k, key in enumerate(keys) if key in _STRUCTURE]:
        key, value = keys[k], values[k]
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
            if cur is not None and has_deal:
                finish(k)  # a hand record's table ended; the next one starts with its players
            elif cur is not None:
                seat_players(cur, cur.room)  # `qx||pn|...`: this table's players
        elif key == "qx":
            room = {"o": "Open", "c": "Closed"}.get(value[:1].lower(), "")
            board = value[1:] if value[:1].isalpha() else value
            rec = start(k, board.strip(), room)
            if board_index < len(results):
                rec.result = _result_tricks(results[board_index])
            board_index += 1
        else:  # md
            if cur is None or has_deal:
                start(k)
            assert cur is not None
            cur.dealer, cur.deal = (_lin_deal if legacy else _north_first_deal)(value)
            cur.bidstart = cur.dealer
            has_deal = True
    finish(len(keys))

    for rec, (a, b) in zip(records, spans, strict=True):
        seg_keys, seg_values = keys[a:b], values[a:b]
        pairs = list(zip(seg_keys, seg_values, strict=True))
        rec.auction = " ".join([_call(v) for key, v in pairs if key == "mb"])
        rec.play = " ".join([v.strip().upper() for key, v in pairs if key == "pc"])
        last = dict(pairs)
        if "sv" in last:
            rec.vulnerable = _LIN_VUL.get(last["sv"].strip().lower(), last["sv"])
        if "mc" in last:
            rec.result = last["mc"].strip()
        if "ah" in last and not rec.board_no:
            labels = (_BOARD_LABEL.search(v.strip()) for key, v in pairs if key == "ah")
            rec.board_no = next((m.group(1) for m in labels if m), "")
    outside: RawRecord | None = None  # the first text before any table that is not LIN
    span_starts = [a for a, _ in spans]
    for at, offset, gap in gaps:
        # the gap before pair `at` belongs to the table open then: the one holding pair at-1
        k = bisect_left(span_starts, at) - 1
        owner = records[k] if k >= 0 and at <= spans[k][1] else None
        if owner is not None and not owner.parse_error:
            owner.parse_error = f"unreadable LIN text {gap[:60]!r} at line {lineno(offset)}"
        elif owner is None and outside is None:
            outside = RawRecord(source, lineno(offset), "lin",
                                parse_error=f"unreadable LIN text {gap[:60]!r} outside any table")  # fmt: skip
    if outside is not None and records:
        records.insert(0, outside)
    if not records and text.strip():
        records.append(
            RawRecord(
                source,
                1,
                "lin",
                parse_error="no LIN table result found (no qx|, pn| or md| pair): not a LIN file",
            )
        )
    return ParsedFile(format="lin", records=number_repeats(records), events=events)


def parse_lin(text: str, source_file: str) -> list[RawRecord]:
    """Every table result of a LIN text as a raw record (see `parse_lin_file`)."""
    return parse_lin_file(text, source_file).records

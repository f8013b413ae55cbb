"""Bridgemate `.bws` results joined into the event model: table rows in, raw records out.

The `.bws` file is the MS Access database the Bridgemate table terminals write; `tasks/
bridgemate_io.py` reads its tables (columns as lists, as `access_parser` returns them) and hands
them here with the companion hand-record PBN. What the tables hold:

* `ReceivedData`: one row per result entered at a table: Section (id), Table, Round, Board,
  PairNS, PairEW, `NS/EW` (the declarer's seat), Contract ("4 S x", "1 C xx", "3 NT", "PASS", ""
  when the board was not played), Result ("=", "+1", "-2"), LeadCard, Remarks ("Not played"),
  Erased. A result corrected at the table leaves the old row behind, Erased; it is not a result.
  If a (section, table, round, board) was entered twice without the first being erased, the last
  entry (highest ID) is the result, as the scoring program takes it.
* `RoundData`: the movement: who sits North-South and East-West at each table in each round.
* `PlayerNumbers`: the player ids (ACBL numbers) entered at each table and seat; Round 0 means from
  the start. The players of East-West belong to the pair that sat there in that round.
* `Section` (letter, session, scoring type), `Session` (date, name), `HandRecord` (deals; used when
  no hand-record PBN is given), `PlayerNames` (the club's list: a name for an id entered without).

The `.bws` publishes no scores or match points: only contracts and results.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from ddrank.parsers.adjusted import adjusted_split
from ddrank.parsers.handrecord import HandDeal, board_dealer_vulnerability, hand_record_deals
from ddrank.raw import ParsedFile, RawEvent, RawRecord, number_repeats

Table = Mapping[str, Sequence[object]]
_CONTRACT = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)\s*(X{0,2})$", re.IGNORECASE)
_SCORING = {1: "MP"}  # Section.ScoringType 1: pairs, match points (the only type seen here)
_SEATS = ("N", "E", "S", "W")


#: An ACBL player number: seven characters, a digit or a letter then six digits ("8502978",
#: "J123456"). Most members of a game having one says the game is an ACBL club game.
_ACBL_NUMBER = re.compile(r"^[0-9A-Z]\d{6}$")


def federation_of_numbers(numbers: Iterable[str]) -> str:
    """'ACBL' when most of the member numbers entered at the tables are ACBL numbers, else ''."""
    given = [n.strip().upper() for n in numbers if n and n.strip() not in ("", "0")]
    acbl = sum(1 for n in given if _ACBL_NUMBER.match(n))
    return "ACBL" if given and acbl * 2 > len(given) else ""


def rows(table: Table | None) -> list[dict[str, object]]:
    """Column lists (as `access_parser` gives them) as a list of row dicts."""
    if not table:
        return []
    names = list(table)
    columns = zip(*table.values(), strict=False)  # (a shorter column ends the rows)
    return [dict(zip(names, values, strict=True)) for values in columns]


def _text(value: object) -> str:
    if type(value) is str:
        return value.strip()
    return "" if value is None else str(value).strip()


def _int(value: object) -> int | None:
    if type(value) is int:  # (not a bool: int("True") fails)
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


@lru_cache(maxsize=4096)  # a session's contracts and results repeat
def contract_and_tricks(contract: str, result: str) -> tuple[str, str]:
    """Bridgemate's contract and result as a PBN contract and declarer's tricks.

    ("4 S x", "+1") → ("4SX", "11"); ("3 NT", "=") → ("3NT", "9"); ("PASS", "") → ("Pass", "");
    a contract that cannot be read is kept as written, with no tricks.
    """
    c = contract.strip()
    if c.upper() in ("PASS", "P", "AP", "ALL PASS"):
        return "Pass", ""
    m = _CONTRACT.match(c.replace(" ", ""))
    if not m:
        return c, ""
    level, strain, doubled = int(m.group(1)), m.group(2).upper(), m.group(3).upper()
    pbn = f"{level}{'NT' if strain in ('N', 'NT') else strain}{doubled}"
    r = result.strip()
    if r == "=":
        return pbn, str(level + 6)
    if re.fullmatch(r"[+-]\d{1,2}", r):
        tricks = level + 6 + int(r)
        return pbn, str(tricks) if 0 <= tricks <= 13 else ""
    if re.fullmatch(r"\d{1,2}", r) and int(r) <= 13:  # some set-ups enter tricks taken
        return pbn, r
    return pbn, ""


def _iso(value: object) -> str:
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", _text(value))
    return f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else ""


def _hand_record_table(table: Table | None) -> dict[tuple[int, str], HandDeal]:
    """Deals from the `.bws` HandRecord table, by (section id, board)."""
    deals: dict[tuple[int, str], HandDeal] = {}
    for row in rows(table):
        section, board = _int(row.get("Section")), _text(row.get("Board"))
        hands = []
        for seat in ("North", "East", "South", "West"):
            hands.append(
                ".".join(
                    _text(row.get(f"{seat}{s}")) for s in ("Spades", "Hearts", "Diamonds", "Clubs")
                )
            )
        if section is None or not board or sum(len(h) - 3 for h in hands) != 52:
            continue
        dealer, vul = board_dealer_vulnerability(board)
        deals[(section, board)] = HandDeal(board, "N:" + " ".join(hands), dealer, vul)
    return deals


class _Seating:
    """Who sat where: pairs from RoundData, players from PlayerNumbers (by the round they entered)."""

    def __init__(self, tables: Mapping[str, Table]) -> None:
        self.rounds: dict[tuple[int, int, int], tuple[str, str]] = {}
        first_round: dict[tuple[int, int], int] = {}
        for row in rows(tables.get("RoundData")):
            key = (_int(row.get("Section")), _int(row.get("Table")), _int(row.get("Round")))
            if None in key:
                continue
            self.rounds[key] = (_text(row.get("NSPair")), _text(row.get("EWPair")))  # type: ignore[index]
            st = key[:2]
            first_round[st] = min(first_round.get(st, key[2]), key[2])  # type: ignore[arg-type]
        known = {_text(r.get("strID")) or _text(r.get("ID")): _text(r.get("Name"))
                 for r in rows(tables.get("PlayerNames"))}  # fmt: skip
        # (section, side, pair, seat) -> [(from round, name, id)]
        self.players: dict[tuple[int, str, str, str], list[tuple[int, str, str]]] = {}
        self.seen: dict[tuple[int, str, str, str, int], tuple[str, str]] = {}  # player() asked
        self.seated: dict[tuple[int, str, str, int], dict[str, str]] = {}  # seats() asked
        for row in rows(tables.get("PlayerNumbers")):
            section, table = _int(row.get("Section")), _int(row.get("Table"))
            rnd, seat = _int(row.get("Round")), _text(row.get("Direction")).upper()[:1]
            if section is None or table is None or rnd is None or seat not in _SEATS:
                continue
            at = max(rnd, first_round.get((section, table), 1))
            pairs = self.rounds.get((section, table, at))
            if pairs is None:
                continue
            side = "NS" if seat in "NS" else "EW"
            pair = pairs[0] if side == "NS" else pairs[1]
            number = _text(row.get("Number"))
            name = _text(row.get("Name")) or known.get(number, "")
            self.players.setdefault((section, side, pair, seat), []).append((rnd, name, number))

    def seats(self, section: int, ns_pair: str, ew_pair: str, rnd: int) -> dict[str, str]:
        """The four players' names and ids as record fields (`northname`, `north_id`, ...)."""
        key = (section, ns_pair, ew_pair, rnd)
        fields = self.seated.get(key)
        if fields is None:
            fields = {}
            for side, pair in (("NS", ns_pair), ("EW", ew_pair)):
                for seat in side:
                    name_field, id_field = _SEAT_FIELDS[seat]
                    fields[name_field], fields[id_field] = self.player(
                        section, side, pair, seat, rnd
                    )
            self.seated[key] = fields
        return fields

    def player(self, section: int, side: str, pair: str, seat: str, rnd: int) -> tuple[str, str]:
        key = (section, side, pair, seat, rnd)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self._player(section, side, pair, seat, rnd)
        return found

    def _player(self, section: int, side: str, pair: str, seat: str, rnd: int) -> tuple[str, str]:
        entries = self.players.get((section, side, pair, seat), [])
        now = [e for e in entries if e[0] <= rnd] or entries
        if not now:
            return "", ""
        _, name, number = max(now, key=lambda e: e[0])
        return name, "" if number in ("", "0") else number

    def movement(self) -> str:
        """'mitchell' when every table keeps its North-South pair, else 'howell'."""
        by_table: dict[tuple[int, int], set[str]] = {}
        for (section, table, _), (ns, _) in self.rounds.items():
            by_table.setdefault((section, table), set()).add(ns)
        if not by_table:
            return ""
        return "mitchell" if all(len(v) == 1 for v in by_table.values()) else "howell"


_SEAT_FIELDS = {
    s: (f"{f}name", f"{f}_id")
    for s, f in zip("NESW", ("north", "east", "south", "west"), strict=True)
}


def join_bws(
    tables: Mapping[str, Table],
    hands_pbn: str | None,
    source: str,
    pbn_deals: dict[str, HandDeal] | None = None,
) -> ParsedFile:
    """The results of a Bridgemate database as raw records, joined to their deals and players.

    `tables` maps table names to their columns; `hands_pbn` is the companion hand-record PBN (its
    deals, by board number, win over the database's HandRecord table and bring the par), or
    `pbn_deals` its deals already read.
    """
    sections = {}
    for row in rows(tables.get("Section")):
        sid = _int(row.get("ID"))
        if sid is not None:
            letter = _text(row.get("Letter")) or str(sid)
            sections[sid] = (letter, _text(row.get("Session")), _int(row.get("ScoringType")))
    sessions = {_text(r.get("ID")): r for r in rows(tables.get("Session"))}
    seating = _Seating(tables)
    if pbn_deals is None:  # (the caller may have read them already)
        pbn_deals = hand_record_deals(hands_pbn) if hands_pbn else {}
    db_deals: dict[tuple[int, str], HandDeal] | None = None  # read when the PBN lacks a board

    latest: dict[tuple[object, ...], dict[str, object]] = {}
    for row in rows(tables.get("ReceivedData")):
        if row.get("Erased") in (True, 1, "1", "True"):
            continue  # superseded at the table: not a result
        get = row.get
        key = (_int(get("Section")), _int(get("Table")), _int(get("Round")), _int(get("Board")))
        if key in latest and (_int(latest[key].get("ID")) or 0) > (_int(row.get("ID")) or 0):
            continue
        latest[key] = row

    records: list[RawRecord] = []
    # per section: its letter, session, and the session's name, date and scoring
    where: dict[int | None, tuple[str, str, str, str, str]] = {}
    for (section_id, table, rnd, _), row in sorted(
        latest.items(), key=lambda kv: _int(kv[1].get("ID")) or 0
    ):
        if section_id not in where:
            letter, session_id, _ = sections.get(section_id or 0, (_text(section_id), "", None))
            session = sessions.get(session_id, {})
            where[section_id] = (
                letter,
                session_id,
                _text(session.get("Name")),
                _iso(session.get("Date")).replace("-", "."),
                _SCORING.get(sections.get(section_id or 0, ("", "", None))[2] or 0, ""),
            )
        letter, session_id, event_name, date, scoring = where[section_id]
        board = _text(row.get("Board"))
        raw_contract = _text(row.get("Contract"))
        adjusted = adjusted_split(raw_contract)
        contract, tricks = (
            ("", "") if adjusted else contract_and_tricks(raw_contract, _text(row.get("Result")))
        )
        declarer = _text(row.get("NS/EW")).upper()[:1] if contract not in ("", "Pass") else ""
        rec = RawRecord(
            source_file=source,
            source_line=_int(row.get("ID")) or 0,  # the row's ID in ReceivedData
            source_format="bws",
            event=event_name,
            date=date,
            board_no=board,
            contract=contract,
            declarer=declarer if declarer in _SEATS else "",
            result=tricks,
            scoring=scoring,
            session=session_id,
            section=letter,
            round=_text(rnd),
            table_no=_text(table),
            ns_pair=_text(row.get("PairNS")),
            ew_pair=_text(row.get("PairEW")),
            adjusted=adjusted,
            lead_card=_text(row.get("LeadCard")),
        )
        hand = pbn_deals.get(board)
        if hand is None:
            if db_deals is None:
                db_deals = _hand_record_table(tables.get("HandRecord"))
            hand = db_deals.get((section_id or 0, board))
        if hand is not None:
            rec.deal, rec.dealer, rec.vulnerable = hand.deal, hand.dealer, hand.vulnerable
            rec.bidstart = hand.dealer
            rec.par_score, rec.par_contract = hand.par_score, hand.par_contract
        rec.__dict__.update(seating.seats(section_id or 0, rec.ns_pair, rec.ew_pair, rnd or 0))
        records.append(rec)

    federation = federation_of_numbers(
        _text(r.get("Number")) for r in rows(tables.get("PlayerNumbers"))
    )
    events = []
    for session_id, session in sessions.items():
        day = _iso(session.get("Date"))
        types = {t for (_, s, t) in sections.values() if s == session_id}
        events.append(
            RawEvent(
                source_file=source,
                event=_text(session.get("Name")),
                date_start=day,
                date_end=day,
                scoring=_SCORING.get(types.pop(), "") if len(types) == 1 else "",
                movement=seating.movement(),
                scorer="Bridgemate",
                federation=federation,
            )
        )
    if not records:
        records.append(
            RawRecord(
                source, 1, "bws", parse_error="no result in ReceivedData (table missing or empty)"
            )
        )
    return ParsedFile(format="bws", records=number_repeats(records), events=events)

"""From a stored or freshly read table result (a row of fields) to an `EventResult` to score.

Both the store's `boards` rows and the readers' `RawRecord`s carry the event model's fields under
the same names; this module reads either. Nothing is dropped silently: a row that cannot be
scored comes back as a `RecordError` naming its source and line.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ddrank.parsers.adjusted import not_played, sits_out
from ddrank.raw import BOARD_GAME
from ddrank.scoring.arithmetic.duplicate import duplicate_score
from ddrank.scoring.intake.identity import (
    placeholder_side,
    seat_identities,
    side_label,
    side_names,
    sitting,
    split_name_id,
    two_seats,
)
from ddrank.scoring.intake.movement import line_key, missing_lines
from ddrank.scoring.intake.results import RecordError, board_vulnerability, place_of
from ddrank.scoring.model import (
    EventInfo,
    EventResult,
    ScoringError,
    parse_adjusted,
    parse_number,
)
from ddrank.types import (
    Contract,
    DomainError,
    Reject,
    Seat,
    auction_contract,
    board_year,
    clean_calls,
    normalise_contract,
    parse_deal,
    vulnerability,
)


def _s(row: Mapping[str, Any], key: str) -> str:
    v = row.get(key)
    return "" if v is None else str(v).strip()


def _bid_or_played(row: Mapping[str, Any]) -> bool:
    """Something happened at the table: a call, a card, a contract other than a pass-out, a
    score other than 0 (a table passed out with no auction recorded may be one never played)."""
    contract = normalise_contract(_s(row, "contract"))
    score = parse_number(row.get("ns_score"))
    return bool(_s(row, "auction") or _s(row, "play") or row.get("played_cards") or
                (contract and contract != "P") or score)  # fmt: skip


def _no_contract(row: Mapping[str, Any]) -> str:
    """Why a row with no contract and no score is no result, in the words of what it holds: an
    auction recorded (a BBO LIN never writes the contract) tells how far the table got."""
    calls = clean_calls(_s(row, "auction"))
    if not calls:
        return "missing contract and no score"
    ended = len(calls) >= 4 and calls[-3:] == ["P", "P", "P"]
    if not ended:
        return f"no result: the auction stops after {len(calls)} call(s), and no score"
    bid, cards = auction_contract(calls), len(_s(row, "play").split())
    if bid == "P":
        return "no result: the auction is passed out, and the file writes no contract or score"
    return (f"no result: the auction reaches {bid}, the play stops after {cards} of 52 cards "
            "with no claim, and no score")  # fmt: skip


def phantom_side(row: Mapping[str, Any]) -> str:
    """'NS' / 'EW' when the source flags that side as a phantom or sit-out (no result)."""
    flagged = _s(row, "phantom").upper()
    return flagged if flagged in ("NS", "EW") else ""


def unplayed_placeholders(row: Mapping[str, Any], names: Sequence[str]) -> str:
    """Why a table whose side is placeholders ("Dummy 1#", a robot) is no result: nothing was bid
    or played there (a sit-out, an absent team), else ''. Placeholders who played make a result:
    it is scored, and they are not rated."""
    side = placeholder_side(names)
    if not side or phantom_side(row) or _bid_or_played(row):
        return ""
    raw = [_s(row, f"{seat}name") for seat in ("north", "east", "south", "west")]
    seats = [raw[k] for k in ((0, 2) if side == "NS" else (1, 3))]
    match = " v ".join(x for x in (_s(row, "home_team"), _s(row, "visit_team")) if x)
    what = f"the match {match}" if match else "this table"
    return (f"not played: {'North-South' if side == 'NS' else 'East-West'} are placeholders "
            f"({', '.join(seats)}) and {what} records no call or card; a score awarded for an "
            "absent pair or team is not in the file")  # fmt: skip


def _vulnerable(row: Mapping[str, Any]) -> tuple[bool, bool] | None:
    ns, ew = row.get("ns_vulnerable"), row.get("ew_vulnerable")
    if isinstance(ns, bool) and isinstance(ew, bool):
        return ns, ew
    v = vulnerability(_s(row, "vulnerable"))
    if v[0] is not None and v[1] is not None:
        return v  # type: ignore[return-value]
    board = _s(row, "board_no")
    return board_vulnerability(int(board)) if board.isdigit() and int(board) > 0 else None


@functools.lru_cache(maxsize=65536)
def canonical_deal(deal: str) -> str:
    """The deal's canonical text ('N:...'), or the text itself when the cleaner would refuse it
    (it still tells two deals apart). Cached: every table of a board holds the same deal."""
    with contextlib.suppress(Reject):
        return parse_deal(deal)[1] if deal else ""
    return deal


def played_key(row: Mapping[str, Any], vul: tuple[bool, bool] | None) -> str:
    """What was really played: the canonical deal, the dealer and the vulnerability."""
    deal = canonical_deal(_s(row, "deal"))
    v = "?" if vul is None else {(False, False): "-", (True, False): "NS", (False, True): "EW",
                                 (True, True): "All"}[vul]  # fmt: skip
    return f"{deal}|{_s(row, 'dealer').upper()[:1]}|{v}"


@functools.lru_cache(maxsize=1 << 14)  # pure: one per contract, result, vulnerability, year
def ns_score_of(
    contract: str, declarer: str, tricks: int, vul: tuple[bool, bool], year: int
) -> int:
    """North-South's score of a played contract ('P' scores 0)."""
    norm = normalise_contract(contract)
    if norm == "P":
        return 0
    seat = Seat.parse(declarer)
    c = Contract.parse(norm, seat)
    ns = seat in (Seat.N, Seat.S)
    score = duplicate_score(c, tricks, vul[0] if ns else vul[1], year)
    return score if ns else -score


def _tricks(row: Mapping[str, Any]) -> int | None:
    v = row.get("result")
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    try:
        t = int(v)
    except (TypeError, ValueError):
        return None
    return t if 0 <= t <= 13 else None


def _seats(text: str) -> tuple[str, str, str, str]:
    """'7|44|27|11' -> ('7', '44', '27', '11'); four blanks unless all four seats are named."""
    parts = [p.strip() for p in text.split("|")] if text else []
    return tuple(parts) if len(parts) == 4 and all(parts) else ("", "", "", "")  # type: ignore[return-value]


def event_label(row: Mapping[str, Any]) -> str:
    """The event a row belongs to: the store's event id, else its name and year."""
    eid = _s(row, "event_id")
    if eid:
        return eid
    name = _s(row, "event")
    day = re.match(r"^(\d{4})[.-](\d\d)[.-](\d\d)$", _s(row, "date"))
    if day:  # two sessions of a club's "Pairs" are told apart by their day
        return f"{name} ({day.group(1)}-{day.group(2)}-{day.group(3)})"
    year = row.get("year")
    if not year:
        year = board_year(_s(row, "date"), name)
    return f"{name} ({year})" if year and str(year) not in name else name


def result_from_row(row: Mapping[str, Any], order: int = 0) -> EventResult | RecordError:
    """One table result, scored as written: adjusted, played (contract), or published score."""
    source = _s(row, "source_file") or "store"
    line = int(row["source_line"]) if row.get("source_line") not in (None, "") else None
    rid = _s(row, "record_id") or f"{source}:{line}"
    board = _s(row, "board_no")
    place = {**place_of(row), "event": event_label(row)}  # the event as results.csv names it

    def error(msg: str) -> RecordError:
        return RecordError(source, line, msg, **place)

    if not board:
        return error("no board number")
    names, ids = [], []
    for seat in ("north", "east", "south", "west"):
        name, pid = split_name_id(_s(row, f"{seat}name"), _s(row, f"{seat}_id"))
        names.append(name)
        ids.append(pid)
    absent = unplayed_placeholders(row, names)
    if absent:
        return error(absent)
    twice = two_seats(names, ids)
    if twice:  # evidence of one person at two seats: not a real table, reported, not scored
        return error(f"one player at two seats of this table: {twice}")
    vul = _vulnerable(row)
    phantom = phantom_side(row)
    cells = [_s(row, k) for k in ("contract", "ns_score", "result", "adjusted")]
    if not phantom and any(sits_out(c) for c in cells):  # a bye: the side without a number
        phantom = "NS" if not _s(row, "ns_pair") else "EW" if not _s(row, "ew_pair") else ""
    unplayed = any(not_played(c) or sits_out(c) for c in cells)  # no result, and no error
    year = int(row.get("year") or 0) or board_year(_s(row, "date"), _s(row, "event"))
    adjusted = None
    ns_score: int | None = None
    contract = normalise_contract(_s(row, "contract"))
    declarer = _s(row, "declarer").upper()[:1]
    tricks = _tricks(row)
    if unplayed:
        contract = declarer = ""
        tricks = None
    elif _s(row, "adjusted"):
        try:
            adjusted = parse_adjusted(_s(row, "adjusted"))
        except ScoringError as exc:
            return error(str(exc))
    elif contract == "P":
        ns_score = 0
    elif contract and not contract.startswith("?") and declarer and tricks is not None:
        if vul is None:
            return error(f"{contract} by {declarer}: unknown vulnerability")
        try:
            ns_score = ns_score_of(contract, declarer, tricks, vul, year)
        except DomainError as exc:
            return error(f"{contract} by {declarer} taking {tricks}: {exc}")
    elif parse_number(row.get("ns_score")) is not None:
        ns_score = int(parse_number(row.get("ns_score")))  # type: ignore[arg-type]
    elif not phantom:
        raw = _s(row, "contract")
        if not contract:
            return error(_no_contract(row))
        if contract.startswith("?"):
            return error(f"impossible contract {raw!r}")
        if not declarer:
            return error(f"contract {contract} has no valid declarer")
        return error(f"{contract} by {declarer}: missing result (trick count) and no score")
    if adjusted is not None and ns_score is None and parse_number(row.get("ns_score")) is not None:
        ns_score = int(parse_number(row.get("ns_score")))  # type: ignore[arg-type]  # one side's
    ew_own = parse_number(row.get("ew_score"))
    matched = [_s(row, f"{seat}_player") for seat in ("north", "east", "south", "west")]
    return EventResult(
        record_id=rid,
        event=event_label(row),
        board=board,
        session=_s(row, "session") or _s(row, "stage"),
        section=_s(row, "section"),
        played=played_key(row, vul),
        # a pair the source names only by the label at both its seats ('Para-11') is that pair
        ns_pair=_s(row, "ns_pair") or side_label(names[0], names[2]),
        ew_pair=_s(row, "ew_pair") or side_label(names[1], names[3]),
        ns_players=side_names(names[0], names[2]),
        ew_players=side_names(names[1], names[3]),
        players=seat_identities(names, ids, matched),
        ns_score=ns_score if not phantom else None,
        ew_score=int(ew_own) if ew_own is not None and not phantom else None,
        repeat=_s(row, "repeat").upper(),
        adjusted=adjusted if not phantom else None,
        phantom=phantom,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        home_team=_s(row, "home_team"),
        visit_team=_s(row, "visit_team"),
        room=_s(row, "room"),
        order=order,
        published_ns_mp=parse_number(row.get("published_ns_mp")),
        published_ew_mp=parse_number(row.get("published_ew_mp")),
        published_ns_pct=parse_number(row.get("published_ns_pct")),
        published_ew_pct=parse_number(row.get("published_ew_pct")),
        published_imps=parse_number(row.get("published_imps")),
        published_datum=parse_number(row.get("published_datum")),
        player_numbers=_seats(_s(row, "player_numbers")),
        match=" v ".join(sorted(x for x in (_s(row, "home_team"), _s(row, "visit_team")) if x)),
        deal_id=_s(row, "deal_id"),
        names=tuple(_s(row, f"{seat}name") for seat in ("north", "east", "south", "west")),  # type: ignore[arg-type]
        ns_vulnerable=None if vul is None else vul[0],
        ew_vulnerable=None if vul is None else vul[1],
        year=year,
        date=_s(row, "date"),
        round=place["round"],
        table=_s(row, "table_no"),
        source=source,
        line=line,
    )


def results_from_rows(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[EventResult], list[RecordError]]:
    """Every row as a result or an error, then duplicate tables left out (with why), then the
    traveller lines the movement expects and no row holds (`ddrank.scoring.intake.movement`). A PBN game
    whose ScoreTable lists its board's results is not one of them (`ddrank.raw.BOARD_GAME`)."""
    results: list[EventResult] = []
    errors: list[RecordError] = []
    read: set[tuple[str, ...]] = set()  # the lines left out: read, so not missing
    for k, row in enumerate(rows):
        if row.get("source_format") == BOARD_GAME:
            continue
        made = result_from_row(row, k)
        if isinstance(made, RecordError):
            errors.append(made)
            read |= _line_keys(row)
        else:
            results.append(made)
    kept, dups = drop_duplicate_tables(results)
    return kept, errors + dups + missing_lines(kept, read)


def _line_keys(row: Mapping[str, Any]) -> set[tuple[str, ...]]:
    """Who met on which board, for a row left out (`movement.line_key`): by its pair numbers
    and by its four players."""
    at = (event_label(row), _s(row, "session") or _s(row, "stage"), _s(row, "section"),
          _s(row, "board_no"))  # fmt: skip
    names = [
        split_name_id(_s(row, f"{seat}name"))[0] for seat in ("north", "east", "south", "west")
    ]
    return {line_key(*at, (_s(row, "ns_pair"), _s(row, "ew_pair"))), line_key(*at, names)}


def drop_duplicate_tables(
    results: Sequence[EventResult],
) -> tuple[list[EventResult], list[RecordError]]:
    """A pair (or, without pair numbers, a player) with two results on one board: the later one
    is left out and reported. Pair numbers decide where the source gives them, because club
    sources often write surnames only, and two pairs may hold a "Wu" each. (A table that seats one
    person twice is left out when it is read: `ddrank.scoring.intake.identity.two_seats`.)

    The board is the director's (event, session, section, board) and, in teams events, the match,
    so the same board number of two matches, sessions or sections never clashes; and tables the
    file itself sets apart (two rooms of a match, two rounds: `identity.sitting`) never clash,
    whatever names they repeat.
    """
    seen: dict[tuple, EventResult] = {}
    kept: list[EventResult] = []
    errors: list[RecordError] = []
    for r in results:
        key = (r.event, r.session, r.section, r.board, frozenset((r.home_team, r.visit_team)),
               sitting(r.room, r.home_team, r.visit_team, r.round))  # fmt: skip
        who = [
            (f"{side} pair", pair)
            for side, pair in (("NS", r.ns_pair), ("EW", r.ew_pair))
            if pair and r.phantom != side and r.repeat != side
        ]  # a repeat is not its pair's
        if not who:  # without pair numbers or labels, the players
            who = [("player", p) for p in r.players if p]
        clash = next((seen[(key, w)] for w in who if (key, w) in seen), None)
        if clash is not None:
            first = f"{clash.source}:{clash.line}" if clash.line is not None else clash.record_id
            what = next(f"{w[0]} {w[1]}" for w in who if (key, w) in seen)
            errors.append(RecordError(r.source or "scoring", r.line,
                                      f"duplicate table: {what} already has a result on this "
                                      f"board ({first})", r.event, r.session, r.section,
                                      r.round, r.table, r.board))  # fmt: skip
            continue
        for w in who:
            seen[(key, w)] = r
        kept.append(r)
    return kept, errors


def event_infos(
    results: Sequence[EventResult], facts: Iterable[Mapping[str, Any]] = ()
) -> dict[str, EventInfo]:
    """EventInfo per event: the stored/read facts where present, else what the rows say."""
    given: dict[str, Mapping[str, Any]] = {}
    for f in facts:
        key = _s(f, "event_id") or _s(f, "event")
        if key:
            given[key] = f
    out: dict[str, EventInfo] = {}
    by_event: dict[str, list[EventResult]] = defaultdict(list)
    for r in results:
        by_event[r.event].append(r)
    for event in by_event:
        f = given.get(event) or {}
        top = parse_number(f.get("mp_top")) if f else None
        across = f.get("across_field") if f else False
        out[event] = EventInfo(
            event=event,
            scoring=_s(f, "scoring") if f else "",
            movement=_s(f, "movement").lower() if f else "",
            across_field=str(across).lower() in ("true", "1", "yes", "y"),
            mp_top=top,
            date=_s(f, "date_start") if f else "",
            scorer=_s(f, "scorer") if f else "",
            federation=_s(f, "federation") if f else "",
            fields=_s(f, "fields") if f else "",
            rankings=_s(f, "rankings") if f else "",
            max_score=parse_number(f.get("max_score")) if f else None,
        )
    return out


def with_scoring_hint(info: EventInfo, rows_scoring: Iterable[str]) -> EventInfo:
    """Take the event's scoring from the rows' own tag (PBN [Scoring]) when the facts are silent."""
    if info.scoring:
        return info
    tags = {s.strip().upper(): s.strip() for s in rows_scoring if s and s.strip()}
    return replace(info, scoring=next(iter(tags.values()))) if len(tags) == 1 else info

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

from ddrank.scoring.duplicate import duplicate_score
from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    ScoringError,
    parse_adjusted,
    parse_number,
)
from ddrank.scoring.results import RecordError, board_vulnerability
from ddrank.types import (
    Contract,
    DomainError,
    Reject,
    Seat,
    board_year,
    normalise_contract,
    parse_deal,
    vulnerability,
)

#: Names a scorer gives a phantom or sit-out pair ("Dummy 1#" on RealBridge, "Phantom", "Sit out").
PHANTOM_NAME = re.compile(r"^\s*(dummy\s*\d*#?|phantom|sit[\s-]*out|bye|ghost)\s*$", re.IGNORECASE)
#: RealBridge and BBO exports write a player as "Name#12345": the number is the player's id.
NAME_WITH_ID = re.compile(r"^(.*\S)\s*#(\d+)$")


def _s(row: Mapping[str, Any], key: str) -> str:
    v = row.get(key)
    return "" if v is None else str(v).strip()


def split_name_id(name: str, given_id: str = "") -> tuple[str, str]:
    """('Markus Knob', '39415') from 'Markus Knob#39415'; a given id wins."""
    m = NAME_WITH_ID.match(name)
    if m:
        return m.group(1), given_id or m.group(2)
    return name.rstrip("#").strip(), given_id


def phantom_side(row: Mapping[str, Any]) -> str:
    """'NS' / 'EW' when the source flags it, or when both players of a side have phantom names."""
    flagged = _s(row, "phantom").upper()
    if flagged in ("NS", "EW"):
        return flagged
    names = [_s(row, f"{seat}name") for seat in ("north", "east", "south", "west")]
    if names[0] and names[2] and PHANTOM_NAME.match(names[0]) and PHANTOM_NAME.match(names[2]):
        return "NS"
    if names[1] and names[3] and PHANTOM_NAME.match(names[1]) and PHANTOM_NAME.match(names[3]):
        return "EW"
    return ""


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
    line = row.get("source_line")
    rid = _s(row, "record_id") or f"{source}:{line}"
    board = _s(row, "board_no")

    def error(msg: str) -> RecordError:
        return RecordError(source, int(line) if line not in (None, "") else None,
                           f"board {board or '?'}: {msg}")  # fmt: skip

    if not board:
        return error("no board number")
    vul = _vulnerable(row)
    phantom = phantom_side(row)
    year = int(row.get("year") or 0) or board_year(_s(row, "date"), _s(row, "event"))
    adjusted = None
    ns_score: int | None = None
    contract = normalise_contract(_s(row, "contract"))
    declarer = _s(row, "declarer").upper()[:1]
    tricks = _tricks(row)
    if _s(row, "adjusted"):
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
            return error("missing contract and no score")
        if contract.startswith("?"):
            return error(f"impossible contract {raw!r}")
        if not declarer:
            return error(f"contract {contract} has no valid declarer")
        return error(f"{contract} by {declarer}: missing result (trick count) and no score")
    if adjusted is not None and ns_score is None and parse_number(row.get("ns_score")) is not None:
        ns_score = int(parse_number(row.get("ns_score")))  # type: ignore[arg-type]  # one side's
    ew_own = parse_number(row.get("ew_score"))
    names, ids = [], []
    for seat in ("north", "east", "south", "west"):
        name, pid = split_name_id(_s(row, f"{seat}name"), _s(row, f"{seat}_id"))
        names.append(name)
        ids.append(pid)
    matched = [_s(row, f"{seat}_player") for seat in ("north", "east", "south", "west")]
    identities = tuple(
        m or (f"id:{i}" if i else n) for m, n, i in zip(matched, names, ids, strict=True)
    )
    return EventResult(
        record_id=rid,
        event=event_label(row),
        board=board,
        session=_s(row, "session") or _s(row, "stage"),
        section=_s(row, "section"),
        played=played_key(row, vul),
        ns_pair=_s(row, "ns_pair"),
        ew_pair=_s(row, "ew_pair"),
        ns_players=" - ".join(n for n in (names[0], names[2]) if n),
        ew_players=" - ".join(n for n in (names[1], names[3]) if n),
        players=identities,  # type: ignore[arg-type]
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
    )


def results_from_rows(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[EventResult], list[RecordError]]:
    """Every row as a result or an error, then duplicate tables left out (with why)."""
    results: list[EventResult] = []
    errors: list[RecordError] = []
    for k, row in enumerate(rows):
        made = result_from_row(row, k)
        (errors if isinstance(made, RecordError) else results).append(made)  # type: ignore[arg-type]
    kept, dups = drop_duplicate_tables(results)
    return kept, errors + dups


def drop_duplicate_tables(
    results: Sequence[EventResult],
) -> tuple[list[EventResult], list[RecordError]]:
    """A pair number (or, without numbers, a player) with two results on one board: the later
    one is left out, and so is a table that seats one player twice; each is reported. Pair numbers decide where the source gives them, because club sources often
    write surnames only, and two pairs may hold a "Wu" each.

    The board is the director's (event, session, section, board) and, in teams events, the match,
    so the same board number of two matches, sessions or sections never clashes.
    """
    seen: dict[tuple, EventResult] = {}
    kept: list[EventResult] = []
    errors: list[RecordError] = []
    for r in results:
        named = [p for p in r.players if p and not PHANTOM_NAME.match(p)]
        twice = sorted({p for p in named if named.count(p) > 1})
        if twice:  # one player in two seats: not a real table, reported and not rated
            errors.append(RecordError("scoring", None,
                                      f"{r.event} session {r.session or '-'} board {r.board}: "
                                      f"table {r.record_id} seats {', '.join(twice)} twice"))  # fmt: skip
            continue
        key = (r.event, r.session, r.section, r.board, frozenset((r.home_team, r.visit_team)))
        who: list[tuple[str, str]] = []
        if r.ns_pair and r.phantom != "NS" and r.repeat != "NS":  # a repeat is not its pair's
            who.append(("NS pair", r.ns_pair))
        if r.ew_pair and r.phantom != "EW" and r.repeat != "EW":
            who.append(("EW pair", r.ew_pair))
        if not who:  # without pair numbers, the players (surname-only names may repeat across
            who = [("player", p) for p in r.players if p and not PHANTOM_NAME.match(p)]  # pairs)
        clash = next((seen[(key, w)] for w in who if (key, w) in seen), None)
        if clash is not None:
            errors.append(RecordError("scoring", None,
                                      f"{r.event} session {r.session or '-'} board {r.board}: "
                                      f"duplicate table {r.record_id}, a player or pair already "
                                      f"has a result here ({clash.record_id})"))  # fmt: skip
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

"""Board cleaning: seed §2.1 and the reference behaviour §2, rule by rule, in the paper's order.

`clean_record` turns one raw record into either a clean board or an exclusion. A clean board can
still carry an auction issue or a play issue: its auction or play is then unusable (NULL) while
the rest of the board is analysed. The first fatal error decides the exclusion reason, so the
order of the rules below is the precedence between reasons, as in the paper (Tables 5-7).

Deviations from the paper's code, each a bug fix (docs/methodology.md lists them):
* an empty or unknown vulnerability is NULL (unknown), not silently "neither side";
* the junk-token removal in a play examines every token (the paper skipped the token after each
  removed one);
* a missing or unusable auction no longer turns the declarer into "P" (which dropped most of the
  paper's 7,757 "declarer contradiction" boards); the recorded declarer is used instead;
* the play is analysed with the lead derived from the declarer when the record leaves it empty
  (the paper only filled it in after the check, so such boards never had their play analysed);
* a deal must have four hands (the paper accepted three and an empty fourth); a PBN/LIN deal
  with exactly one hand left out is completed from the other three, as the formats allow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ddrank.cleaning.auction import check_auction, restore_leading_passes
from ddrank.cleaning.play import PlayOutcome, clean_play_tokens, validate_play
from ddrank.events import event_id_of, iso_date
from ddrank.raw import RawRecord
from ddrank.types import (
    SEAT_LETTERS,
    Card,
    DomainError,
    Reject,
    auction_contract,
    auction_declarer,
    board_year,
    clean_call_token,
    clean_calls,
    deal_id_of,
    normalise_contract,
    parse_deal,
    vulnerability,
)


@dataclass(slots=True)
class CleanBoard:
    """One clean table result, column for column the `boards` table."""

    record_id: str
    deal_id: str | None  # None: no deal (a scoring-only result)
    event: str
    year: int
    board_no: str
    room: str
    home_team: str
    visit_team: str
    northname: str
    eastname: str
    southname: str
    westname: str
    ns_vulnerable: bool | None
    ew_vulnerable: bool | None
    dealer: str | None
    deal: str | None
    bidstart: str | None
    auction: str | None
    contract: str | None
    declarer: str | None
    opening_leader: str | None
    play: list[str] | None
    play_seats: list[int] | None
    claim_tricks: int | None
    result: int | None
    repairs: str | None = None
    # --- event model: where the result was played, and what the source published for it
    event_id: str | None = None
    date: str | None = None  # ISO, or its known prefix ("2012-08")
    scoring: str | None = None
    organiser: str | None = None
    session: str | None = None
    section: str | None = None
    round: str | None = None
    table_no: str | None = None
    ns_pair: str | None = None
    ew_pair: str | None = None
    north_id: str | None = None
    east_id: str | None = None
    south_id: str | None = None
    west_id: str | None = None
    ns_score: int | None = None  # North-South's score as published
    adjusted: str | None = None  # "NS%/EW%" for an adjusted score (no contract played)
    phantom: str | None = None  # "NS"/"EW": that side was a phantom or a sit-out
    published_ns_mp: float | None = None
    published_ew_mp: float | None = None
    published_ns_pct: float | None = None
    published_ew_pct: float | None = None
    published_imps: float | None = None  # North-South's IMPs as published
    par_score: int | None = None  # published par, North-South's sign
    par_contract: str | None = None
    lead_card: str | None = None  # 'SJ': the lead a source gives without the play
    ew_score: int | None = None  # East-West's own score where a director split the result
    repeat: str | None = None  # "NS"/"EW": that pair's second play of the board (ACBLscore)
    published_datum: float | None = None  # the Butler datum the scorer published
    player_numbers: str | None = None  # an individual event's players, 'N|E|S|W' numbers


# Event-model text fields copied from the raw record as they are ("" becomes NULL).
EVENT_TEXT_FIELDS = (
    "organiser", "session", "section", "round", "table_no", "ns_pair", "ew_pair",
    "north_id", "east_id", "south_id", "west_id", "adjusted", "phantom", "par_contract",
    "player_numbers",
    "repeat",
)  # fmt: skip
EVENT_NUMBER_FIELDS = (
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_ew_pct",
    "published_imps", "published_datum",
)  # fmt: skip


@dataclass(slots=True)
class CleanResult:
    record_id: str
    board: CleanBoard | None = None
    exclusion: tuple[str, str] | None = None
    auction_issue: tuple[str, str] | None = None
    play_issue: tuple[str, str] | None = None


_BLANK = ("", "-", "?", "#")


def _seat(text: str) -> int | None:
    t = text.strip().upper()
    return SEAT_LETTERS.index(t) if len(t) == 1 and t in SEAT_LETTERS else None


def has_table_result(rec: RawRecord) -> bool:
    """The record says how the table scored: a contract, a score or an adjusted score."""
    return bool(
        rec.contract.strip() not in _BLANK
        or rec.ns_score.strip()
        or rec.adjusted.strip()
        or any(getattr(rec, name).strip() for name in EVENT_NUMBER_FIELDS)
    )


def is_hand_record(rec: RawRecord) -> bool:
    """A game with a valid deal and no table result at all: a hand record, not a result.

    A deal that does not parse stays a record, so cleaning reports it with its reason and line.
    """
    if not (
        rec.deal.strip()
        and not rec.parse_error
        and not has_table_result(rec)
        and rec.result.strip() in ("", "?")
        and rec.declarer.strip() in ("", "?")
        and rec.lead.strip() in ("", "?")
        and not rec.auction.strip()
        and not rec.play.strip()
        and not any(n.strip() for n in (rec.northname, rec.eastname, rec.southname, rec.westname))
    ):
        return False
    try:
        parse_deal(rec.deal)
    except Reject:
        return False
    return True


def records_leading_passes(auctions: Iterable[str]) -> bool:
    """Whether a source writes the passes before the opening bid: some auction starts with one.

    The leading-pass repair is only sound for a source that never does (it drops them all).
    """
    for auction in auctions:
        first = auction.split(maxsplit=1)[:1]
        if first and clean_call_token(first[0])[:1] == ["P"]:
            return True
    return False


@lru_cache(maxsize=4096)
def _parsed_deal(text: str) -> tuple[tuple[frozenset[str], ...], str] | Reject:
    try:
        hands, deal = parse_deal(text)
    except Reject as r:
        return r
    return tuple(frozenset(h) for h in hands), deal


def parse_deal_once(text: str) -> tuple[list[set[str]], str]:
    """`parse_deal`, once per deal text: a deal's tables sit together in a file (a deal is
    played at many tables), so a small cache parses each deal about once, not once a record.
    Each call gets its own sets; a rejected deal raises its `Reject` again."""
    parsed = _parsed_deal(text)
    if isinstance(parsed, Reject):
        raise Reject(parsed.reason, parsed.detail)
    return [set(h) for h in parsed[0]], parsed[1]


def clean_record(
    rec: RawRecord, record_id: str | None = None, restore_passes: bool = True
) -> CleanResult:
    """Apply every rule to one raw record. Never raises for bad data.

    `restore_passes=False` when the record's source file writes leading passes (see
    `records_leading_passes`): a declarer that disagrees with the auction is then a typo, not a
    shifted auction, and the record is excluded rather than repaired.
    """
    rid = record_id or rec.record_id
    result = CleanResult(rid)
    try:
        result.board = _clean(rec, rid, result, restore_passes)
    except Reject as r:
        result.exclusion = (r.reason, r.detail)
        result.auction_issue = result.play_issue = None
    return result


def _clean(rec: RawRecord, rid: str, out: CleanResult, restore_passes: bool) -> CleanBoard:
    if rec.parse_error:
        raise Reject("unreadable", f"{rec.source_file}:{rec.source_line}: {rec.parse_error}")
    names = [
        rec.northname.strip(),
        rec.eastname.strip(),
        rec.southname.strip(),
        rec.westname.strip(),
    ]
    # A phantom or sit-out is not a player: its side's names are not taken for players.
    phantom = rec.phantom.strip().upper()
    for seat in (0, 2) if phantom == "NS" else (1, 3) if phantom == "EW" else ():
        names[seat] = ""
    hands: list[set[str]] | None
    deal: str | None
    if not rec.deal.strip() and has_table_result(rec):
        hands, deal = None, None  # a scoring-only result: scored, never DD-analysed
    else:
        hands, deal = parse_deal_once(rec.deal)

    dealer = _seat(rec.dealer)
    bidstart = _seat(rec.bidstart)
    if bidstart is None:
        bidstart = dealer

    calls: list[str] | None = None
    if not rec.auction.strip():
        out.auction_issue = ("missing_auction", "")
    elif bidstart is None:
        out.auction_issue = ("no_bidstart", "")
    else:
        cleaned = clean_calls(rec.auction)
        try:
            if not cleaned:
                raise Reject("pass_rule", "no recognisable call")
            check_auction(cleaned)
            calls = cleaned
        except Reject as r:
            out.auction_issue = (r.reason, r.detail)

    recorded = normalise_contract(rec.contract)
    contract = auction_contract(calls) if calls is not None else ""
    if contract and recorded and recorded != contract:
        raise Reject("contract_contradiction", f"record {rec.contract!r}, auction {contract!r}")
    if not contract:
        contract = "" if recorded.startswith("?") else recorded

    recorded_declarer = _seat(rec.declarer)
    repairs: list[str] = []
    if calls is not None:
        derived = auction_declarer(calls, bidstart)  # type: ignore[arg-type]
        raw_lead = _seat(rec.lead)
        lead_agrees = raw_lead is None or (
            recorded_declarer is not None and raw_lead == (recorded_declarer + 1) % 4
        )
        if (
            derived is not None
            and recorded_declarer is not None
            and derived != recorded_declarer
            and lead_agrees
        ):
            k = 0
            if restore_passes:
                calls, k = restore_leading_passes(calls, bidstart, recorded_declarer)  # type: ignore[arg-type]
            if k:
                derived = recorded_declarer
                repairs.append(
                    f"auction: {k} leading pass(es) restored (no auction of this file starts "
                    "with a pass, and the shift matches the recorded declarer)"
                )
        if derived is None:  # passed out: the record must not name a declarer
            if recorded_declarer is not None:
                raise Reject("declarer_contradiction", f"record {rec.declarer!r}, passed out")
        elif recorded_declarer is not None and recorded_declarer != derived:
            raise Reject(
                "declarer_contradiction",
                f"record {rec.declarer!r}, auction {SEAT_LETTERS[derived]!r}",
            )
        declarer = derived
    else:
        declarer = recorded_declarer if contract not in ("", "P") else None

    lead_expected = (declarer + 1) % 4 if declarer is not None else None
    recorded_lead = _seat(rec.lead)
    lead_given = rec.lead.strip() not in _BLANK
    if lead_given and contract == "P":
        raise Reject("lead_contradiction", f"lead {rec.lead!r} on a passed-out board")
    if lead_given and recorded_lead is None:
        raise Reject("lead_contradiction", f"lead {rec.lead!r} is not a seat")
    if recorded_lead is not None and lead_expected is not None and recorded_lead != lead_expected:
        raise Reject(
            "lead_contradiction",
            f"record {rec.lead!r}, left of declarer {SEAT_LETTERS[declarer]!r}",  # type: ignore[index]
        )
    lead = lead_expected if lead_expected is not None else recorded_lead

    play_cards: list[str] | None = None
    play_seats: list[int] | None = None
    claim: int | None = None
    played_tricks: int | None = None  # declarer's tricks when all 52 cards were played
    if contract == "P":
        if rec.play.strip():
            raise Reject("pass_play_contradiction", f"play {rec.play[:40]!r}")
    elif not rec.play.strip() or lead is None or not contract or declarer is None or hands is None:
        missing = [n for n, v in (("play", rec.play.strip()), ("lead", lead is not None),
                                  ("contract", contract), ("declarer", declarer is not None),
                                  ("deal", hands is not None)) if not v]  # fmt: skip
        out.play_issue = ("missing_play_info", "missing " + ", ".join(missing))
    else:
        column = rec.play_format != "sequence"
        tokens = clean_play_tokens(rec.play)
        try:
            if not column and tokens and tokens[0] != "-":
                first_holder = next(s for s in range(4) if tokens[0] in hands[s])
                if first_holder != lead:
                    raise Reject("play_error", f"opening lead {tokens[0]} not from the leader")
            try:
                outcome = validate_play(tokens, lead, hands, contract[1], declarer, column)
            except Reject as first_error:
                if not column or first_error.reason not in ("play_error", "renege"):
                    raise
                try:  # an exporter that let any trump overtake shifts the columns
                    outcome = validate_play(
                        tokens, lead, hands, contract[1], declarer, column, overtake_bug=True
                    )
                except Reject:
                    raise first_error from None
                repairs.append("play: columns realigned (exporter let every trump overtake)")
        except Reject as r:
            out.play_issue = (r.reason, r.detail)
        except StopIteration:  # pragma: no cover - parse_deal guarantees every card has a holder
            out.play_issue = ("play_error", "card in no hand")
        else:
            play_cards, play_seats = outcome.cards, outcome.seats
            if len(outcome.cards) != 52:
                claim = _claim(rec.result, outcome)
            elif outcome.completed_tricks == 13:
                played_tricks = outcome.declarer_tricks

    result = _int_or_none(rec.result)
    if result is None and played_tricks is not None and rec.result.strip() in ("", "?"):
        # A BBO hand record of a play finished without a claim gives no result: the 13 tricks,
        # replayed and validated above, say how many declarer took.
        result = played_tricks
        repairs.append(f"result: {result} tricks, from the complete play (the record gives none)")
    ns_vul, ew_vul = vulnerability(rec.vulnerable)
    letter = SEAT_LETTERS.__getitem__
    board = CleanBoard(
        record_id=rid,
        deal_id=deal_id_of(deal) if deal is not None else None,  # type: ignore[arg-type]
        event=rec.event,
        year=_board_year(rec.date, rec.event),
        board_no=rec.board_no,
        room=rec.room,
        home_team=rec.home_team,
        visit_team=rec.visit_team,
        northname=names[0],
        eastname=names[1],
        southname=names[2],
        westname=names[3],
        ns_vulnerable=ns_vul,
        ew_vulnerable=ew_vul,
        dealer=letter(dealer) if dealer is not None else None,
        deal=deal,
        bidstart=letter(bidstart) if bidstart is not None and calls is not None else None,
        auction=" ".join(calls) if calls is not None else None,
        contract=contract or None,
        declarer=letter(declarer) if declarer is not None else None,
        opening_leader=letter(lead) if lead is not None and contract != "P" else None,
        play=play_cards,
        play_seats=play_seats,
        claim_tricks=claim,
        result=result if result is not None and 0 <= result <= 13 else None,
        repairs="; ".join(repairs) or None,
        event_id=_event_id(rec.event, rec.date, rec.organiser),
        date=_iso_date(rec.date) or None,
        scoring=rec.scoring.strip() or None,
        ns_score=_int_or_none(rec.ns_score),
        par_score=_int_or_none(rec.par_score),
        ew_score=_int_or_none(rec.ew_score),
    )
    for name in EVENT_TEXT_FIELDS:
        setattr(board, name, getattr(rec, name).strip() or None)
    board.phantom = phantom or None
    for name in EVENT_NUMBER_FIELDS:
        setattr(board, name, _float_or_none(getattr(rec, name)))
    board.lead_card = _card_or_none(rec.lead_card) if contract and contract != "P" else None
    return board


# An event's records share its name, date and organiser: each is read once per event, not per
# record (clean runs these for every table result of the archive).
_event_id = lru_cache(maxsize=1024)(event_id_of)
_iso_date = lru_cache(maxsize=1024)(iso_date)
_board_year = lru_cache(maxsize=1024)(board_year)


def _card_or_none(text: str) -> str | None:
    """A lead card as the store keeps it ('SJ', 'HT'); None when absent or not a card."""
    try:
        return str(Card.parse(text)) if text and text.strip() else None
    except (DomainError, IndexError):
        return None


def _float_or_none(text: str) -> float | None:
    """A published number ("4.5", "56.25%", "-3"); None when absent or not a number."""
    if text == "":  # most records publish none of them: no exception raised for each
        return None
    try:
        return float(str(text).strip().rstrip("%").replace(",", "."))
    except ValueError:
        return None


def _int_or_none(text: str) -> int | None:
    if text == "":
        return None
    try:
        return int(str(text).strip())
    except ValueError:
        return None


def _claim(result_text: str, outcome: PlayOutcome) -> int | None:
    """Declarer's claimed total (reference §2.9); None when the result is unusable."""
    result = _int_or_none(result_text)
    if result is None or not 0 <= result <= 13:
        return None
    if result < outcome.declarer_tricks or (
        result - outcome.declarer_tricks > 13 - outcome.completed_tricks
    ):
        raise Reject(
            "claim_error",
            f"result {result} with {outcome.declarer_tricks} of "
            f"{outcome.completed_tricks} tricks already won",
        )
    return result

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

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ddrank.events import event_id_of, iso_date
from ddrank.raw import RawRecord
from ddrank.types import (
    RANKS,
    SEAT_LETTERS,
    deal_id_of,
)

# ---------------------------------------------------------------- exclusion and issue reasons
# Table 5: why a whole board is dropped (in precedence order).
EXCLUSION_REASONS: dict[str, str] = {
    "unreadable": "The source text could not be read as a record.",
    "missing_deal": "Missing deal, and no table result to score either.",
    "malformed_deal": "deal is not a PBN deal (no seat prefix, not four hands of four suits).",
    "unbalanced_deal": "deal had a hand that did not have 13 cards.",
    "card_error": "A player had an invalid card in the deal, or a card appeared twice.",
    "contract_contradiction": "contract differs from the contract deducible from the auction.",
    "declarer_contradiction": "declarer differs from the declarer deducible from the auction.",
    "lead_contradiction": "lead differs from the lead deducible from the declarer.",
    "pass_play_contradiction": 'contract is "P" and play is non-empty.',
    "claim_error": "The declarer claimed fewer tricks than they had already won, "
    "or more tricks than there were remaining.",
    "solver_crash": "The double-dummy solver crashed on this board.",
}
# Table 6: why a kept board's auction is unusable.
AUCTION_ISSUES: dict[str, str] = {
    "missing_auction": "Missing auction.",
    "no_bidstart": "Neither dealer nor the first bidder is known.",
    "pass_rule": "The contract was passed out in the middle of the auction, "
    "or the auction did not end with three passes.",
    "contract_bid_order": "A contract bid was made in a non-increasing fashion.",
    "illegal_double": "A double was made where the contract was already doubled or redoubled, "
    "by the side who bid the last contract, or before any contract bid.",
    "illegal_redouble": "A redouble was made where the contract was not doubled or already "
    "redoubled, by the side who did not bid the last contract, or before any contract bid.",
}
# The paper excluded these; a result without them is still a result for scoring, so they are
# kept and only noted: the audit says which analysis stage can use which result.
AUDIT_NOTES: dict[str, str] = {
    "missing_names": "All names are missing (the paper excluded these): usable for scoring and "
    "DD tables, not for player statistics or the regression.",
    "missing_deal": "No deal (a scoring-only result): usable for scoring, not for DD analysis.",
    "adjusted": "Adjusted score (no contract played): usable for scoring only.",
    "phantom": "A phantom or sit-out pair sat at this table: its side is not players.",
}
# Table 7: why a kept board's play is unusable.
PLAY_ISSUES: dict[str, str] = {
    "missing_play_info": "Missing play, lead, or contract.",
    "multiple_claim": "Dashes appeared in more than one trick.",
    "play_error": "A card is played twice or the player never had it.",
    "renege": "A player reneged.",
    "card_after_dash": "A card is played to a trick after a dash.",
    "first_card_dash": "First card played to a trick is a dash.",
    "unbalanced_play": "The number of legal plays, augmented with dashes if necessary, "
    "is not divisible by 4.",
    "play_order": "The cards are not a legal sequence of tricks (LIN order).",
}


class Reject(Exception):
    """A rule failed; `reason` is a key of one of the reason tables above."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


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


# Event-model text fields copied from the raw record as they are ("" becomes NULL).
EVENT_TEXT_FIELDS = (
    "organiser", "session", "section", "round", "table_no", "ns_pair", "ew_pair",
    "north_id", "east_id", "south_id", "west_id", "adjusted", "phantom", "par_contract",
)  # fmt: skip
EVENT_NUMBER_FIELDS = (
    "published_ns_mp", "published_ew_mp", "published_ns_pct", "published_ew_pct",
    "published_imps",
)  # fmt: skip


@dataclass(slots=True)
class CleanResult:
    record_id: str
    board: CleanBoard | None = None
    exclusion: tuple[str, str] | None = None
    auction_issue: tuple[str, str] | None = None
    play_issue: tuple[str, str] | None = None


# ---------------------------------------------------------------- deal
def parse_deal(text: str) -> tuple[list[set[str]], str]:
    """Validate a PBN deal. Returns each seat's cards ('SA', ...) and the canonical 'N:...'."""
    t = text.strip()
    if not t:
        raise Reject("missing_deal")
    if len(t) < 2 or t[0].upper() not in SEAT_LETTERS or t[1] != ":":
        raise Reject("malformed_deal", f"{t[:70]!r} does not start with a seat and ':'")
    first = SEAT_LETTERS.index(t[0].upper())
    parts = t[2:].split()
    if len(parts) == 3 or (len(parts) == 4 and parts.count("-") == 1):
        parts = _complete_fourth_hand(parts)
    if len(parts) != 4:
        raise Reject("malformed_deal", f"{len(parts)} hands in {t[:70]!r}")
    hands: list[set[str]] = [set(), set(), set(), set()]
    pbn_hands = ["", "", "", ""]
    seen: set[str] = set()
    for k, part in enumerate(parts):
        seat = (first + k) % 4
        suits = part.upper().split(".")
        if len(suits) != 4:
            raise Reject("malformed_deal", f"hand {part!r} does not have 4 suits")
        if sum(len(x) for x in suits) != 13:
            raise Reject("unbalanced_deal", f"{SEAT_LETTERS[seat]} holds {part!r}")
        for suit, holding in zip("SHDC", suits, strict=True):
            for ch in holding:
                if ch not in _RANK_SET:
                    raise Reject("card_error", f"{ch!r} is not a rank ({SEAT_LETTERS[seat]})")
                code = suit + ch
                if code in seen:
                    raise Reject("card_error", f"{code} appears twice")
                seen.add(code)
                hands[seat].add(code)
        pbn_hands[seat] = ".".join("".join(sorted(x, key=_RANK_DESC.__getitem__)) for x in suits)
    return hands, "N:" + " ".join(pbn_hands)


_RANK_SET = frozenset(RANKS)
_RANK_DESC = {r: -i for i, r in enumerate(RANKS)}
_RANK_VALUE = {r: i for i, r in enumerate(RANKS)}


def _complete_fourth_hand(parts: list[str]) -> list[str]:
    known = [p for p in parts if p != "-"]
    held: list[set[str]] = [set(), set(), set(), set()]
    for p in known:
        for k, s in enumerate(p.split(".")[:4]):
            held[k].update(s.upper())
    rest = ".".join("".join(r for r in reversed(RANKS) if r not in held[k]) for k in range(4))
    if "-" in parts:
        return [rest if p == "-" else p for p in parts]
    return parts + [rest]


# ---------------------------------------------------------------- auction
_BIDS = {f"{lv}{s}" for lv in range(1, 8) for s in "CDHSN"}
_BID_ORDER = {b: (int(b[0]) - 1) * 5 + "CDHSN".index(b[1]) for b in _BIDS}
_TOKEN_MAP = {"PASS": ["P"], "PAS": ["P"], "AP": ["P", "P", "P"], "DBL": ["X"],
              "REDBL": ["R"], "XX": ["R"], "XXX": ["X", "R"], "S3": ["3S"]}  # fmt: skip
_SCAN = re.compile(r"XX|PASS|R|X|[1-7][CDHSN]")


def clean_call_token(token: str) -> list[str]:
    """One raw auction token as clean calls (reference §2.4 token cleaning; bid_map.txt)."""
    t = token.upper().rstrip("!").lstrip("=0")
    if t in ("P", "X", "R") or t in _BIDS:
        return [t]
    if t in _TOKEN_MAP:
        return list(_TOKEN_MAP[t])
    return ["R" if m == "XX" else "P" if m == "PASS" else m for m in _SCAN.findall(t)]


def clean_calls(auction: str) -> list[str]:
    return [c for token in auction.split() for c in clean_call_token(token)]


def check_auction(calls: list[str]) -> None:
    """The laws of the auction as the paper states them (reference §2.4b-d)."""
    n = len(calls)
    if n < 4 or calls[-3:] != ["P", "P", "P"]:
        raise Reject("pass_rule", "the auction does not end with three passes")
    for i in range(1, n - 3):
        if calls[i] == calls[i + 1] == calls[i + 2] == "P":
            raise Reject("pass_rule", f"three passes at call {i + 1} before the end")
    last_bid = -1
    for c in calls:
        if c in _BID_ORDER:
            if _BID_ORDER[c] <= last_bid:
                raise Reject("contract_bid_order", f"{c} after a higher or equal bid")
            last_bid = _BID_ORDER[c]
    bid_seen = False
    pos = 0
    doubled = redoubled = False
    for c in calls:
        if c in _BID_ORDER:
            bid_seen, pos, doubled, redoubled = True, 0, False, False
            continue
        if c == "X" and (not bid_seen or doubled or redoubled or pos % 2 == 1):
            raise Reject("illegal_double", f"double at position {pos} after the last bid")
        if c == "R" and (not bid_seen or not doubled or redoubled or pos % 2 == 0):
            raise Reject("illegal_redouble", f"redouble at position {pos} after the last bid")
        doubled = doubled or c == "X"
        redoubled = redoubled or c == "R"
        pos += 1


def auction_contract(calls: list[str]) -> str:
    """'P' when no bid was made, else the last bid with 'X'/'R' (reference dc:295-317)."""
    last = None
    mark = ""
    for c in calls:
        if c in _BID_ORDER:
            last, mark = c, ""
        elif c == "X" and last:
            mark = "X"
        elif c == "R" and last:
            mark = "R"
    return "P" if last is None else last + mark


def auction_declarer(calls: list[str], bidstart: int) -> int | None:
    """First player of the side that made the last bid to name its strain; None if no bid."""
    last_at = max((k for k, c in enumerate(calls) if c in _BID_ORDER), default=None)
    if last_at is None:
        return None
    strain, side = calls[last_at][1], (bidstart + last_at) % 2
    for k, c in enumerate(calls):
        if c in _BID_ORDER and c[1] == strain and (bidstart + k) % 2 == side:
            return (bidstart + k) % 4
    return None  # unreachable


def restore_leading_passes(calls: list[str], bidstart: int, declarer: int) -> tuple[list[str], int]:
    """Some exports drop the passes before the opening bid, so the calls sit one to three seats
    off. When the recorded declarer agrees with exactly one such shift, restore the passes."""
    if not calls or calls[0] not in _BID_ORDER:
        return calls, 0
    fits = [k for k in (1, 2, 3) if auction_declarer(calls, (bidstart + k) % 4) == declarer]
    if len(fits) != 1:
        return calls, 0
    return ["P"] * fits[0] + calls, fits[0]


def normalise_contract(text: str) -> str:
    """Record contract as 'P' or LSD (S in CDHSN, D in '', X, R); '' when absent or unreadable."""
    t = text.strip().upper().replace(" ", "")
    if not t:
        return ""
    if t in ("PASS", "P", "AP", "PASSED", "PASSEDOUT", "ALLPASS"):
        return "P"
    if t.endswith("XX"):
        t = t[:-2] + "R"
    t = t.replace("NT", "N")
    if len(t) >= 2 and t[0] in "1234567" and t[1] in "CDHSN" and t[2:] in ("", "X", "R"):
        return t
    return "?" + text.strip()  # unreadable: it can only contradict a known auction


# ---------------------------------------------------------------- play
_PLAY_CARDS = {s + r for s in "SHDC" for r in RANKS}


def clean_play_tokens(play: str) -> list[str]:
    """Split the play and drop junk tokens (every one of them; the paper skipped some)."""
    text = play.replace("HTHQ", "HT HQ")
    while "--" in text:
        text = text.replace("--", "-")
    return [t for t in text.split() if t == "-" or t in _PLAY_CARDS]


@dataclass(slots=True)
class PlayOutcome:
    cards: list[str]
    seats: list[int]
    completed_tricks: int
    declarer_tricks: int


def _finish_trick(
    trick: list[tuple[int, str]], suits_left: list[dict[str, int]], trump: str, declarer_side: int
) -> tuple[int, bool]:
    """Check one trick in true order; return (next leader, declarer won) or raise."""
    played = [(seat, code) for seat, code in trick if code != "-"]
    if trick[0][1] == "-" and played:
        raise Reject("first_card_dash", f"trick led by {SEAT_LETTERS[trick[0][0]]} starts with '-'")
    dash_seen = False
    for _seat, code in trick:
        if code == "-":
            dash_seen = True
        elif dash_seen:
            raise Reject("card_after_dash", f"{code} follows a dash")
    if not played:
        raise Reject("first_card_dash", "a trick of dashes only")
    led = played[0][1][0]
    for seat, code in played[1:]:
        if code[0] != led and suits_left[seat][led]:
            raise Reject("renege", f"{SEAT_LETTERS[seat]} played {code} holding {led}")
    if dash_seen:
        return -1, False
    best = 0
    for i in range(1, 4):
        c, b = trick[i][1], trick[best][1]
        if c[0] == b[0]:
            if _RANK_VALUE[c[1]] > _RANK_VALUE[b[1]]:
                best = i
        elif c[0] == trump:
            best = i
    winner = trick[best][0]
    return winner, winner % 2 == declarer_side


def _buggy_winner_index(codes: list[str], trump: str) -> int:
    best = 0
    for i in range(1, 4):
        c, b = codes[i], codes[best]
        if c[0] == trump or (c[0] == b[0] and _RANK_VALUE[c[1]] > _RANK_VALUE[b[1]]):
            best = i
    return best


def validate_play(
    tokens: list[str], lead: int, hands_by_seat: list[set[str]], trump: str, declarer: int,
    column_format: bool = True, overtake_bug: bool = False,
) -> PlayOutcome:  # fmt: skip
    """Replay the cards (reference §2.8), returning them in true order with their seats.

    `overtake_bug` reads columns written by an exporter whose trick-winner rule let every trump
    overtake (even a higher one): it placed the next trick's cards from its own wrong leader.
    """
    hands = [set(h) for h in hands_by_seat]
    suits_left = [{s: 0 for s in "SHDC"} for _ in range(4)]  # cards still held, per suit
    for seat, hand in enumerate(hands):
        for code in hand:
            suits_left[seat][code[0]] += 1
    out_cards: list[str] = []
    out_seats: list[int] = []
    completed = won = 0
    leader = lead
    export_leader = lead  # who the exporter believed led (differs only with overtake_bug)
    if column_format:
        if len(tokens) % 4:
            raise Reject("unbalanced_play", f"{len(tokens)} cards and dashes")
        groups = [tokens[k : k + 4] for k in range(0, len(tokens), 4)]
    else:
        if "-" in tokens:
            raise Reject("play_order", "a dash in a play listed in playing order")
        groups = [tokens[k : k + 4] for k in range(0, len(tokens), 4)]
    dash_before = False
    for g, group in enumerate(groups):
        if dash_before:
            raise Reject("multiple_claim", f"trick {g + 1} follows a trick with a dash")
        if column_format:
            # token k of a group belongs to seat (lead + k), whoever led the trick
            trick = [((leader + i) % 4, group[(export_leader - lead + i) % 4]) for i in range(4)]
        else:
            trick = [((leader + i) % 4, group[i]) for i in range(len(group))]
            trick += [((leader + i) % 4, "-") for i in range(len(group), 4)]
        for seat, code in trick:
            if code == "-":
                continue
            if code not in hands[seat]:
                raise Reject("play_error", f"{SEAT_LETTERS[seat]} plays {code}, not in hand")
            hands[seat].discard(code)
            suits_left[seat][code[0]] -= 1
        for seat, code in trick:
            if code != "-":
                out_cards.append(code)
                out_seats.append(seat)
        winner, declarer_won = _finish_trick(trick, suits_left, trump, declarer % 2)
        if winner < 0:
            dash_before = True
            continue
        if overtake_bug:
            export_leader = (export_leader + _buggy_winner_index([c for _, c in trick], trump)) % 4
        else:
            export_leader = winner
        leader = winner
        completed += 1
        won += declarer_won
    return PlayOutcome(out_cards, out_seats, completed, won)


# ---------------------------------------------------------------- year and vulnerability
_DATE_YEAR = re.compile(r"^(\d{4})")
_ANY_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def board_year(date: str, event: str, lo: int = 1900, hi: int = 2100) -> int:
    """The year from the date, else from the event name; 0 when none is plausible."""
    m = _DATE_YEAR.match(date.strip())
    if m and lo <= int(m.group(1)) <= hi:
        return int(m.group(1))
    for y in _ANY_YEAR.findall(event):
        if lo <= int(y) <= hi:
            return int(y)
    return 0


_VUL = {
    "NONE": (False, False), "LOVE": (False, False), "-": (False, False), "O": (False, False),
    "0": (False, False), "NEITHER": (False, False),
    "ALL": (True, True), "ALL]": (True, True), "BOTH": (True, True), "B": (True, True),
    "NS": (True, False), "N-S": (True, False), "NZ": (True, False), "N": (True, False),
    "EW": (False, True), "E-W": (False, True), "E": (False, True),
}  # fmt: skip


def vulnerability(text: str) -> tuple[bool | None, bool | None]:
    """(ns, ew) vulnerable; (None, None) when the record does not say."""
    return _VUL.get(text.strip().upper(), (None, None))


# ---------------------------------------------------------------- the board
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


def records_leading_passes(auctions: Iterable[str]) -> bool:
    """Whether a source writes the passes before the opening bid: some auction starts with one.

    The leading-pass repair is only sound for a source that never does (it drops them all).
    """
    for auction in auctions:
        first = auction.split(maxsplit=1)[:1]
        if first and clean_call_token(first[0])[:1] == ["P"]:
            return True
    return False


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
        hands, deal = parse_deal(rec.deal)

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
        year=board_year(rec.date, rec.event),
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
        event_id=event_id_of(rec.event, rec.date, rec.organiser),
        date=iso_date(rec.date) or None,
        scoring=rec.scoring.strip() or None,
        ns_score=_int_or_none(rec.ns_score),
        par_score=_int_or_none(rec.par_score),
    )
    for name in EVENT_TEXT_FIELDS:
        setattr(board, name, getattr(rec, name).strip() or None)
    board.phantom = phantom or None
    for name in EVENT_NUMBER_FIELDS:
        setattr(board, name, _float_or_none(getattr(rec, name)))
    return board


def _float_or_none(text: str) -> float | None:
    """A published number ("4.5", "56.25%", "-3"); None when absent or not a number."""
    try:
        return float(str(text).strip().rstrip("%").replace(",", "."))
    except ValueError:
        return None


def _int_or_none(text: str) -> int | None:
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

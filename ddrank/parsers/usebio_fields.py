"""The field rules of the USEBIO reader: dates, scoring, movement, seats, a traveller line's LIN,
and the encoding a scorer really wrote."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ddrank.parsers.handrecord import HandDeal, board_dealer_vulnerability
from ddrank.parsers.lin import parse_lin_file
from ddrank.raw import RawRecord
from ddrank.types import (
    SEAT_LETTERS,
    auction_contract,
    auction_declarer,
    clean_calls,
    normalise_contract,
)

if TYPE_CHECKING:
    from ddrank.parsers.usebio import _Node, _Player

_PHANTOM = re.compile(r"phantom|sit[\s-]*out|absent|bye", re.IGNORECASE)
_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")
_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})")
_ZZ = re.compile(r"(?:^|\|)zz\|([^|]*)\|")
_SEATS_PBN = "NESW"


def _hand_deal(board: _Node) -> HandDeal | None:
    """The deal in a BOARD's four HAND elements (`<HEARTS>-</HEARTS>` is a void), or None."""
    number = board.value("BOARD_NUMBER")
    hands = {}
    for hand in board.every("HAND"):
        seat = hand.value("DIRECTION")[:1].upper()
        suits = (hand.value(s) for s in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"))
        hands[seat] = ".".join(s.replace("-", "").replace("10", "T") for s in suits)
    if not number or set(hands) != set(_SEATS_PBN):
        return None
    dealer, vulnerable = board_dealer_vulnerability(number)
    deal = "N:" + " ".join(hands[s] for s in _SEATS_PBN)
    return HandDeal(number, deal, dealer, vulnerable, line=board.line)


def _dates(text: str) -> tuple[str, str]:
    """USEBIO `DATE` (dd/mm/yyyy) as (PBN 'yyyy.mm.dd', ISO 'yyyy-mm-dd'); ISO input is accepted."""
    m = _DATE.match(text)
    if m:
        d, mo, y = int(m.group(1)), int(m.group(2)), m.group(3)
    else:
        m = _ISO_DATE.match(text)
        if not m:
            return text.strip(), ""
        y, mo, d = m.group(1), int(m.group(2)), int(m.group(3))
    return f"{y}.{mo:02d}.{d:02d}", f"{y}-{mo:02d}-{d:02d}"


def _scoring(event: _Node) -> str:
    """MP | IMP (cross-IMPs) | BUTLER | BAM | TEAMS from the event's type and scoring methods."""
    kind = event.attrs.get("EVENT_TYPE", "").upper()
    board = event.value("BOARD_SCORING_METHOD").upper()
    match = event.value("MATCH_SCORING_METHOD").upper()
    if "PAB" in (board, match) or "BAM" in (board, match):
        return "BAM"
    if "TEAMS" in kind:
        return "TEAMS"
    if "CROSS" in board or "CROSS" in kind:
        return "IMP"
    if "BUTLER" in board or "BUTLER" in kind or board == "IMPS":
        return "BUTLER"
    if board in ("MATCH_POINTS", "MATCHPOINTS") or kind.startswith("MP"):
        return "MP"
    return ""


def _scoring_from_lines(recs: list[RawRecord]) -> str:
    if any(r.published_ns_mp for r in recs):
        return "MP"
    if any(r.published_imps for r in recs):
        return "IMP"
    return ""


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _matchpoint_field(recs: list[RawRecord]) -> tuple[bool, str]:
    """(across_field, mp_top) read off the published match points.

    A board's top is what one result gets for beating every other: 2 per result beaten (EBU)
    makes NS + EW = 2(n-1) on each line, 1 per result beaten (ACBL) n-1. With several sections,
    the n that fits tells whether the sections were scored as one field.
    """
    by_section: dict[tuple[str, str, str], list[float]] = {}
    by_session: dict[tuple[str, str], list[float]] = {}
    for r in recs:
        ns, ew = _number(r.published_ns_mp), _number(r.published_ew_mp)
        total = -1.0 if ns is None or ew is None or r.adjusted else ns + ew
        by_section.setdefault((r.session, r.section, r.board_no), []).append(total)
        by_session.setdefault((r.session, r.board_no), []).append(total)
    sections = {(r.session, r.section) for r in recs}

    def fits(groups: dict, per: float) -> int:
        return sum(1 for totals in groups.values() if max(totals) == per * (len(totals) - 1))

    best = (0, False, "")
    for across, groups in ((False, by_section), (True, by_session)):
        if across and len(sections) < 2:
            continue
        for per, top in ((2.0, "2"), (1.0, "1")):
            n = fits(groups, per)
            if n > best[0]:
                best = (n, across, top)
    return best[1], best[2]


def _movement(winner_type: str, directions: bool, recs: list[RawRecord], scoring: str) -> str:
    """'mitchell' when North-South and East-West are separate fields, 'howell' when pairs change
    direction; '' for teams or when the file does not tell."""
    if scoring in ("TEAMS", "BAM"):
        return ""
    if winner_type.strip() == "2" or (directions and winner_type.strip() != "1"):
        return "mitchell"
    seen: dict[tuple[str, str, str], set[str]] = {}
    for r in recs:
        for side, pair in (("NS", r.ns_pair), ("EW", r.ew_pair)):
            if pair:
                seen.setdefault((r.session, r.section, pair), set()).add(side)
    if any(len(sides) == 2 for sides in seen.values()):
        return "howell"
    return "mitchell" if seen else ""


def _negate(number: str) -> str:
    t = number.strip()
    if t.startswith("-"):
        return t[1:]
    return t if _number(t) == 0 else "-" + t


def _team_label(team: str) -> str:
    return team.strip()


def _seat_fields(
    players: dict[tuple[str, str, str], list[_Player]],
    keys: tuple[tuple[str, str, str], ...],
    ns_pair: str,
    ew_pair: str,
) -> dict[str, str]:
    """Names and ids from the participants, as record fields: first player North/East, second
    South/West; a side of phantoms is `phantom`, without names."""
    fields: dict[str, str] = {}
    for side, pair, seats in (("NS", ns_pair, ("north", "south")),
                              ("EW", ew_pair, ("east", "west"))):  # fmt: skip
        found = next((players[(s, t, pair)] for s, t, _ in keys if (s, t, pair) in players), None)
        if not found:
            continue
        for seat, player in zip(seats, found, strict=False):
            fields[f"{seat}name"] = player.name
            fields[f"{seat}_id"] = player.pid
        if all(_PHANTOM.search(p.name) for p in found):
            fields["phantom"] = side
            for seat in seats:
                fields[f"{seat}name"] = ""
                fields[f"{seat}_id"] = ""
    return fields


def _lin_agrees(rec: RawRecord, table: RawRecord) -> bool:
    """Whether the LIN auction ends in the traveller's contract and declarer (when both say)."""
    calls = clean_calls(table.auction)
    if not calls or table.dealer not in SEAT_LETTERS:
        return True
    recorded = normalise_contract(rec.contract)
    contract = auction_contract(calls)
    if recorded and not recorded.startswith("?") and contract != recorded:
        return False
    declarer = auction_declarer(calls, SEAT_LETTERS.index(table.dealer))
    return not (
        rec.declarer in SEAT_LETTERS
        and declarer is not None
        and SEAT_LETTERS[declarer] != rec.declarer
    )


def _merge_lin(rec: RawRecord, lin: str, source: str) -> bool:
    """Deal, auction, play and seated players from a line's LIN_DATA; True when it named seats.

    The deal and the players always come over. The auction and play only when they end in the
    traveller's contract: a LIN of another table result (RealBridge wrote one, board 12 of the
    2025-04-07 file) must not turn a published result into a contradiction that cleaning drops.
    """
    parsed = parse_lin_file(lin, source).records
    tables = [r for r in parsed if not r.parse_error and r.deal]
    if len(tables) != 1:
        return False
    table = tables[0]
    rec.deal, rec.dealer, rec.bidstart = table.deal, table.dealer, table.bidstart
    rec.vulnerable = table.vulnerable or rec.vulnerable
    if _lin_agrees(rec, table):
        rec.auction, rec.play, rec.play_format = table.auction, table.play, table.play_format
        if not rec.result:
            rec.result = table.result
    seated = all((table.northname, table.eastname, table.southname, table.westname))
    if seated:
        for seat in ("north", "east", "south", "west"):
            setattr(rec, f"{seat}name", getattr(table, f"{seat}name"))
            setattr(rec, f"{seat}_id", getattr(table, f"{seat}_id"))
    zz = _ZZ.search(lin.replace("%7C", "|").replace("%7c", "|"))
    if zz:  # RealBridge's zz| is North-South's percentage on the board ("35.71%25")
        rec.published_ns_pct = zz.group(1).replace("%25", "%").rstrip("%").strip()
    return seated


_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']""")


def _utf8_or_declared(data: bytes) -> bytes:
    """The bytes, or, when they claim UTF-8 (or nothing) but are not, their Windows-1252 reading.

    Scorers that write Latin-1 names under a UTF-8 declaration are common; read that way, one
    accented name would otherwise cut the file short at its line.
    """
    m = _DECLARED.match(data[:200])
    declared = m.group(1).lower() if m else b"utf-8"
    if declared.replace(b"-", b"") != b"utf8":
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
        if m:
            text = text.replace(m.group(1).decode("ascii", "replace"), "UTF-8", 1)
        return text.encode("utf-8")
    return data

"""A deal: four hands holding the 52 cards once; PBN notation ('N:AK75.54.987653.A ...').

`Deal.from_pbn` builds the value object; `parse_deal` is the lenient reading a cleaning rule
needs (a hand left out completed, each fault named by its exclusion reason)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ddrank.types.card import RANKS, Card
from ddrank.types.errors import DomainError, Reject
from ddrank.types.hand import Hand
from ddrank.types.seat import SEAT_LETTERS, Seat


def deal_id_of(canonical_pbn: str) -> str:
    """Content hash of the cards alone ('N:...' form): a deal replayed at many tables shares it."""
    return hashlib.sha1(canonical_pbn.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Deal:
    """Four 13-card hands that together hold the 52 cards exactly once."""

    hands: tuple[Hand, Hand, Hand, Hand]  # indexed by Seat

    def __post_init__(self) -> None:
        if len(self.hands) != 4:
            raise DomainError("a deal needs four hands")
        for seat, hand in zip(Seat, self.hands, strict=True):
            if len(hand) != 13:
                raise DomainError(f"{seat.letter} holds {len(hand)} cards, not 13")
        union = frozenset().union(*(h.cards for h in self.hands))
        if len(union) != 52:
            raise DomainError("the four hands do not hold 52 distinct cards")

    def __getitem__(self, seat: Seat) -> Hand:
        return self.hands[seat]

    def holder(self, card: Card) -> Seat:
        for seat in Seat:
            if card in self.hands[seat].cards:
                return seat
        raise DomainError(f"{card} is in no hand")  # unreachable for a valid deal

    def to_pbn(self, first: Seat = Seat.N) -> str:
        """PBN deal string, e.g. 'N:AK75.54.987653.A Q.AT983...'; the canonical form starts at N."""
        order = [first.offset(k) for k in range(4)]
        return first.letter + ":" + " ".join(self.hands[s].to_pbn() for s in order)

    @property
    def deal_id(self) -> str:
        return deal_id_of(self.to_pbn())

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        t = text.strip()
        if len(t) < 3 or t[1] != ":" or t[0].upper() not in SEAT_LETTERS:
            raise DomainError(f"deal {text!r} does not start with a seat and ':'")
        first = Seat.parse(t[0])
        parts = t[2:].split()
        if len(parts) != 4:
            raise DomainError(f"deal {text!r} has {len(parts)} hands, not 4")
        hands: list[Hand | None] = [None] * 4
        for k, part in enumerate(parts):
            hands[first.offset(k)] = Hand.from_pbn(part)
        return cls(tuple(hands))  # type: ignore[arg-type]


# ---------------------------------------------------------------- PBN deal text, leniently
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

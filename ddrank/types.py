"""Immutable bridge value objects: seats, strains, cards, deals, calls, contracts, plays, boards.

Seats are numbered N=0, E=1, S=2, W=3 clockwise, as in the Marriner code and DDS. Strains are
ordered C<D<H<S<N, the order of the auction; `Strain.dds_index` gives DDS's S,H,D,C,N = 0..4.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import IntEnum

RANKS = "23456789TJQKA"
SEAT_LETTERS = "NESW"
STRAIN_LETTERS = "CDHSN"


def deal_id_of(canonical_pbn: str) -> str:
    """Content hash of the cards alone ('N:...' form): a deal replayed at many tables shares it."""
    return hashlib.sha1(canonical_pbn.encode()).hexdigest()[:16]


class DomainError(ValueError):
    """A value that cannot describe a real bridge object (bad card, 14-card hand, ...)."""


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise, who leads against this declarer."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def rho(self) -> Seat:
        return Seat((self + 3) % 4)

    @property
    def is_ns(self) -> bool:
        return self in (Seat.N, Seat.S)

    def offset(self, k: int) -> Seat:
        return Seat((self + k) % 4)

    @classmethod
    def parse(cls, text: str) -> Seat:
        t = text.strip().upper()
        if len(t) != 1 or t not in SEAT_LETTERS:
            raise DomainError(f"not a seat: {text!r}")
        return cls(SEAT_LETTERS.index(t))


class Strain(IntEnum):
    C = 0
    D = 1
    H = 2
    S = 3
    N = 4

    @property
    def letter(self) -> str:
        return STRAIN_LETTERS[self]

    @property
    def dds_index(self) -> int:
        """DDS numbers strains S,H,D,C,NT as 0..4."""
        return (3 - self) if self != Strain.N else 4

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)

    @classmethod
    def parse(cls, text: str) -> Strain:
        t = text.strip().upper()
        if t in ("NT", "N"):
            return cls.N
        if len(t) != 1 or t not in "CDHS":
            raise DomainError(f"not a strain: {text!r}")
        return cls(STRAIN_LETTERS.index(t))


SUITS = (Strain.S, Strain.H, Strain.D, Strain.C)  # PBN hand order


@dataclass(frozen=True, slots=True, order=True)
class Card:
    suit: Strain
    rank: int  # 2..14

    def __post_init__(self) -> None:
        if self.suit == Strain.N or not 2 <= self.rank <= 14:
            raise DomainError(f"not a card: suit={self.suit!r} rank={self.rank!r}")

    def __str__(self) -> str:
        return self.suit.letter + RANKS[self.rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse 'SA', 'hT', 'D10' (suit first, as PBN/LIN/the paper's dump write cards)."""
        t = text.strip().upper()
        if t[1:] == "10":
            t = t[0] + "T"
        if len(t) != 2 or t[0] not in "CDHS" or t[1] not in RANKS:
            raise DomainError(f"not a card: {text!r}")
        return cls(Strain(STRAIN_LETTERS.index(t[0])), RANKS.index(t[1]) + 2)

    @property
    def index(self) -> int:
        """0..51, clubs 2 first: a compact key for sets and arrays."""
        return int(self.suit) * 13 + self.rank - 2


ALL_CARDS: tuple[Card, ...] = tuple(Card(Strain(s), r) for s in range(4) for r in range(2, 15))


@dataclass(frozen=True, slots=True)
class Hand:
    cards: frozenset[Card]

    def suit(self, suit: Strain) -> list[Card]:
        return sorted((c for c in self.cards if c.suit == suit), key=lambda c: -c.rank)

    def to_pbn(self) -> str:
        return ".".join("".join(RANKS[c.rank - 2] for c in self.suit(s)) for s in SUITS)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        suits = text.split(".")
        if len(suits) != 4:
            raise DomainError(f"hand {text!r} does not have 4 suits")
        cards: list[Card] = []
        for suit, holding in zip(SUITS, suits, strict=True):
            for ch in holding.upper():
                if ch not in RANKS:
                    raise DomainError(f"bad rank {ch!r} in hand {text!r}")
                cards.append(Card(suit, RANKS.index(ch) + 2))
        if len(set(cards)) != len(cards):
            raise DomainError(f"card repeated in hand {text!r}")
        return cls(frozenset(cards))

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def hcp(self) -> int:
        return sum(max(0, c.rank - 10) for c in self.cards)


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


class CallKind(IntEnum):
    BID = 0
    PASS = 1
    DOUBLE = 2
    REDOUBLE = 3


@dataclass(frozen=True, slots=True)
class Call:
    kind: CallKind
    level: int = 0
    strain: Strain | None = None

    def __post_init__(self) -> None:
        if self.kind == CallKind.BID and not (1 <= self.level <= 7 and self.strain is not None):
            raise DomainError(f"bad bid: level={self.level} strain={self.strain}")

    @property
    def is_bid(self) -> bool:
        return self.kind == CallKind.BID

    @property
    def rank(self) -> int:
        """Position among the 35 bids 1C..7N (0..34); only for bids."""
        assert self.strain is not None
        return (self.level - 1) * 5 + int(self.strain)

    def __str__(self) -> str:
        if self.kind == CallKind.BID:
            assert self.strain is not None
            return f"{self.level}{self.strain.letter}"
        return "PXR"[self.kind - 1]

    @classmethod
    def parse(cls, text: str) -> Call:
        """Parse a clean call token: P, X, R, or a bid like 1C..7N (NT accepted)."""
        t = text.strip().upper()
        if t in ("P", "PASS"):
            return PASS
        if t in ("X", "D", "DBL"):
            return DOUBLE
        if t in ("R", "XX", "RDBL", "REDBL"):
            return REDOUBLE
        if len(t) >= 2 and t[0] in "1234567":
            return cls(CallKind.BID, int(t[0]), Strain.parse(t[1:]))
        raise DomainError(f"not a call: {text!r}")


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
ALL_BIDS: tuple[Call, ...] = tuple(
    Call(CallKind.BID, level, Strain(s)) for level in range(1, 8) for s in range(5)
)


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract. `doubled` is 0, 1 (X) or 2 (R)."""

    level: int
    strain: Strain
    doubled: int = 0
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7 or self.doubled not in (0, 1, 2):
            raise DomainError(f"bad contract: {self.level}{self.strain} doubled={self.doubled}")

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    def __str__(self) -> str:
        return f"{self.level}{self.strain.letter}{['', 'X', 'R'][self.doubled]}"

    def with_doubling(self, doubled: int) -> Contract:
        return Contract(self.level, self.strain, doubled, self.declarer)

    @classmethod
    def parse(cls, text: str, declarer: Seat | None = None) -> Contract:
        """Parse '4S', '3NT', '7NTXX', '4SX', '2HR' (no declarer letter inside)."""
        t = text.strip().upper().replace("NT", "N")
        doubled = 0
        if t.endswith("XX") or t.endswith("R"):
            doubled, t = 2, t[:-2] if t.endswith("XX") else t[:-1]
        elif t.endswith("X"):
            doubled, t = 1, t[:-1]
        if len(t) != 2 or t[0] not in "1234567" or t[1] not in STRAIN_LETTERS:
            raise DomainError(f"not a contract: {text!r}")
        return cls(int(t[0]), Strain.parse(t[1]), doubled, declarer)


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls in order, starting with `first` (normally the dealer)."""

    first: Seat
    calls: tuple[Call, ...]

    def seat_of(self, k: int) -> Seat:
        return self.first.offset(k)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)

    @property
    def final_contract(self) -> Contract | None:
        """The contract the auction reached, None when passed out (or no bid at all)."""
        last_bid_at = None
        doubled = 0
        for k, call in enumerate(self.calls):
            if call.is_bid:
                last_bid_at, doubled = k, 0
            elif call.kind == CallKind.DOUBLE:
                doubled = 1
            elif call.kind == CallKind.REDOUBLE:
                doubled = 2
        if last_bid_at is None:
            return None
        bid = self.calls[last_bid_at]
        assert bid.strain is not None
        side = self.seat_of(last_bid_at) % 2
        declarer = next(
            self.seat_of(k)
            for k, c in enumerate(self.calls)
            if c.is_bid and c.strain == bid.strain and self.seat_of(k) % 2 == side
        )
        return Contract(bid.level, bid.strain, doubled, declarer)


@dataclass(frozen=True, slots=True)
class Play:
    """Cards in the order they were played, each with the seat that played it."""

    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.seats):
            raise DomainError("a play needs one seat per card")

    @property
    def opening_leader(self) -> Seat | None:
        return self.seats[0] if self.seats else None

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class Vulnerability:
    """Which sides are vulnerable; None means the record did not say."""

    ns: bool | None
    ew: bool | None

    def of(self, seat: Seat) -> bool | None:
        return self.ns if seat.is_ns else self.ew


@dataclass(frozen=True, slots=True)
class Board:
    """One table result: a deal, how it was bid and played, and who sat where."""

    record_id: str
    deal: Deal
    dealer: Seat | None
    vulnerability: Vulnerability
    names: tuple[str, str, str, str]  # indexed by Seat
    auction: Auction | None = None
    contract: Contract | None = None  # None: passed out or unknown, see `passed_out`
    passed_out: bool = False
    play: Play | None = None
    claim_tricks: int | None = None
    result: int | None = None
    year: int = 0
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def declarer(self) -> Seat | None:
        return self.contract.declarer if self.contract else None

    @property
    def deal_id(self) -> str:
        return self.deal.deal_id


def trick_winner(cards: list[Card], leader: Seat, trump: Strain) -> Seat:
    """The seat that wins a complete trick led by `leader` with `trump` as trumps."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif c.suit == trump and trump != Strain.N:
            best = i
    return leader.offset(best)

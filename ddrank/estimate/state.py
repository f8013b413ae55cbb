"""Positions as arrays: who holds each of the 52 cards, normalised the way the seed does it.

A position is an int8 array `owner[4, 13]`: suit axis in PBN order (S, H, D, C), rank axis
2..A (index 0..12), value the seat (N=0..W=3) holding the card or -1 once it has been played.
Batches are `owner[n, 4, 13]`; every transform here works on whole batches with numpy, which is
what makes the estimator fast enough to screen millions of positions.

The seed normalises positions twice: it "shifts up" the ranks past played cards (if the king of
spades is gone, the queen becomes the king) and it swaps the trump suit's holdings into spades.
We add a third, optional step for our own feature set: seats relative to the side on lead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ddrank.types import RANKS, SEAT_LETTERS, SUITS, Card, DomainError, Hand, Seat, Strain

PLAYED = -1
STRAIN_TO_SUIT_AXIS = {Strain.S: 0, Strain.H: 1, Strain.D: 2, Strain.C: 3}
OWNER_CHARS = "0123."  # text form of one owner value; '.' for a played card

DealState = Sequence[Hand]  # the cards each seat (N, E, S, W) still holds, same count each


def owner_from_hands(hands: DealState) -> np.ndarray:
    """One position from the four remaining hands (indexed by Seat)."""
    if len(hands) != 4:
        raise DomainError("a position needs four hands")
    sizes = {len(h) for h in hands}
    if len(sizes) != 1 or not 1 <= next(iter(sizes)) <= 13:
        raise DomainError(f"the four hands must hold the same 1..13 cards, got {sorted(sizes)}")
    owner = np.full((4, 13), PLAYED, dtype=np.int8)
    for seat, hand in enumerate(hands):
        for card in hand.cards:
            axis = STRAIN_TO_SUIT_AXIS[card.suit]
            if owner[axis, card.rank - 2] != PLAYED:
                raise DomainError(f"{card} is held twice")
            owner[axis, card.rank - 2] = seat
    return owner


def hands_from_text(text: str) -> list[Hand]:
    """Parse 'N:AK.Q.. ...' (PBN deal syntax, any hand size) into four hands indexed by Seat."""
    t = text.strip()
    if len(t) < 3 or t[1] != ":" or t[0].upper() not in SEAT_LETTERS:
        raise DomainError(f"position {text!r} does not start with a seat and ':'")
    first = Seat.parse(t[0])
    parts = t[2:].split()
    if len(parts) != 4:
        raise DomainError(f"position {text!r} has {len(parts)} hands, not 4")
    hands: list[Hand] = [Hand(frozenset())] * 4
    for k, part in enumerate(parts):
        hands[first.offset(k)] = Hand.from_pbn(part)
    return hands


def owner_to_text(owner: np.ndarray) -> str:
    """52-character storage form: one of '0123.' per card, suits S,H,D,C, ranks 2..A."""
    return "".join(OWNER_CHARS[v] for v in owner.reshape(52))


def owners_from_texts(texts: Sequence[str]) -> np.ndarray:
    """Decode many storage strings at once (vectorised; this is the dataset loading path)."""
    raw = np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8).reshape(len(texts), 4, 13)
    out = raw.astype(np.int8) - ord("0")
    out[raw == ord(".")] = PLAYED
    return out


def owner_to_pbn(owner: np.ndarray) -> str:
    """Readable 'N:...' form of one position (ranks as held, not shifted)."""
    hands = []
    for seat in range(4):
        suits = []
        for axis in range(4):
            suits.append("".join(RANKS[r] for r in range(12, -1, -1) if owner[axis, r] == seat))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def hands_from_owner(owner: np.ndarray) -> list[Hand]:
    return [
        Hand(
            frozenset(
                Card(SUITS[axis], r + 2)
                for axis in range(4)
                for r in range(13)
                if owner[axis, r] == seat
            )
        )
        for seat in range(4)
    ]


def hand_size(owners: np.ndarray) -> np.ndarray:
    """Cards each player holds (all four hold the same number at a trick boundary)."""
    return (owners >= 0).reshape(len(owners), 52).sum(axis=1) // 4


def shift_up(owners: np.ndarray) -> np.ndarray:
    """The seed's normalisation: re-rank each suit's remaining cards to the top ranks, in order.

    A stable sort on "still held" moves the played cards to the bottom ranks and keeps the
    remaining ones in their order, which is exactly 'if the king is gone the queen is the king'.
    """
    order = np.argsort(owners >= 0, axis=-1, kind="stable")
    return np.take_along_axis(owners, order, axis=-1)


def swap_trumps(owners: np.ndarray, strains: np.ndarray) -> np.ndarray:
    """The seed's normalisation: trump holdings go to the spade axis (the spades to theirs).

    `strains` holds Strain values (C=0..N=4); no-trump positions are left as they are.
    """
    n = len(owners)
    perm = np.tile(np.arange(4), (n, 1))
    # Strain C,D,H,S -> suit axis 3,2,1,0; N stays on spades (identity)
    trump_axis = np.array([3, 2, 1, 0, 0])[np.asarray(strains, dtype=np.int64)]
    rows = np.arange(n)
    perm[rows, 0] = trump_axis
    perm[rows, trump_axis] = 0
    return owners[rows[:, None], perm]


def relative_to(owners: np.ndarray, leaders: np.ndarray) -> np.ndarray:
    """Seats renumbered from the side on lead: 0 leader, 1 LHO, 2 partner, 3 RHO."""
    lead = np.asarray(leaders, dtype=np.int8)[:, None, None]
    rel = (owners - lead) % 4
    return np.where(owners >= 0, rel, PLAYED).astype(np.int8)


def normalise(owners: np.ndarray, strains: np.ndarray) -> np.ndarray:
    """Shift-up plus trump swap: the seed's state representation (absolute seats)."""
    return swap_trumps(shift_up(owners), strains)

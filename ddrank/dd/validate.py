"""Checks that keep bad input away from DDS.

DDS does not return an error for an impossible deal or play: it writes out of bounds and the process
dies (measured: an illegal card makes AnalyseAllPlays segfault with "Sum 0 is not four"). So every
deal and every play is proven legal here, in Python, before it is handed to the solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from ddrank.types import Card, Deal, DomainError, Seat, Strain, trick_winner


def checked_deal(pbn: str) -> Deal:
    """Parse a PBN deal and prove it is four 13-card hands holding the 52 cards once each."""
    return Deal.from_pbn(pbn)  # Deal.__post_init__ enforces 4 x 13 distinct cards


def play_problem(
    deal: Deal, trump: Strain, leader: Seat, cards: Sequence[Card], seats: Sequence[Seat]
) -> str | None:
    """Why `cards` (played by `seats`, in true order) cannot be a legal play, or None if it is.

    Checks, card by card: the seat is the one whose turn it is (leader, then clockwise, then the
    winner of each trick), the card is still in that seat's hand, and a follower who still holds
    the suit led follows it. These are exactly the conditions DDS assumes without checking.
    """
    if len(cards) != len(seats):
        return f"{len(cards)} cards but {len(seats)} seats"
    if len(cards) > 52:
        return f"{len(cards)} cards played"
    remaining = {seat: set(deal[seat].cards) for seat in Seat}
    turn = leader
    trick: list[Card] = []
    trick_leader = leader
    for k, (card, seat) in enumerate(zip(cards, seats, strict=True)):
        if seat != turn:
            return f"card {k + 1} ({card}) played by {Seat(seat).letter}, but {turn.letter} was to play"
        if card not in remaining[seat]:
            return f"card {k + 1} ({card}) is not in {seat.letter}'s remaining hand"
        if trick and card.suit != trick[0].suit:
            led = trick[0].suit
            if any(c.suit == led for c in remaining[seat]):
                return f"card {k + 1} ({card}): {seat.letter} revoked while holding {led.letter}"
        remaining[seat].discard(card)
        trick.append(card)
        if len(trick) == 4:
            turn = trick_winner(trick, trick_leader, trump)
            trick_leader = turn
            trick = []
        else:
            turn = turn.offset(1)
    return None


def check_play(
    deal: Deal, trump: Strain, leader: Seat, cards: Sequence[Card], seats: Sequence[Seat]
) -> None:
    """Raise DomainError when the play is not legal (see `play_problem`)."""
    problem = play_problem(deal, trump, leader, cards, seats)
    if problem is not None:
        raise DomainError(problem)

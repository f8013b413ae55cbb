"""Plausible card play for random deals, so DDS play traces give mid-hand training states.

Real boards with play reach small hand sizes only when nobody claimed early, so the sample holds
few 1- to 4-card positions. A random deal played out by a simple human-like policy and then
analysed by DDS adds one state per trick at every hand size. The policy only has to reach
realistic positions; the labels come from DDS, not from the policy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ddrank.types import Card, Deal, Seat, Strain, trick_winner


def choose_contract(table: Sequence[int], rng: random.Random) -> tuple[Strain, Seat]:
    """A contract the deal's owners would plausibly play: the side with the best DD strain
    declares it, from whichever partner takes more tricks (ties broken at random).

    `table` is in dataset.TABLE_ORDER: 20 entries, strain C..N major, declarer N..W minor.
    """
    best = max(table)
    options = [(Strain(i // 4), Seat(i % 4)) for i, t in enumerate(table) if t == best]
    return rng.choice(options)


def _winning_now(trick: list[Card], leader: Seat, trump: Strain) -> tuple[Card, Seat]:
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if (c.suit == b.suit and c.rank > b.rank) or (
            c.suit != b.suit and c.suit == trump and trump != Strain.N
        ):
            best = i
    return trick[best], leader.offset(best)


def _beats(card: Card, best: Card, trump: Strain) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump and trump != Strain.N


def choose_card(
    hand: list[Card], trick: list[Card], leader: Seat, seat: Seat, trump: Strain, rng: random.Random
) -> Card:
    """Second hand low, third hand high, win as cheaply as possible, never overtake partner,
    discard the lowest card; leads are a random suit's top card or a low card."""
    if not trick:
        suit = rng.choice(sorted({c.suit for c in hand}))
        cards = sorted((c for c in hand if c.suit == suit), key=lambda c: c.rank)
        return cards[-1] if rng.random() < 0.5 else cards[0]
    led = trick[0].suit
    follow = sorted((c for c in hand if c.suit == led), key=lambda c: c.rank)
    best, best_seat = _winning_now(trick, leader, trump)
    partner_winning = best_seat == seat.partner
    legal = follow or sorted(hand, key=lambda c: (c.suit == trump, c.rank))
    if partner_winning and (len(trick) == 3 or rng.random() < 0.8):
        return legal[0]
    winners = [c for c in legal if _beats(c, best, trump)]
    if winners and (len(trick) >= 2 or rng.random() < 0.3):
        return min(winners, key=lambda c: (c.suit == trump and led != trump, c.rank))
    return legal[0]


def play_out(
    deal: Deal, strain: Strain, declarer: Seat, rng: random.Random
) -> tuple[list[Card], list[Seat]]:
    """All 52 cards in playing order with their seats, from declarer's left-hand opponent."""
    hands = [sorted(h.cards, key=lambda c: (c.suit, c.rank)) for h in deal.hands]
    leader = declarer.lho
    cards: list[Card] = []
    seats: list[Seat] = []
    for _ in range(13):
        trick: list[Card] = []
        for k in range(4):
            seat = leader.offset(k)
            card = choose_card(hands[seat], trick, leader, seat, strain, rng)
            hands[seat].remove(card)
            trick.append(card)
            cards.append(card)
            seats.append(seat)
        leader = trick_winner(trick, leader, strain)
    return cards, seats

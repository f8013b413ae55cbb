"""Each DD mistake of a board at the call or card that made it: for the pages a player studies.

The counters (`board_tallies`) say how many mistakes a seat made and what they cost in total; this
module says which card or call each one was, what it cost (tricks and points) and, for calls, what
the side should have done instead. The numbers are the counters' own, mistake by mistake: summing
`points` per seat and category gives the weighted counters of `player_board_stats` back (a test
checks it on a real store). The DD-best cards at a costly card come from the DD stage
(`dd_card_alternatives`), not from here: finding them needs the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.dd.tables import TrickTable
from ddrank.mistakes.auction import (
    Reached,
    declarer_candidates,
    declarer_candidates_for,
    defender_candidates,
)
from ddrank.mistakes.scores import contract_score, score
from ddrank.mistakes.variables import PASSED_OUT
from ddrank.types import ALL_BIDS, Auction, Card, Contract, Seat, Strain
from ddrank.types.play import trick_winner


@dataclass(frozen=True, slots=True)
class Trick:
    number: int  # 1..13
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]  # in playing order (fewer than 4 in a claimed trick)
    winner: Seat | None  # None while the trick is incomplete


@dataclass(frozen=True, slots=True)
class CardMistake:
    """A card after which the side that played it takes fewer tricks double dummy."""

    index: int  # 0-based position in the play
    trick: int  # 1-based
    position: int  # 1-based place in the trick
    seat: Seat  # who played the card (dummy's cards: dummy)
    charged: Seat  # who made the mistake (declarer for dummy's cards)
    card: Card
    kind: str  # "lead", "declarer" or "defence"
    tricks: int  # DD tricks the card cost its side
    points: float  # the points it cost (the weighted counter's share)
    dd_before: int  # declaring side's DD tricks before the card
    dd_after: int


@dataclass(frozen=True, slots=True)
class ClaimMistake:
    seats: tuple[Seat, ...]  # who erred: declarer (claimed too few) or both defenders
    claimed: int
    dd_tricks: int
    points: float


@dataclass(frozen=True, slots=True)
class CallMistake:
    """An auction mistake of a side, marked at the call that was its last chance."""

    seats: tuple[Seat, Seat]
    call: int | None  # index of the call marked (None: the side made no call)
    category: str
    alternative: str  # what DD says the side should have done
    points: float  # the side's DD gain from the alternative
    share: float  # 1/k when k categories tie for the largest gain (the counters' rule)


def tricks_of(cards: Sequence[Card], seats: Sequence[Seat], trump: Strain) -> list[Trick]:
    """The play as tricks: leader, the cards in order with who played them, the winner."""
    out = []
    for start in range(0, len(cards), 4):
        chunk = list(zip(seats[start : start + 4], cards[start : start + 4], strict=True))
        leader = chunk[0][0]
        winner = trick_winner([c for _, c in chunk], leader, trump) if len(chunk) == 4 else None
        out.append(Trick(start // 4 + 1, leader, tuple(chunk), winner))
    return out


def card_mistakes(
    contract: Contract,
    declarer: Seat,
    cards: Sequence[Card],
    seats: Sequence[Seat],
    trace: Sequence[int],
    vul: bool,
    year: int,
) -> list[CardMistake]:
    """Every card that changed the DD result against its own side (as `tally_play` counts them)."""
    if len(trace) != len(seats) + 1:
        raise ValueError(f"trace of {len(trace)} values for {len(seats)} cards")
    declaring = (declarer, declarer.partner)
    out = []
    for k in range(1, len(trace)):
        seat, before, after = seats[k - 1], trace[k - 1], trace[k]
        if seat in declaring and after < before:
            points = contract_score(contract, before, vul, year) - contract_score(
                contract, after, vul, year
            )
            kind, charged, lost = "declarer", declarer, before - after
        elif seat not in declaring and after > before:
            points = contract_score(contract, after, vul, year) - contract_score(
                contract, before, vul, year
            )
            kind, charged, lost = ("lead" if k == 1 else "defence"), seat, after - before
        else:
            continue
        out.append(CardMistake(k - 1, (k - 1) // 4 + 1, (k - 1) % 4 + 1, seat, charged,
                               cards[k - 1], kind, lost, points, before, after))  # fmt: skip
    return out


def claim_mistake(
    contract: Contract, declarer: Seat, claimed: int, final_dd: int, vul: bool, year: int
) -> ClaimMistake | None:
    """A claim for other than DD's tricks (as `tally_claim` counts it), or None."""
    if claimed == final_dd:
        return None
    hi, lo = max(claimed, final_dd), min(claimed, final_dd)
    points = contract_score(contract, hi, vul, year) - contract_score(contract, lo, vul, year)
    seats = (declarer.lho, declarer.rho) if claimed > final_dd else (declarer,)
    return ClaimMistake(seats, claimed, final_dd, points)


def _last_call_of(auction: Auction, seats: tuple[Seat, Seat]) -> int | None:
    return max((k for k in range(len(auction.calls)) if auction.seat_of(k) in seats), default=None)


def call_mistakes(
    auction: Auction,
    contract: Contract | None,
    table: TrickTable,
    vul_ns: bool,
    vul_ew: bool,
    year: int,
) -> list[CallMistake]:
    """Each side's auction mistake(s) as `tally_auction` charges them (`contract` None: passed
    out), with the alternative and the call to mark."""
    out: list[CallMistake] = []
    if contract is None:
        for side, vul in (((Seat.N, Seat.S), vul_ns), ((Seat.E, Seat.W), vul_ew)):
            best, text = 0, ""
            for bid in ALL_BIDS:
                assert bid.strain is not None
                for seat in side:
                    s = score(bid.level, bid.strain, 0, table.tricks(bid.strain, seat), vul, year)
                    if s > best:
                        best, text = s, f"bid {bid.level}{bid.strain.letter} by {seat.letter}"
            if best > 0:
                out.append(CallMistake(side, _last_call_of(auction, side), PASSED_OUT, text,
                                       best, 1.0))  # fmt: skip
        return out
    assert contract.declarer is not None
    declarer = contract.declarer
    vul_dec, vul_def = (vul_ns, vul_ew) if declarer.is_ns else (vul_ew, vul_ns)
    reached = Reached(auction, contract, table, vul_dec, vul_def, year,
                      declarer_candidates(auction))  # fmt: skip
    for side, candidates in (((declarer.lho, declarer.rho), defender_candidates(reached)),
                             ((declarer, declarer.partner), declarer_candidates_for(reached))):  # fmt: skip
        if not candidates:
            continue
        top = max(c.gain for c in candidates)
        winners = [c for c in candidates if c.gain == top]
        for c in winners:
            at = c.call if c.call is not None else _last_call_of(auction, side)
            out.append(CallMistake(side, at, c.category, c.alternative, top, 1 / len(winners)))
    return out

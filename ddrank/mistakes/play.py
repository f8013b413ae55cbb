"""Card-play and claim mistakes from a double-dummy trace (Marriner 2024 §2.2; reference §4.1-4.2).

A trace holds DD(k): tricks the declaring side ends with under perfect play from card k on. A card
that lowers DD is a declarer mistake (dummy's cards are charged to declarer, who chooses them); a
card that raises it is a defender mistake, the opening lead counted apart. Weights are the change
in the declaring side's score under the contract as played, doubling included.
"""

from __future__ import annotations

from collections.abc import Sequence

from ddrank.mistakes.scores import contract_score
from ddrank.mistakes.variables import Tally
from ddrank.types import Contract, Seat


def tally_play(
    tallies: Sequence[Tally],
    contract: Contract,
    declarer: Seat,
    seats: Sequence[Seat],
    trace: Sequence[int],
    vul: bool,
    year: int,
) -> None:
    """Add one board's play counters to `tallies` (indexed by seat)."""
    if len(trace) != len(seats) + 1:
        raise ValueError(f"trace of {len(trace)} values for {len(seats)} cards")
    declaring = (declarer, declarer.partner)
    dec = tallies[declarer]
    for k in range(1, len(trace)):
        seat = seats[k - 1]
        before, after = trace[k - 1], trace[k]
        if seat in declaring:
            dec["cards_played_as_declarer"] += 1
            if after < before:
                dec["play_mistakes_as_declarer"] += 1
                dec["weighted_play_mistakes_as_declarer"] += contract_score(
                    contract, before, vul, year
                ) - contract_score(contract, after, vul, year)
            continue
        player = tallies[seat]
        gift = (
            contract_score(contract, after, vul, year) - contract_score(contract, before, vul, year)
            if after > before
            else 0
        )
        if k == 1:
            player["leads"] += 1
            if after > before:
                player["lead_mistakes"] += 1
                player["weighted_lead_mistakes"] += gift
        else:
            player["cards_played_as_defender"] += 1
            if after > before:
                player["play_mistakes_as_defender"] += 1
                player["weighted_play_mistakes_as_defender"] += gift


def tally_claim(
    tallies: Sequence[Tally],
    contract: Contract,
    declarer: Seat,
    claim_tricks: int,
    final_dd: int,
    vul: bool,
    year: int,
) -> None:
    """Add one claim's counters: everyone at the table took part in it.

    A claim for more than DD(last) gave declarer tricks: both defenders erred in accepting it. A
    claim for fewer gave tricks away: declarer erred (dummy never claims).
    """
    for tally in tallies:
        tally["claims"] += 1
    if claim_tricks > final_dd:
        cost = contract_score(contract, claim_tricks, vul, year) - contract_score(
            contract, final_dd, vul, year
        )
        for seat in (declarer.lho, declarer.rho):
            tallies[seat]["claim_mistakes"] += 1
            tallies[seat]["weighted_claim_mistakes"] += cost
    elif claim_tricks < final_dd:
        cost = contract_score(contract, final_dd, vul, year) - contract_score(
            contract, claim_tricks, vul, year
        )
        tallies[declarer]["claim_mistakes"] += 1
        tallies[declarer]["weighted_claim_mistakes"] += cost

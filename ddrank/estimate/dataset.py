"""Training states for the estimator: positions with the double-dummy tricks North-South take.

Two sources, both turned into the same rows (deal_id, source, owners, hand_size, strain, leader,
ns_tricks):
- a full deal with its DD table gives 20 thirteen-card states, one per strain and declarer, led
  by declarer's left-hand opponent;
- a played board with its DD play trace gives one state after every completed trick: the cards
  still held, the trick winner on lead, and the tricks NS can still take from there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ddrank.estimate.state import PLAYED, STRAIN_TO_SUIT_AXIS, owner_from_hands, owner_to_text
from ddrank.types import Card, Deal, DomainError, Seat, Strain, trick_winner

COLUMNS = ("deal_id", "source", "owners", "hand_size", "strain", "leader", "ns_tricks")
TABLE_ORDER = [(Strain(s), Seat(p)) for s in range(5) for p in range(4)]  # dd_CN, dd_CE, ...


@dataclass(frozen=True, slots=True)
class StateRow:
    """One training state; `ns_tricks` counts only the tricks still to be played."""

    deal_id: str
    source: str
    owners: str  # 52-char storage form, see state.owner_to_text
    hand_size: int
    strain: int
    leader: int
    ns_tricks: int


def table_states(deal: Deal, table: Sequence[int], source: str = "random") -> list[StateRow]:
    """The 20 opening positions of a deal from its DD table (TABLE_ORDER, declarer's tricks)."""
    if len(table) != 20:
        raise DomainError(f"a DD table has 20 entries, got {len(table)}")
    text = owner_to_text(owner_from_hands(deal.hands))
    rows = []
    for (strain, declarer), tricks in zip(TABLE_ORDER, table, strict=True):
        ns = tricks if declarer.is_ns else 13 - tricks
        rows.append(StateRow(deal.deal_id, source, text, 13, int(strain), int(declarer.lho), ns))
    return rows


def play_states(
    deal: Deal,
    cards: Sequence[Card],
    seats: Sequence[Seat],
    strain: Strain,
    declarer: Seat,
    trace: Sequence[int],
    source: str = "play",
) -> list[StateRow]:
    """States before trick 1 and after each completed trick of a (validated) play.

    `trace[i]` is declarer's DD total for the whole board after i cards (what DDS's play analysis
    returns), so NS's tricks from a state are their DD total less the tricks they already won.
    """
    if len(trace) < len(cards) + 1:
        raise DomainError("the DD trace needs one value per card plus the start")
    owner = owner_from_hands(deal.hands)
    leader = declarer.lho
    ns_won = 0
    rows: list[StateRow] = []
    n_tricks = min(len(cards) // 4, 12)  # after the 13th trick there is no position left
    for k in range(n_tricks + 1):
        total = trace[4 * k]
        ns_total = total if declarer.is_ns else 13 - total
        if k > 0:
            trick = list(cards[4 * k - 4 : 4 * k])
            for card in trick:
                owner[STRAIN_TO_SUIT_AXIS[card.suit], card.rank - 2] = PLAYED
            leader = trick_winner(trick, leader, strain)
            ns_won += leader.is_ns
        rows.append(
            StateRow(
                deal.deal_id,
                source,
                owner_to_text(owner),
                13 - k,
                int(strain),
                int(leader),
                ns_total - ns_won,
            )
        )
    return rows


def is_test_deal(deal_id: str, test_percent: int = 20) -> bool:
    """Held-out split by deal, stable across runs and machines: no deal straddles the split."""
    return int(hashlib.sha1(deal_id.encode()).hexdigest()[:8], 16) % 100 < test_percent


def rows_to_columns(rows: Sequence[StateRow]) -> dict[str, list]:
    return {c: [getattr(r, c) for r in rows] for c in COLUMNS}


def target_for_leader(ns_tricks: np.ndarray, leaders: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Tricks for the side on lead (our models' target) from NS tricks, and back (an involution)."""
    ns_lead = (np.asarray(leaders) % 2) == 0
    return np.where(ns_lead, ns_tricks, np.asarray(sizes) - ns_tricks)

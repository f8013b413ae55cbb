"""Learned double-dummy estimator: how many tricks a position is worth, in microseconds.

A fast screen in front of DDS (seed: mernagh-learning-dd-solver.txt). Positions are normalised
the seed's way (ranks shifted up past played cards, trumps swapped into spades), turned into
features (the seed's 80, or our compact set) and scored by one model per hand size.

    expected, distribution = tricks(hands, Strain.S, Seat.W, model)

This package never touches files: the caller loads a saved `TrickModel` (store.estimator does)
and passes it in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ddrank.estimate.models import TrickModel
from ddrank.estimate.state import DealState, hands_from_text, owner_from_hands
from ddrank.types import Seat, Strain

__all__ = ["TrickModel", "tricks", "tricks_many"]


def tricks(
    deal_state: DealState | str | np.ndarray,
    strain: Strain,
    leader: Seat,
    model: TrickModel,
) -> tuple[float, list[float]]:
    """Expected double-dummy tricks for North-South from this position, and their distribution.

    `deal_state` is the cards each seat still holds (four Hands indexed by Seat, a PBN-style
    'N:AK.. ...' string of any hand size, or an owner array); `leader` is on lead to the next
    trick. The distribution lists P(NS take t more tricks) for t = 0..cards per hand.
    """
    if isinstance(deal_state, str):
        owner = owner_from_hands(hands_from_text(deal_state))
    elif isinstance(deal_state, np.ndarray):
        owner = deal_state.astype(np.int8)
    else:
        owner = owner_from_hands(deal_state)
    size = int((owner >= 0).sum()) // 4
    expected, dist = tricks_many(owner[None], [int(strain)], [int(leader)], model)
    return float(expected[0]), [float(p) for p in dist[0, : size + 1]]


def tricks_many(
    owners: np.ndarray, strains: Sequence[int], leaders: Sequence[int], model: TrickModel
) -> tuple[np.ndarray, np.ndarray]:
    """Batch form for screening many positions: owners [n, 4, 13] (see estimate.state)."""
    return model.predict(owners, np.asarray(strains), np.asarray(leaders))

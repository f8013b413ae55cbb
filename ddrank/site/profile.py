"""A player's DD mistake profile: rate, count over opportunities, and place in the field.

Each category divides a mistake count by the chances the player had to make it (Marriner 2024
Table 4). A place in the field is only given past a minimum number of chances: below it the
interval is too wide to rank anyone, and the site says so instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ddrank.mistakes.variables import (
    AUCTIONS,
    CARDS_AS_DECLARER,
    CARDS_AS_DEFENDER,
    CLAIMS,
    DECLARER_CATEGORIES,
    DEFENDER_CATEGORIES,
    LEADS,
    PASSED_OUT,
)
from ddrank.site.stats import percentile_interval, wilson


@dataclass(frozen=True, slots=True)
class Category:
    key: str
    label: str
    mistakes: str  # numerator column of player_board_stats
    opportunities: str  # denominator column
    unit: str  # what one opportunity is
    min_opportunities: int  # fewer chances than this: no place in the field


_AUCTION_LABELS = {
    "defender_missed_current_double": "Auction, defending: missed a penalty double",
    "defender_erroneously_doubled": "Auction, defending: doubled a making contract",
    "defender_missed_higher_contract": "Auction, defending: missed a better contract",
    "declarer_missed_higher_contract": "Auction, declaring: missed a better contract",
    "declarer_missed_doubling_opponents_last_bid": "Auction, declaring: missed doubling the opponents",
    "declarer_missed_opponents_last_redouble": "Auction, declaring: missed a redouble",
    "declarer_missed_redoubling_opponents_erroneous_double": "Auction, declaring: missed redoubling a bad double",
    "declarer_missed_opponents_last_bid": "Auction, declaring: let the opponents play their last bid",
    "declarer_erroneous_redouble": "Auction, declaring: redoubled a failing contract",
    PASSED_OUT: "Auction: passed out a makeable deal",
}

CATEGORIES: tuple[Category, ...] = (
    Category("declarer", "Declarer play", "play_mistakes_as_declarer", CARDS_AS_DECLARER,
             "cards", 100),
    Category("defence", "Defence", "play_mistakes_as_defender", CARDS_AS_DEFENDER, "cards", 100),
    Category("lead", "Opening lead", "lead_mistakes", LEADS, "leads", 20),
    Category("claim", "Claims", "claim_mistakes", CLAIMS, "claims", 10),
    *(
        Category(c, _AUCTION_LABELS[c], c, AUCTIONS, "auctions", 30)
        for c in DEFENDER_CATEGORIES + DECLARER_CATEGORIES + (PASSED_OUT,)
    ),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CategoryLine:
    """One row of a profile; `percentile` is None when opportunities are too few."""

    category: Category
    mistakes: float
    opportunities: float
    rate: float | None
    rate_low: float | None
    rate_high: float | None
    percentile: float | None
    percentile_low: float | None
    percentile_high: float | None
    field_size: int

    @property
    def too_few(self) -> bool:
        return self.opportunities < self.category.min_opportunities


def field_rates(totals: Mapping[str, Mapping[str, Any]]) -> dict[str, list[float]]:
    """Sorted rates of every player with enough chances, per category (the reference field)."""
    out: dict[str, list[float]] = {}
    for cat in CATEGORIES:
        rates = [
            float(t[cat.mistakes]) / float(t[cat.opportunities])
            for t in totals.values()
            if (t.get(cat.opportunities) or 0) >= cat.min_opportunities
        ]
        out[cat.key] = sorted(rates)
    return out


def profile(totals: Mapping[str, Any], field: Mapping[str, Sequence[float]]) -> list[CategoryLine]:
    """The profile of one player from their summed counters and the field's rates."""
    lines = []
    for cat in CATEGORIES:
        k = float(totals.get(cat.mistakes) or 0.0)
        n = float(totals.get(cat.opportunities) or 0.0)
        ref = field[cat.key]
        rate = lo = hi = pct = plo = phi = None
        if n > 0:
            rate = k / n
            lo, hi = wilson(k, n)
        if n >= cat.min_opportunities and ref:
            pct, plo, phi = percentile_interval(k, n, ref)
            if math.isnan(pct):
                pct = plo = phi = None
        lines.append(CategoryLine(cat, k, n, rate, lo, hi, pct, plo, phi, len(ref)))
    return lines


def count_text(v: float | None) -> str:
    """A mistake count: whole numbers plainly, fractional ones (tied auction mistakes) to 0.1."""
    if v is None:
        return ""
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.1f}"

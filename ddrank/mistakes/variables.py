"""The 33 per-player variables of Marriner (2024) Table 3 and the 28 rates of Table 4.

Order matters: it is the column order of the paper's dds_final_results.csv, which `ddrank stats`
reproduces, so downstream regressions can read either file.
"""

from __future__ import annotations

#: The five denominators of Table 4: the number of chances a player had for each kind of mistake.
CLAIMS = "claims"
LEADS = "leads"
CARDS_AS_DECLARER = "cards_played_as_declarer"
CARDS_AS_DEFENDER = "cards_played_as_defender"
AUCTIONS = "auctions_analyzed"

#: Auction mistake categories (each also has a weighted_ twin): the one place they are named.
DEFENDER_MISSED_CURRENT_DOUBLE = "defender_missed_current_double"
DEFENDER_ERRONEOUSLY_DOUBLED = "defender_erroneously_doubled"
DEFENDER_MISSED_HIGHER_CONTRACT = "defender_missed_higher_contract"
DECLARER_MISSED_HIGHER_CONTRACT = "declarer_missed_higher_contract"
DECLARER_MISSED_DOUBLING_LAST_BID = "declarer_missed_doubling_opponents_last_bid"
DECLARER_MISSED_LAST_REDOUBLE = "declarer_missed_opponents_last_redouble"
DECLARER_MISSED_REDOUBLING_DOUBLE = "declarer_missed_redoubling_opponents_erroneous_double"
DECLARER_MISSED_LAST_BID = "declarer_missed_opponents_last_bid"
DECLARER_ERRONEOUS_REDOUBLE = "declarer_erroneous_redouble"
PASSED_OUT = "passed_higher_contract"

#: The defending side's categories, in dds_final_results.csv order.
DEFENDER_CATEGORIES: tuple[str, ...] = (
    DEFENDER_MISSED_CURRENT_DOUBLE,
    DEFENDER_ERRONEOUSLY_DOUBLED,
    DEFENDER_MISSED_HIGHER_CONTRACT,
)
#: The declaring side's categories, in dds_final_results.csv order.
DECLARER_CATEGORIES: tuple[str, ...] = (
    DECLARER_MISSED_HIGHER_CONTRACT,
    DECLARER_MISSED_DOUBLING_LAST_BID,
    DECLARER_MISSED_LAST_REDOUBLE,
    DECLARER_MISSED_REDOUBLING_DOUBLE,
    DECLARER_MISSED_LAST_BID,
    DECLARER_ERRONEOUS_REDOUBLE,
)
#: Every auction category, in column order (Table 3 and the rates of Table 4).
AUCTION_CATEGORIES: tuple[str, ...] = DEFENDER_CATEGORIES + DECLARER_CATEGORIES + (PASSED_OUT,)


def weighted(name: str) -> str:
    return "weighted_" + name


#: Table 3, in dds_final_results.csv column order.
VARIABLES: tuple[str, ...] = (
    CLAIMS,
    "claim_mistakes",
    "weighted_claim_mistakes",
    LEADS,
    "lead_mistakes",
    "weighted_lead_mistakes",
    CARDS_AS_DECLARER,
    "play_mistakes_as_declarer",
    "weighted_play_mistakes_as_declarer",
    CARDS_AS_DEFENDER,
    "play_mistakes_as_defender",
    "weighted_play_mistakes_as_defender",
    AUCTIONS,
    *(v for c in AUCTION_CATEGORIES for v in (c, weighted(c))),
)

#: Table 4: (rate name, numerator, denominator), unweighted and weighted alternating.
RATES: tuple[tuple[str, str, str], ...] = (
    ("claim_mistakes_per_claim", "claim_mistakes", CLAIMS),
    ("weighted_claim_mistakes_per_claim", "weighted_claim_mistakes", CLAIMS),
    ("lead_mistakes_per_lead", "lead_mistakes", LEADS),
    ("weighted_lead_mistakes_per_lead", "weighted_lead_mistakes", LEADS),
    (
        "defender_mistakes_per_card_played_as_defender",
        "play_mistakes_as_defender",
        CARDS_AS_DEFENDER,
    ),
    (
        "weighted_defender_mistakes_per_card_played_as_defender",
        "weighted_play_mistakes_as_defender",
        CARDS_AS_DEFENDER,
    ),
    (
        "declarer_mistakes_per_card_played_as_declarer",
        "play_mistakes_as_declarer",
        CARDS_AS_DECLARER,
    ),
    (
        "weighted_declarer_mistakes_per_card_played_as_declarer",
        "weighted_play_mistakes_as_declarer",
        CARDS_AS_DECLARER,
    ),
    *(
        (f"{prefix}{c}_per_auction", f"{prefix}{c}", AUCTIONS)
        for c in AUCTION_CATEGORIES
        for prefix in ("", "weighted_")
    ),
)

Tally = dict[str, float]


def empty_tally() -> Tally:
    """A player's 33 counters for one board, all zero."""
    return dict.fromkeys(VARIABLES, 0.0)


def rates(totals: dict[str, float]) -> dict[str, float | None]:
    """Table 4 rates from Table 3 totals; None (SQL NULL) when the player had no chance at all.

    The paper wrote 0.0 for 0/0, which reads as "never wrong" for a player who never led.
    """
    out: dict[str, float | None] = {}
    for name, num, den in RATES:
        out[name] = totals[num] / totals[den] if totals[den] else None
    return out

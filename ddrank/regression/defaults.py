"""The regression's published defaults, in a module with no imports.

The command line shows these as option defaults, so `ddrank --help` must not have to import
numpy, pandas or statsmodels to learn them.
"""

from __future__ import annotations

#: Table 9 of the paper: minimum opportunities a player needs to be a data point.
TABLE9_MINIMA: dict[str, float] = {
    "claims": 362,
    "leads": 100,
    "cards_played_as_declarer": 1408,
    "cards_played_as_defender": 1424,
    "auctions_analyzed": 392,
}

#: The fixed seed of the cross-validation folds, so every report is reproducible.
DEFAULT_CV_SEED = 20240

#: Table 9 counter → the `ddrank regress` option that sets its minimum.
REGRESS_FLAGS: dict[str, str] = {
    "claims": "--min-claims",
    "leads": "--min-leads",
    "cards_played_as_declarer": "--min-cards-declarer",
    "cards_played_as_defender": "--min-cards-defender",
    "auctions_analyzed": "--min-auctions",
}


def regress_flags(thresholds: dict[str, float]) -> str:
    """The `ddrank regress` options that reproduce these minima, e.g. '--min-claims 15 ...'."""
    return " ".join(f"{REGRESS_FLAGS[k]} {v:g}" for k, v in thresholds.items())

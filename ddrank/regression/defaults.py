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

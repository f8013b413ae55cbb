"""Whether `ddrank run` writes a regression report, without importing a statistics package.

Table 9's minima scaled to a store, the players they leave, and the players with the most boards
(the Prefect UI's table): plain store queries. The report itself (`stages.regression`) imports
pandas, scipy and statsmodels, about 2.5 CPU-s, so a run imports it only when enough players
pass (the bundled samples never do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from store import Store

#: The paper's Table 9 minima were chosen for 190,622 analysed boards.
PAPER_BOARDS = 190_622
#: Fewer data points than this cannot support 14 candidate predictors.
MIN_REGRESSION_PLAYERS = 30
_THRESHOLD_FIELDS = {
    "claims": "min_claims",
    "leads": "min_leads",
    "cards_played_as_declarer": "min_cards_declarer",
    "cards_played_as_defender": "min_cards_defender",
    "auctions_analyzed": "min_auctions",
}


def _as_store(store: Any) -> Store:
    """A `Store`; transitional: flows/pipeline.py still passes a bare DuckDB connection."""
    return store if isinstance(store, Store) else Store(con=store)


def scaled_thresholds(store: Store, settings: Any) -> dict[str, float]:
    """Table 9's minima scaled to the size of this store (the bundled sample is 4% of the
    paper's data, where nobody reaches 362 claims). At the paper's size they are the paper's."""
    boards = _as_store(store).scalar("regression_board_count")
    factor = min(1.0, boards / PAPER_BOARDS)
    return {
        col: max(1.0, round(getattr(settings, f) * factor)) for col, f in _THRESHOLD_FIELDS.items()
    }


def eligible_players(store: Store, thresholds: Mapping[str, float]) -> int:
    """Matched players (with ranking points) past every opportunity threshold."""
    store = _as_store(store)
    if not store.scalar("regression_has_player_stats"):
        return 0
    # a zero denominator excludes a player whatever the threshold (its rate is undefined)
    minima = {col: max(float(v), 1.0) for col, v in thresholds.items()}
    return int(store.scalar("regression_eligible_players", **minima))


_TOP_PLAYER_COLUMNS = ("player", "boards", "mp", "pp", "lead_mistakes_per_lead",
                       "defender_mistakes_per_card", "declarer_mistakes_per_card")  # fmt: skip


def player_table(store: Store, limit: int = 25) -> list[dict[str, Any]]:
    """The players with the most boards and their main mistake rates, to 4 decimals, for the
    Prefect UI's table artifact (empty before the DD stage ran)."""
    store = _as_store(store)
    if not store.scalar("regression_has_player_stats"):
        return []
    return [
        {
            c: (round(v, 4) if isinstance(v, float) else v)
            for c, v in zip(_TOP_PLAYER_COLUMNS, r, strict=True)
        }  # fmt: skip
        for r in store.tuples("top_players_by_boards", limit=limit)
    ]

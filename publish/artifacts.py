"""Tables for the Prefect UI: the players with the most boards and their main mistake rates."""

from __future__ import annotations

from typing import Any

from store import Store

_COLUMNS = ("player", "boards", "mp", "pp", "lead_mistakes_per_lead",
            "defender_mistakes_per_card", "declarer_mistakes_per_card")  # fmt: skip


def player_table(store: Store, limit: int = 25) -> list[dict[str, Any]]:
    """The players with the most boards, rates to 4 decimals (empty before the DD stage ran)."""
    if not isinstance(store, Store):  # transitional: flows/pipeline.py passes a bare connection
        store = Store(con=store)
    if not store.scalar("regression_has_player_stats"):
        return []
    return [
        {c: (round(v, 4) if isinstance(v, float) else v) for c, v in zip(_COLUMNS, r, strict=True)}
        for r in store.tuples("top_players_by_boards", limit=limit)
    ]

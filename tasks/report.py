"""Audit report: the exclusion tables in the shape of the paper's Tables 5-7."""

from __future__ import annotations

from typing import Any

import duckdb

from stages.audit import audit_tables  # noqa: F401 - moved to the clean stage

# The paper's Table 9 minima were chosen for 190,622 analysed boards.
PAPER_BOARDS = 190_622
_THRESHOLD_FIELDS = {
    "claims": "min_claims",
    "leads": "min_leads",
    "cards_played_as_declarer": "min_cards_declarer",
    "cards_played_as_defender": "min_cards_defender",
    "auctions_analyzed": "min_auctions",
}


def scaled_thresholds(con: duckdb.DuckDBPyConnection, settings: Any) -> dict[str, float]:
    """Table 9's minima scaled to the size of this store (the bundled sample is 4% of the
    paper's data, where nobody reaches 362 claims). At the paper's size they are the paper's."""
    boards = con.execute("SELECT count(*) FROM boards").fetchall()[0][0]
    factor = min(1.0, boards / PAPER_BOARDS)
    return {
        col: max(1.0, round(getattr(settings, f) * factor)) for col, f in _THRESHOLD_FIELDS.items()
    }


def player_table(con: duckdb.DuckDBPyConnection, limit: int = 25) -> list[dict[str, Any]]:
    """The players with the most boards, with their main mistake rates (for the UI artifact)."""
    exists = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'player_stats'"
    ).fetchall()[0][0]
    if not exists:
        return []
    rows = con.execute(
        "SELECT player, boards, mp, pp, lead_mistakes_per_lead, "
        "defender_mistakes_per_card_played_as_defender, "
        "declarer_mistakes_per_card_played_as_declarer FROM player_stats "
        "ORDER BY boards DESC, player LIMIT ?",
        [limit],
    ).fetchall()
    cols = ["player", "boards", "mp", "pp", "lead_mistakes_per_lead",
            "defender_mistakes_per_card", "declarer_mistakes_per_card"]  # fmt: skip
    return [
        {c: (round(v, 4) if isinstance(v, float) else v) for c, v in zip(cols, r, strict=True)}
        for r in rows
    ]


MIN_REGRESSION_PLAYERS = 30  # fewer data points than this cannot support 14 candidate predictors


def eligible_players(con: duckdb.DuckDBPyConnection, thresholds: dict[str, float]) -> int:
    """Matched players (with ranking points) past every opportunity threshold."""
    exists = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'player_stats'"
    ).fetchall()[0][0]
    if not exists:
        return 0
    # a zero denominator excludes a player whatever the threshold (its rate is undefined)
    where = " AND ".join(f"{col} >= {max(float(v), 1.0)}" for col, v in thresholds.items())
    return con.execute(
        f"SELECT count(*) FROM player_stats WHERE pp IS NOT NULL AND mp IS NOT NULL AND {where}"
    ).fetchall()[0][0]

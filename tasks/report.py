"""Audit report: the exclusion tables in the shape of the paper's Tables 5-7."""

from __future__ import annotations

from typing import Any

import duckdb

from ddrank.cleaning import AUCTION_ISSUES, AUDIT_NOTES, EXCLUSION_REASONS, PLAY_ISSUES

# Which analysis stage can use which kept result (issue 12): a condition on `boards` each.
STAGES: dict[str, tuple[str, str]] = {
    "scoring": (
        "Scoring (matchpoints, IMPs): a contract and tricks, a passed-out board, a published "
        "score or an adjusted score.",
        "(contract = 'P' OR (contract IS NOT NULL AND result IS NOT NULL) "
        "OR ns_score IS NOT NULL OR adjusted IS NOT NULL)",
    ),
    "dd_table": ("DD table (par, DD tricks of the contract): the deal.", "deal IS NOT NULL"),
    "dd_play": (
        "DD play analysis (lead, declarer and defender mistakes): the deal and a usable play.",
        "deal IS NOT NULL AND play IS NOT NULL",
    ),
    "auction": ("Auction analysis: a usable auction.", "auction IS NOT NULL"),
    "players": (
        "Player statistics and the regression: at least one name (the paper's rule).",
        "coalesce(northname, '') || coalesce(eastname, '') || coalesce(southname, '') "
        "|| coalesce(westname, '') <> ''",
    ),
}
_NOTES_SQL = {
    "missing_names": "NOT (" + STAGES["players"][1] + ")",
    "missing_deal": "deal IS NULL",
    "adjusted": "adjusted IS NOT NULL",
    "phantom": "phantom IS NOT NULL",
}


def stage_counts(con: duckdb.DuckDBPyConnection) -> list[dict[str, object]]:
    """How many kept results each stage can use, and the audit notes (kept, not excluded)."""
    rows: list[dict[str, object]] = []
    for stage, (description, cond) in STAGES.items():
        n = con.execute(f"SELECT count(*) FROM boards WHERE {cond}").fetchall()[0][0]
        rows.append({"stage": stage, "description": description, "count": n})
    for note, cond in _NOTES_SQL.items():
        n = con.execute(f"SELECT count(*) FROM boards WHERE {cond}").fetchall()[0][0]
        rows.append({"stage": f"note:{note}", "description": AUDIT_NOTES[note], "count": n})
    return rows


def _counts(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, int]:
    return dict(con.execute(f"SELECT reason, count(*) FROM {table} GROUP BY reason").fetchall())


def audit_tables(con: duckdb.DuckDBPyConnection) -> dict[str, object]:
    """Tables 5, 6 and 7 as rows of (reason, description, count), plus the accounting identity."""
    raw = con.execute("SELECT count(*) FROM raw_records").fetchall()[0][0]
    kept = con.execute("SELECT count(*) FROM boards").fetchall()[0][0]
    excluded = _counts(con, "exclusions")
    auction = _counts(con, "auction_issues")
    play = _counts(con, "play_issues")

    def table(reasons: dict[str, str], counts: dict[str, int], base: int) -> list[dict]:
        rows = [
            {"reason": k, "description": v, "count": counts.get(k, 0)} for k, v in reasons.items()
        ]
        rows += [
            {"reason": k, "description": k, "count": n}
            for k, n in counts.items()
            if k not in reasons
        ]
        total = sum(counts.values())
        rows.append({"reason": "total", "description": "Total", "count": total})
        rows.append({"reason": "no_error", "description": "No error", "count": base - total})
        return rows

    return {
        "raw_records": raw,
        "boards": kept,
        "excluded": sum(excluded.values()),
        "balanced": raw == kept + sum(excluded.values()),
        "table5_exclusions": table(EXCLUSION_REASONS, excluded, raw),
        "table6_auction": table(AUCTION_ISSUES, auction, kept),
        "table7_play": table(PLAY_ISSUES, play, kept),
        "stages": stage_counts(con),
        "repairs": dict(
            con.execute(
                "SELECT split_part(unnest(string_split(repairs, '; ')), ':', 1) AS kind, count(*) "
                "FROM boards WHERE repairs IS NOT NULL GROUP BY kind ORDER BY kind"
            ).fetchall()
        ),
    }


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

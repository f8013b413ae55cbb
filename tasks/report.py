"""Audit report: the exclusion tables in the shape of the paper's Tables 5-7."""

from __future__ import annotations

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

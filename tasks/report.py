"""Audit report: the exclusion tables in the shape of the paper's Tables 5-7."""

from __future__ import annotations

import duckdb

from ddrank.cleaning import AUCTION_ISSUES, EXCLUSION_REASONS, PLAY_ISSUES


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
        "repairs": dict(
            con.execute(
                "SELECT split_part(unnest(string_split(repairs, '; ')), ':', 1) AS kind, count(*) "
                "FROM boards WHERE repairs IS NOT NULL GROUP BY kind ORDER BY kind"
            ).fetchall()
        ),
    }

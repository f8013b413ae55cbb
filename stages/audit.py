"""Audit of the clean stage: the exclusion tables in the shape of the paper's Tables 5-7."""

from __future__ import annotations

from typing import Any

from ddrank.cleaning import AUCTION_ISSUES, AUDIT_NOTES, EXCLUSION_REASONS, PLAY_ISSUES
from stages.ingest import as_store
from store import Store

# Which analysis stage can use which kept result (issue 12): a named count of `boards` each.
STAGES: dict[str, str] = {
    "scoring": "Scoring (matchpoints, IMPs): a contract and tricks, a passed-out board, a "
    "published score or an adjusted score.",
    "dd_table": "DD table (par, DD tricks of the contract): the deal.",
    "dd_play": "DD play analysis (lead, declarer and defender mistakes): the deal and a usable "
    "play.",
    "auction": "Auction analysis: a usable auction.",
    "players": "Player statistics and the regression: at least one name (the paper's rule).",
}
NOTES = ("missing_names", "missing_deal", "adjusted", "phantom")


def stage_counts(store: Store) -> list[dict[str, object]]:
    """How many kept results each stage can use, and the audit notes (kept, not excluded)."""
    rows: list[dict[str, object]] = []
    for stage, description in STAGES.items():
        n = store.scalar(f"usable_for_{stage}")
        rows.append({"stage": stage, "description": description, "count": n})
    for note in NOTES:
        n = store.scalar(f"note_{note}")
        rows.append({"stage": f"note:{note}", "description": AUDIT_NOTES[note], "count": n})
    return rows


def audit_tables(store: Store | Any) -> dict[str, object]:
    """Tables 5, 6 and 7 as rows of (reason, description, count), plus the accounting identity."""
    store = as_store(store)
    raw = store.scalar("count_raw_records")
    kept = store.scalar("count_boards")
    excluded = dict(store.tuples("exclusion_reasons"))
    auction = dict(store.tuples("auction_issue_reasons"))
    play = dict(store.tuples("play_issue_reasons"))

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
        "stages": stage_counts(store),
        "repairs": dict(store.tuples("repair_kinds")),
    }

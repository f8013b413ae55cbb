"""Flow `match_names`: resolve the raw seat names (or a list of names) against a ranking list.

python -m flows.names --rankings ddrank/data/rankings/wbf-open-rankings.csv [--db ddrank.duckdb]
"""

from __future__ import annotations

import argparse
from typing import Any

from prefect import flow

from stages.names import review_rows, summarize
from store import DEFAULT_DB
from tasks.names import (
    load_aliases_task,
    load_rankings_task,
    match_board_names_task,
    match_name_file_task,
)


@flow(name="match_names", log_prints=True)
def match_names(
    rankings: str,
    db: str = str(DEFAULT_DB),
    names: str | None = None,
    out: str | None = None,
    aliases: str | None = None,
    strategy: str = "fuzzy",
    review: bool = False,
    scope: str = "covered",
) -> dict[str, Any]:
    """Boards in the store (default) or one raw name per line of ``names`` (CSV to ``out``)."""
    entries = load_rankings_task(rankings)
    alias_table = load_aliases_task(aliases)
    if names:
        decisions = match_name_file_task(names, out, entries, alias_table, strategy)
    else:
        decisions = match_board_names_task(db, entries, alias_table, strategy, scope)
    result: dict[str, Any] = {"strategy": strategy, "scope": scope, **summarize(decisions)}
    if review:
        result["review_cases"] = review_rows(decisions)
    print(
        f"match_names ({strategy}): {result['matched']}/{result['names']} matched, "
        f"{result['review']} to review"
    )
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run the match_names flow.")
    parser.add_argument("--rankings", required=True)
    parser.add_argument("--db", default=str(DEFAULT_DB))
    parser.add_argument("--names")
    parser.add_argument("--out")
    parser.add_argument("--aliases")
    parser.add_argument("--strategy", default="fuzzy", choices=("fuzzy", "seed"))
    parser.add_argument("--review", action="store_true")
    args = parser.parse_args()
    print(match_names(**vars(args)))

"""Name matching stage: read the ranking list and the boards' seats, store the decisions.

The matching itself is pure (`ddrank.names`); this stage reads the inputs (ranking list, alias
file, name lists) and the store, and writes `ranking_players` and `player_matches`.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl

from ddrank.names import (
    MatchDecision,
    NameUnit,
    RankingEntry,
    make_matcher,
    match_units,
    parse_aliases,
    parse_rankings,
    units_from_boards,
)
from ddrank.names.coverage import within_scope
from publish.encoding import csv_cell
from store import Store

CSV_COLUMNS = ("raw_name", "ranking_name", "method", "score", "runner_up", "runner_up_score")
_MATCH_SCHEMA = {
    "raw_name": pl.String,
    "context": pl.String,
    "ranking_name": pl.String,
    "method": pl.String,
    "score": pl.Float64,
    "runner_up": pl.String,
    "runner_up_score": pl.Float64,
}
_RANKING_SCHEMA = {
    "ranking_name": pl.String,
    "name": pl.String,
    "code": pl.String,
    "country": pl.String,
    "masterpoints": pl.Float64,
    "placing_points": pl.Float64,
}


def read_text(path: str | Path) -> str:
    """A text file, as UTF-8 or, failing that, Latin-1 (old lists are often Windows-encoded)."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_rankings(path: str | Path) -> list[RankingEntry]:
    entries = parse_rankings(read_text(path))
    if not entries:
        raise ValueError(f"{path}: no players found in the ranking list")
    return entries


def load_aliases(path: str | Path | None) -> dict[str, str]:
    return parse_aliases(read_text(path)) if path else {}


def board_count(store: Store) -> int:
    return int(store.scalar("names_board_count"))


def board_units(store: Store) -> list[NameUnit]:
    """One unit per (raw name, event and year) over every board in the store."""
    return units_from_boards(store.rows("names_board_seats"))


def store_rankings(store: Store, entries: list[RankingEntry]) -> None:
    """Replace `ranking_players` with this list (matches always refer to the latest list)."""
    frame = pl.DataFrame(
        {
            "ranking_name": [e.key for e in entries],
            "name": [e.name for e in entries],
            "code": [e.code for e in entries],
            "country": [e.country for e in entries],
            "masterpoints": [e.masterpoints for e in entries],
            "placing_points": [e.placing_points for e in entries],
        },
        schema=_RANKING_SCHEMA,
    )
    store.run("names_clear_rankings")
    store.insert_frame("ranking_players", frame)


def store_matches(store: Store, decisions: list[MatchDecision]) -> None:
    """Replace `player_matches`: matching is global (context can change any decision)."""
    frame = pl.DataFrame([d.as_row() for d in decisions], schema=_MATCH_SCHEMA)
    store.run("names_clear_matches")
    store.insert_frame("player_matches", frame)


def summarize(decisions: list[MatchDecision]) -> dict[str, Any]:
    methods = Counter(d.method for d in decisions)
    return {
        "names": len(decisions),
        "matched": sum(d.matched for d in decisions),
        "unmatched": sum(not d.matched for d in decisions),
        "methods": dict(sorted(methods.items())),
        "review": sum(d.needs_review for d in decisions),
    }


def review_rows(decisions: list[MatchDecision]) -> list[dict[str, Any]]:
    """Ambiguous names and low-score matches, worst first."""
    rows = [d.as_row() for d in decisions if d.needs_review]
    return sorted(
        rows, key=lambda r: (r["method"] != "ambiguous", r["score"] or 0.0, r["raw_name"])
    )


def match_board_names(
    store: Store,
    entries: list[RankingEntry],
    aliases: dict[str, str] | None = None,
    strategy: str = "fuzzy",
    scope: str = "covered",
) -> list[MatchDecision]:
    """The stage's entry point: resolve every seat name of the stored boards, store the result.

    Only events the list covers keep their matches (`scope`, ddrank.names.coverage): a club
    player keeps the name the file gives."""
    decisions = within_scope(match_units(board_units(store), entries, aliases, strategy), scope)
    store_rankings(store, entries)
    store_matches(store, decisions)
    return decisions


def match_name_list(
    names: list[str],
    entries: list[RankingEntry],
    aliases: dict[str, str] | None = None,
    strategy: str = "fuzzy",
) -> list[MatchDecision]:
    """Resolve a plain list of raw names (no context: each line stands alone)."""
    matcher = make_matcher(entries, strategy, aliases)
    return [matcher.match(name) for name in names]


def decisions_csv(decisions: list[MatchDecision]) -> str:
    """The decisions as CSV text, scores as the matcher gave them (stdout or `--out`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for d in decisions:
        row = d.as_row()
        writer.writerow(["" if row[c] is None else csv_cell(row[c]) for c in CSV_COLUMNS])
    return buffer.getvalue()

"""Name matching tasks: read the ranking list and the boards' seats, store the decisions.

Plain functions do the work (the CLI calls them without a Prefect server); the ``*_task``
wrappers are the flow steps. The matching itself is pure (ddrank.names).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
from prefect import task
from prefect.cache_policies import NO_CACHE

from ddrank.names import (
    MatchDecision,
    NameUnit,
    RankingEntry,
    make_matcher,
    match_units,
    parse_aliases,
    parse_name_lines,
    parse_rankings,
    units_from_boards,
)
from tasks.db import connect

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


def board_units(con: duckdb.DuckDBPyConnection) -> list[NameUnit]:
    """One unit per (raw name, event and year) over every board in the store."""
    rows = con.sql(
        "SELECT event, year, home_team, visit_team, room, northname, eastname, southname, "
        "westname FROM boards ORDER BY record_id"
    ).pl()
    return units_from_boards(rows.iter_rows(named=True))


def store_rankings(con: duckdb.DuckDBPyConnection, entries: list[RankingEntry]) -> None:
    """Replace ``ranking_players`` with this list (matches always refer to the latest list)."""
    df = pl.DataFrame(
        {
            "ranking_name": [e.key for e in entries],
            "name": [e.name for e in entries],
            "code": [e.code for e in entries],
            "country": [e.country for e in entries],
            "masterpoints": [e.masterpoints for e in entries],
            "placing_points": [e.placing_points for e in entries],
        },
        schema={
            "ranking_name": pl.String,
            "name": pl.String,
            "code": pl.String,
            "country": pl.String,
            "masterpoints": pl.Float64,
            "placing_points": pl.Float64,
        },
    )
    con.register("names_new_rankings", df.to_arrow())
    try:
        con.execute("DELETE FROM ranking_players")
        con.execute("INSERT INTO ranking_players SELECT * FROM names_new_rankings")
    finally:
        con.unregister("names_new_rankings")


def store_matches(con: duckdb.DuckDBPyConnection, decisions: list[MatchDecision]) -> None:
    """Replace ``player_matches``: matching is global (context can change any decision)."""
    df = pl.DataFrame([d.as_row() for d in decisions], schema=_MATCH_SCHEMA)
    con.register("names_new_matches", df.to_arrow())
    try:
        con.execute("DELETE FROM player_matches")
        con.execute("INSERT INTO player_matches SELECT * FROM names_new_matches")
    finally:
        con.unregister("names_new_matches")


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
    con: duckdb.DuckDBPyConnection,
    entries: list[RankingEntry],
    aliases: dict[str, str] | None = None,
    strategy: str = "fuzzy",
) -> list[MatchDecision]:
    """Resolve every seat name of the boards in the store and write player_matches."""
    units = board_units(con)
    decisions = match_units(units, entries, aliases, strategy)
    store_rankings(con, entries)
    store_matches(con, decisions)
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
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for d in decisions:
        row = d.as_row()
        writer.writerow(["" if row[c] is None else row[c] for c in CSV_COLUMNS])
    return buffer.getvalue()


# ----------------------------------------------------------------------------- flow steps


@task(name="load-rankings", cache_policy=NO_CACHE)
def load_rankings_task(path: str) -> list[RankingEntry]:
    return load_rankings(path)


@task(name="load-aliases", cache_policy=NO_CACHE)
def load_aliases_task(path: str | None) -> dict[str, str]:
    return load_aliases(path)


@task(name="match-board-names", cache_policy=NO_CACHE)
def match_board_names_task(
    db: str, entries: list[RankingEntry], aliases: dict[str, str], strategy: str
) -> list[MatchDecision]:
    con = connect(db)
    try:
        return match_board_names(con, entries, aliases, strategy)
    finally:
        con.close()


@task(name="match-name-file", cache_policy=NO_CACHE)
def match_name_file_task(
    names_path: str,
    out_path: str | None,
    entries: list[RankingEntry],
    aliases: dict[str, str],
    strategy: str,
) -> list[MatchDecision]:
    decisions = match_name_list(parse_name_lines(read_text(names_path)), entries, aliases, strategy)
    if out_path:
        Path(out_path).write_text(decisions_csv(decisions), encoding="utf-8")
    return decisions

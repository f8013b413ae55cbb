"""Prefect tasks of name matching: thin wrappers over `stages.names`."""

from __future__ import annotations

from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE

from ddrank.names import MatchDecision, RankingEntry, parse_name_lines
from stages.names import (
    decisions_csv,
    load_aliases,
    load_rankings,
    match_board_names,
    match_name_list,
    read_text,
)
from store import Store


@task(name="load-rankings", cache_policy=NO_CACHE)
def load_rankings_task(path: str) -> list[RankingEntry]:
    return load_rankings(path)


@task(name="load-aliases", cache_policy=NO_CACHE)
def load_aliases_task(path: str | None) -> dict[str, str]:
    return load_aliases(path)


@task(name="match-board-names", cache_policy=NO_CACHE)
def match_board_names_task(
    db: str,
    entries: list[RankingEntry],
    aliases: dict[str, str],
    strategy: str,
    scope: str = "covered",
) -> list[MatchDecision]:
    with Store(db) as store:
        return match_board_names(store, entries, aliases, strategy, scope)


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

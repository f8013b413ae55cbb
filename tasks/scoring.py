"""Prefect tasks of event scoring, the Lehman ratings, the bid/play split and the skill ratings.

Thin wrappers over `stages/`: each opens the run's store, calls one stage entry point and closes
it. `score-session` is cached on the session's content hash, so a rerun scores only what changed.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from ddrank.ratings.lehman import LehmanParams
from ddrank.scoring.events import EventInfo, EventResult, EventScores, score_session
from stages import ratings, scoring, skill, split
from stages.scoring import Loaded
from store import Store


@task(name="load-scoring-input", cache_policy=NO_CACHE)
def load_task(db: str) -> tuple[Loaded, dict[str, str]]:
    """The store's table results per event, and what is already scored (event -> hash)."""
    with Store(db) as store:
        return scoring.load_store(store), scoring.scored_events(store)


@task(
    name="score-session",
    cache_key_fn=lambda _ctx, params: f"score-session-{params['content_hash']}",
    cache_expiration=timedelta(days=365),
    persist_result=True,
)
def score_session_task(
    event: str, session: str, results: list[EventResult], info: EventInfo, method: str,
    content_hash: str,
) -> EventScores:  # fmt: skip
    """One session's table scores; cached on its content, so an unchanged session is reused."""
    return score_session(results, info, method)  # type: ignore[arg-type]


@task(name="score-events", cache_policy=NO_CACHE)
def score_events_task(groups: dict[str, list[EventResult]], infos: dict[str, EventInfo],
                      standings: list, events: list[str], method: str,
                      mp_top: float | None) -> dict[str, EventScores]:  # fmt: skip
    """Many events in one task (each as its scorer did: `stages.scoring.score_one`), not a task
    per session."""
    return {ev: scoring.score_one(groups[ev], infos[ev], standings, method, mp_top)
            for ev in events}  # fmt: skip


@task(name="save-scores-and-rate", cache_policy=NO_CACHE)
def save_and_rate_task(db: str, scores: dict[str, EventScores], hashes: dict[str, str],
                       loaded: Loaded, out: str, params: LehmanParams,
                       table_min_boards: int = 30, rate: bool = True) -> dict[str, Any]:  # fmt: skip
    """Store the new scores, update ratings from the first changed period (unless `rate` is
    off), export the CSVs."""
    from publish.scores import write_ratings_csv

    with Store(db) as store:
        scoring.save_scores(store, scores, hashes, loaded.standings)
        summary = scoring.export(store, out, db, loaded.errors)
        summary["ratings"], summary["rating_table"] = {}, []
        if rate:
            summary["ratings"] = ratings.update_ratings(store, params)
            summary["files"].append(str(write_ratings_csv(ratings.ratings_rows(store), out)))
            summary["rating_table"] = ratings.rating_table(store, min_boards=table_min_boards)
        return summary


@task(name="event-rankings", cache_policy=NO_CACHE)
def rankings_task(db: str) -> list[dict[str, Any]]:
    """Every scored event's final ranking, method and agreement (stages.rankings)."""
    from stages.rankings import ranking_summary

    with Store(db) as store:
        return ranking_summary(store)


@task(name="split-imp-events", cache_policy=NO_CACHE)
def split_task(db: str, events: list[str], out: str, min_boards: int = 30) -> dict[str, Any]:
    """Cammarata's bid/play split of the IMP events' boards (matchpoint events have no IMPs)."""
    with Store(db) as store:
        return split.split_imp_events(store, events, Path(out) / "split", min_boards)


@task(name="skill-ratings", cache_policy=NO_CACHE)
def skill_task(db: str, event: str | None = None, full: bool = False) -> dict[str, Any]:
    """The skill ratings of the store's new periods (all of them with `full`)."""
    with Store(db) as store:
        return skill.rate_store(store, event, full)

"""Prefect task of event scoring: one session's scores, cached on the session's content hash, so
a rerun scores only what changed (`stages.scoring_stage` calls it through the flow)."""

from __future__ import annotations

from datetime import timedelta

from prefect import task

from ddrank.scoring.events import EventInfo, EventResult, ScoredEvent, score_session


@task(
    name="score-session",
    cache_key_fn=lambda _ctx, params: f"score-session-{params['content_hash']}",
    cache_expiration=timedelta(days=365),
    persist_result=True,
)
def score_session_task(
    event: str, session: str, results: list[EventResult], info: EventInfo, method: str,
    content_hash: str,
) -> ScoredEvent:  # fmt: skip
    """One session's table scores; cached on its content, so an unchanged session is reused."""
    return score_session(results, info, method)  # type: ignore[arg-type]

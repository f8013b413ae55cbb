"""Flow `skill-ratings`: ddrank's skill ratings (bidding, declarer, defence, opening lead).

Unlike the Lehman ratings of `score-events-and-lehman` (one number per player from the scores),
these rate each part of the game from the scored results and their double-dummy facts, into
`skill_ratings`.
"""

from __future__ import annotations

from typing import Any

from prefect import flow

from store.defaults import DEFAULT_DB
from tasks.scoring import skill_task


@flow(name="skill-ratings")
def skill_ratings(db_path: str = str(DEFAULT_DB), event: str | None = None,
                  full: bool = False) -> dict[str, Any]:  # fmt: skip
    """Rate the store's periods not yet rated (all of them with ``full``) into `skill_ratings`."""
    return skill_task(db_path, event, full)

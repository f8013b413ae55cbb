"""Which events a ranking list covers: only there are players renamed to the list's names.

A ranking list (the WBF's) names the players of championships. A club game's "Jenny Zhou" is not
the list's "J. Zhou", however close the strings: matching a club player renames a stranger. So a
context (event and year) is covered when most of its players are on the list, as in a
championship, or when the user says so (`scope="all"`); elsewhere the names stay as the files
give them. An alias the user wrote is their own decision and holds everywhere.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ddrank.names.types import METHOD_ALIAS, MatchDecision

#: A context is covered when at least this share of its names is on the list.
COVERED_SHARE = 0.5
#: Method stored for a name left as written because the list does not cover its event.
METHOD_NOT_COVERED = "not covered"
SCOPES = ("covered", "all", "none")


def covered_contexts(decisions: Iterable[MatchDecision], share: float = COVERED_SHARE) -> set[str]:
    """The contexts in which at least `share` of the names matched the list."""
    names: dict[str, int] = defaultdict(int)
    matched: dict[str, int] = defaultdict(int)
    for d in decisions:
        names[d.context] += 1
        matched[d.context] += d.matched
    return {c for c, n in names.items() if n and matched[c] >= share * n}


def within_scope(decisions: Sequence[MatchDecision], scope: str = "covered") -> list[MatchDecision]:
    """The decisions with every name outside the list's events left as written (method `not
    covered`, the candidate kept as runner-up for review; the user's aliases still hold).

    `covered`: only the contexts `covered_contexts` finds; `all`: every context; `none`: no
    context."""
    if scope not in SCOPES:
        raise ValueError(f"unknown names scope {scope!r} (use one of {', '.join(SCOPES)})")
    if scope == "all":
        return list(decisions)
    covered = covered_contexts(decisions) if scope == "covered" else set()
    return [d if d.context in covered or (d.matched and d.method == METHOD_ALIAS)
            else replace(d, ranking_name=None, method=METHOD_NOT_COVERED,
                         runner_up=d.ranking_name or d.runner_up,
                         runner_up_score=d.score if d.matched else d.runner_up_score)
            for d in decisions]  # fmt: skip

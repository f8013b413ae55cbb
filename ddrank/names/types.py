"""Value types shared by the name-matching strategies."""

from __future__ import annotations

from dataclasses import dataclass, replace

# Methods stored in player_matches.method
METHOD_ALIAS = "alias"  # the alias file decided
METHOD_SEED = "seed"  # the paper's tuple algorithm
METHOD_FUZZY = "fuzzy"  # name evidence alone, clear winner
METHOD_PARTNER = "context:partner"  # a tie (or no candidate) settled by a known partnership
METHOD_TEAM = "context:team"  # settled like the same raw name in the same team elsewhere
METHOD_COUNTRY = "context:country"  # settled by the team's country (WBF lists with a country)
METHOD_AMBIGUOUS = "ambiguous"  # several candidates, nothing to separate them: left unmatched
METHOD_NONE = "none"  # no acceptable candidate

# A match below this score is listed in the review report even though it was accepted.
REVIEW_SCORE = 90.0


#: Joins the tied candidates of an ambiguous name in ``MatchDecision.runner_up``.
TIE_SEPARATOR = " | "


@dataclass(frozen=True, slots=True)
class NameUnit:
    """One raw name as it appears in one context (event and year), with the evidence around it.

    ``partners`` holds the partner's raw name once per board, so a stable partnership weighs
    more than a one-off substitution. ``teams`` are the team names the player could belong to.
    """

    raw_name: str
    context: str = ""
    teams: tuple[str, ...] = ()
    partners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchDecision:
    """How one raw name in one context was resolved; the row stored in ``player_matches``.

    ``runner_up`` is the best rejected candidate; for an ambiguous name it lists every tied
    candidate, joined by ``TIE_SEPARATOR`` ("Tor Helness | Gunn Helness").
    """

    raw_name: str
    context: str
    ranking_name: str | None
    method: str
    score: float
    runner_up: str | None
    runner_up_score: float | None

    @property
    def matched(self) -> bool:
        return self.ranking_name is not None

    @property
    def needs_review(self) -> bool:
        """Ambiguous names, and accepted matches with a low score or a close runner-up."""
        if self.method == METHOD_AMBIGUOUS:
            return True
        if self.ranking_name is None or self.method in (METHOD_ALIAS, METHOD_SEED):
            return False
        return self.score < REVIEW_SCORE

    def with_context(self, context: str) -> MatchDecision:
        return replace(self, context=context)

    def as_row(self) -> dict[str, object]:
        return {
            "raw_name": self.raw_name,
            "context": self.context,
            "ranking_name": self.ranking_name,
            "method": self.method,
            "score": self.score,
            "runner_up": self.runner_up,
            "runner_up_score": self.runner_up_score,
        }

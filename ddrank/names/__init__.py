"""Player name matching against a ranking list (issue 4).

Pure functions and classes: text or rows in, decisions out. ``seed`` reproduces the paper's tuple
algorithm; ``fuzzy`` (default) adds folding, name orders, initials, nicknames, rapidfuzz scoring
with surname blocking, and context (partnerships, teams, countries) to settle ties.
"""

from ddrank.names.context import board_context, match_units, seat_teams, units_from_boards
from ddrank.names.fuzzy import FuzzyMatcher
from ddrank.names.rankings import (
    RankingEntry,
    alias_key,
    parse_aliases,
    parse_rankings,
    rankings_from_rows,
)
from ddrank.names.seed import SeedMatcher, seed_tuple
from ddrank.names.types import MatchDecision, NameUnit

STRATEGIES = ("fuzzy", "seed")


def parse_name_lines(text: str) -> list[str]:
    """One raw name per line, as written; a blank line is not a name and is skipped."""
    return [line for line in text.splitlines() if line.strip()]


def make_matcher(
    entries: list[RankingEntry], strategy: str = "fuzzy", aliases: dict[str, str] | None = None
) -> FuzzyMatcher | SeedMatcher:
    """The matcher object of a strategy; aliases win in both."""
    if strategy == "seed":
        return SeedMatcher(entries, aliases)
    if strategy == "fuzzy":
        return FuzzyMatcher(entries, aliases)
    raise ValueError(f"unknown strategy {strategy!r} (use one of {', '.join(STRATEGIES)})")


__all__ = [
    "STRATEGIES",
    "FuzzyMatcher",
    "MatchDecision",
    "NameUnit",
    "RankingEntry",
    "SeedMatcher",
    "alias_key",
    "board_context",
    "make_matcher",
    "match_units",
    "parse_aliases",
    "parse_name_lines",
    "parse_rankings",
    "rankings_from_rows",
    "seat_teams",
    "seed_tuple",
    "units_from_boards",
]

"""Resolve raw names in their context: events, teams and stable partnerships.

A raw name is decided once per *unit* (raw name + context, i.e. event and year): every board of
that unit refers to the same player. When the name alone is ambiguous ("Helness": Tor or Gunn)
or points nowhere ("Zia"), three kinds of evidence may settle it, in this order:

1. **Partnerships.** Confident matches elsewhere record which ranking entry played with which
   partner surname ("HELNESS Tor" with "HELGEMO Geir" in the 2013 valet files). A tied unit
   whose partner's surname was seen with exactly one of its candidates takes that candidate.
   A unit with no candidate at all may take its partner's known partner when the raw name is
   one of that player's names ("Zia" next to "Hamman" or "Martel" is Zia Mahmood).
2. **Country**, when the ranking list has one (WBF layout) and a team is named after a country.
3. **Team.** The same raw name in the same team in another event, settled there by 1 or 2.

Rounds repeat while anything changes, so a pair of tied partners ("Levin"/"Weinstein") can settle
each other through a known pairing. Nothing here overrides an alias or a clear name match.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ddrank.names.fuzzy import FuzzyMatcher, Standalone, primary_surname_key
from ddrank.names.rankings import RankingEntry
from ddrank.names.seed import SeedMatcher
from ddrank.names.tokens import key_of
from ddrank.names.types import (
    METHOD_AMBIGUOUS,
    METHOD_COUNTRY,
    METHOD_NONE,
    METHOD_PARTNER,
    METHOD_TEAM,
    MatchDecision,
    NameUnit,
)

SEATS = ("north", "east", "south", "west")
PARTNER_SEAT = {"north": "south", "south": "north", "east": "west", "west": "east"}
# Score given to a name settled only because the partner's known partner carries that name.
PARTNER_ONLY_SCORE = 80.0
MAX_ROUNDS = 4


def board_context(event: str | None, year: int | None) -> str:
    """The context key of a board; ``sql/player_matches.sql`` builds the same string."""
    return f"{(event or '').strip(' ')}|{int(year or 0)}"


def seat_teams(seat: str, room: str | None, home: str | None, visit: str | None) -> tuple[str, ...]:
    """Teams a seat may belong to: open room N-S is the home team, closed room E-W."""
    teams = tuple(t for t in (home, visit) if t)
    room_key = (room or "").strip().lower()
    if len(teams) < 2 or room_key not in ("open", "closed"):
        return teams
    ns = seat in ("north", "south")
    home_seat = ns if room_key == "open" else not ns
    return (home,) if home_seat else (visit,)  # type: ignore[return-value]


def units_from_boards(rows: Iterable[Mapping[str, Any]]) -> list[NameUnit]:
    """Group board seats into units: one per (raw name, context), with partners and teams.

    ``rows`` carry event, year, home_team, visit_team, room and north/east/south/westname.
    The team of a unit is what all its boards agree on (intersection of possible teams).
    """
    partners: dict[tuple[str, str], list[str]] = defaultdict(list)
    teams: dict[tuple[str, str], set[str] | None] = {}
    order: list[tuple[str, str]] = []
    for row in rows:
        context = board_context(row.get("event"), row.get("year"))
        for seat in SEATS:
            raw = row.get(f"{seat}name")
            if raw is None or not str(raw).strip():
                continue
            key = (str(raw), context)
            if key not in teams:
                teams[key] = None
                order.append(key)
            partner = row.get(f"{PARTNER_SEAT[seat]}name")
            if partner is not None and str(partner).strip():
                partners[key].append(str(partner))
            possible = set(
                seat_teams(seat, row.get("room"), row.get("home_team"), row.get("visit_team"))
            )
            if possible:
                teams[key] = possible if teams[key] is None else (teams[key] & possible)  # type: ignore[operator]
    return [
        NameUnit(
            raw,
            context,
            tuple(sorted(teams[(raw, context)] or ())),
            tuple(partners[(raw, context)]),
        )
        for raw, context in order
    ]


def match_units(
    units: Sequence[NameUnit],
    entries: Sequence[RankingEntry],
    aliases: dict[str, str] | None = None,
    strategy: str = "fuzzy",
    matcher: FuzzyMatcher | SeedMatcher | None = None,
) -> list[MatchDecision]:
    """Decide every unit. ``seed`` ignores context, as the paper does; ``fuzzy`` uses it."""
    if strategy == "seed":
        seed = matcher if isinstance(matcher, SeedMatcher) else SeedMatcher(entries, aliases)
        return [seed.match(u.raw_name, u.context) for u in units]
    if strategy != "fuzzy":
        raise ValueError(f"unknown strategy {strategy!r} (use 'fuzzy' or 'seed')")
    fuzzy = matcher if isinstance(matcher, FuzzyMatcher) else FuzzyMatcher(entries, aliases)
    return ContextResolver(fuzzy, units).resolve()


class ContextResolver:
    """Runs the context rounds over a fixed set of units (see module docstring)."""

    def __init__(self, matcher: FuzzyMatcher, units: Sequence[NameUnit]) -> None:
        self.m = matcher
        self.units = list(units)
        self.alone: list[Standalone] = [matcher.standalone(u.raw_name) for u in self.units]
        self.decisions: list[MatchDecision] = [
            a.decision.with_context(u.context) for a, u in zip(self.alone, self.units, strict=True)
        ]
        self.partner_keys: list[Counter[str]] = [
            Counter(k for k in (primary_surname_key(p) for p in u.partners) if k)
            for u in self.units
        ]
        self.country_of = {i: key_of(e.country) for i, e in enumerate(matcher.entries) if e.country}

    def resolve(self) -> list[MatchDecision]:
        for _ in range(MAX_ROUNDS):
            known = self._known_pairs()
            changed = self._by_partnership(known)
            changed |= self._by_country()
            changed |= self._by_team()
            if not changed:
                break
        return self.decisions

    def _known_pairs(self) -> dict[str, Counter[int]]:
        """Partner surname key -> ranking entries seen (matched) next to that surname."""
        known: dict[str, Counter[int]] = defaultdict(Counter)
        for decision, keys in zip(self.decisions, self.partner_keys, strict=True):
            if decision.ranking_name is None:
                continue
            index = self.m.key_of_entry[decision.ranking_name]
            for key, n in keys.items():
                known[key][index] += n
        return known

    def _open(self) -> list[int]:
        """Units still unresolved by name and not pinned by an alias."""
        return [
            i
            for i, d in enumerate(self.decisions)
            if d.ranking_name is None
            and d.method in (METHOD_AMBIGUOUS, METHOD_NONE)
            and self.alone[i].readings
        ]

    def _settle(self, i: int, index: int, method: str, score: float, others: Iterable[int]) -> None:
        others = [o for o in others if o != index]
        runner = self.m.entries[others[0]].key if others else None
        self.decisions[i] = replace(
            self.decisions[i],
            ranking_name=self.m.entries[index].key,
            method=method,
            score=score,
            runner_up=runner,
            runner_up_score=self.decisions[i].score if others else None,
        )

    def _by_partnership(self, known: dict[str, Counter[int]]) -> bool:
        changed = False
        for i in self._open():
            keys = self.partner_keys[i]
            if not keys:
                continue
            seen_with: Counter[int] = Counter()
            for key, n in keys.items():
                for index, count in known.get(key, Counter()).items():
                    seen_with[index] += min(n, count)
            if not seen_with:
                continue
            tied = self.alone[i].tied
            if tied:  # ambiguous: keep only candidates seen with this partner
                supported = [t for t in tied if seen_with[t] > 0]
                if len(supported) == 1:
                    self._settle(i, supported[0], METHOD_PARTNER, self.decisions[i].score, tied)
                    changed = True
                continue
            # no candidate by name: the partner's known partner, if the raw name fits it
            raw = self.units[i].raw_name
            fitting = []
            for index in seen_with:
                score = self.m.score_entry(raw, index)
                if score is not None and score >= PARTNER_ONLY_SCORE:
                    fitting.append((index, score))
                elif self.m.given_token_match(raw, index):
                    fitting.append((index, PARTNER_ONLY_SCORE))
            if len(fitting) == 1:
                self._settle(i, fitting[0][0], METHOD_PARTNER, fitting[0][1], ())
                changed = True
        return changed

    def _by_country(self) -> bool:
        if not self.country_of:
            return False
        changed = False
        for i in self._open():
            tied = self.alone[i].tied
            teams = {key_of(t) for t in self.units[i].teams}
            if not tied or not teams:
                continue
            in_team = [t for t in tied if self.country_of.get(t) in teams]
            if len(in_team) == 1:
                self._settle(i, in_team[0], METHOD_COUNTRY, self.decisions[i].score, tied)
                changed = True
        return changed

    def _by_team(self) -> bool:
        settled: dict[tuple[str, str], set[int]] = defaultdict(set)
        for i, d in enumerate(self.decisions):
            if d.ranking_name is not None and d.method in (METHOD_PARTNER, METHOD_COUNTRY):
                for team in self.units[i].teams:
                    settled[(self.units[i].raw_name, key_of(team))].add(
                        self.m.key_of_entry[d.ranking_name]
                    )
        if not settled:
            return False
        changed = False
        for i in self._open():
            tied = self.alone[i].tied
            if not tied:
                continue
            found: set[int] = set()
            for team in self.units[i].teams:
                found |= settled.get((self.units[i].raw_name, key_of(team)), set())
            found &= set(tied)
            if len(found) == 1:
                self._settle(i, found.pop(), METHOD_TEAM, self.decisions[i].score, tied)
                changed = True
        return changed

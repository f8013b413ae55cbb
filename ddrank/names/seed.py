"""The seed's name matcher, reproduced rule for rule (reference doc §3, dc:580-676).

Each name becomes a multiset of upper-cased *names* and a multiset of *initials* (a 2-character
token ending in "."); ranking names also turn a token wrapped in (...) or '...' into a name.
For every ranking entry the tuple (matched names, matched initials, -unmatched names,
-unmatched initials) is computed and the lexicographic maximum wins; no match when its first value
is 0 or when the maximum is shared.

Two deliberate changes, both for input that is not a name: a raw name without any letter or digit,
or longer than MAX_NAME_LENGTH characters (a corrupt field), gets no match at once. The reference
would tokenise "" into one empty *name* that matches any ranking entry containing a double space
(the real list has three: "Herv  Mouiel", ...), so an empty seat could be given to a real player;
and a 10 kB field repeating "Balicki" would be matched to Cezary Balicki.

Speed without changing results: an entry that shares no name token with the raw name has
mN == 0 and can never be the winning tuple, so only entries found through an inverted index of
name tokens are scored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.names.rankings import RankingEntry, alias_key, resolve_aliases
from ddrank.names.tokens import MAX_NAME_LENGTH
from ddrank.names.types import METHOD_ALIAS, TIE_SEPARATOR, MatchDecision

SeedTuple = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class SeedTokens:
    """The seed's view of a name: multisets of names and initials, in first-appearance order."""

    names: Counter[str]
    initials: Counter[str]


def seed_tokens(name: str, ranking_side: bool) -> SeedTokens:
    """Tokenise like the reference: split on single spaces; nicknames only on the ranking side."""
    names: list[str] = []
    initials: list[str] = []
    for token in name.split(" "):
        if len(token) == 2 and token[1] == ".":
            initials.append(token[0].upper())
        elif ranking_side and (
            (token.startswith("(") and token.endswith(")"))
            or (token.startswith("'") and token.endswith("'"))
        ):
            names.append(token[1:-1].upper())
        else:
            names.append(token.upper())
    return SeedTokens(Counter(names), Counter(initials))


def seed_tuple(raw: SeedTokens, entry: SeedTokens) -> SeedTuple:
    """Score one ranking entry against a raw name exactly as dc:640-668 does."""
    matched_names = entry.names & raw.names
    matched_initials = entry.initials & raw.initials
    n_names = sum(matched_names.values())
    n_initials = sum(matched_initials.values())
    available = list((raw.initials - matched_initials).elements())
    for name in (entry.names - matched_names).elements():
        for initial in available:
            if name.startswith(initial):
                n_initials += 1
                matched_names[name] += 1
                matched_initials[initial] += 1
                available.remove(initial)
                break
    unmatched_names = -sum((entry.names - matched_names).values())
    unmatched_initials = -sum((entry.initials - matched_initials).values())
    return (n_names, n_initials, unmatched_names, unmatched_initials)


class SeedMatcher:
    """The seed strategy over one ranking list, with the reference's per-string cache."""

    def __init__(
        self, entries: Sequence[RankingEntry], aliases: dict[str, str] | None = None
    ) -> None:
        self.entries = list(entries)
        self.aliases = resolve_aliases(self.entries, aliases or {})
        self._tokens = [seed_tokens(e.name, ranking_side=True) for e in self.entries]
        self._by_name: dict[str, list[int]] = {}
        for i, tokens in enumerate(self._tokens):
            for name in tokens.names:
                self._by_name.setdefault(name, []).append(i)
        self._cache: dict[str, MatchDecision] = {}

    def match(self, raw_name: str, context: str = "") -> MatchDecision:
        """Decide one raw name; the decision does not depend on context in the seed."""
        cached = self._cache.get(raw_name)
        if cached is None:
            cached = self._decide(raw_name)
            self._cache[raw_name] = cached
        return cached if cached.context == context else cached.with_context(context)

    def _decide(self, raw_name: str) -> MatchDecision:
        akey = alias_key(raw_name)
        if akey in self.aliases:  # the alias file always wins, whatever the strategy
            return MatchDecision(raw_name, "", self.aliases[akey], METHOD_ALIAS, 100.0, None, None)
        if len(raw_name) > MAX_NAME_LENGTH or not any(ch.isalnum() for ch in raw_name):
            return MatchDecision(raw_name, "", None, "none", 0.0, None, None)
        raw = seed_tokens(raw_name, ranking_side=False)
        candidates: set[int] = set()
        for name in raw.names:
            candidates.update(self._by_name.get(name, ()))
        if not candidates:
            return MatchDecision(raw_name, "", None, "none", 0.0, None, None)
        scored = sorted(
            ((seed_tuple(raw, self._tokens[i]), i) for i in candidates),
            key=lambda t: (t[0], -t[1]),
            reverse=True,
        )
        best_tuple, best_i = scored[0]
        runner = scored[1] if len(scored) > 1 else None
        runner_name = self.entries[runner[1]].key if runner else None
        runner_score = float(runner[0][0]) if runner else None
        if runner is not None and runner[0] == best_tuple:
            tied = [self.entries[i].key for t, i in scored if t == best_tuple]
            return MatchDecision(
                raw_name,
                "",
                None,
                "ambiguous",
                float(best_tuple[0]),
                TIE_SEPARATOR.join(tied),
                runner_score,
            )
        return MatchDecision(
            raw_name,
            "",
            self.entries[best_i].key,
            "seed",
            float(best_tuple[0]),
            runner_name,
            runner_score,
        )

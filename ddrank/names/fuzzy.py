"""The default strategy: name evidence scored with rapidfuzz, surname blocking, margins.

For each reading of a raw name (see :mod:`ddrank.names.tokens`) candidate entries are found
through their surname keys only: an exact key lookup, a prefix scan for cut-short names and a
rapidfuzz ratio search inside the block of keys that share the first letter. Each candidate gets

* a surname score ``s`` (100 exact, 95 prefix, else the rapidfuzz ratio), times the key weights;
* a given-name score ``g`` from full names (nicknames and spelling variants), joined spellings
  and initials. A given name or initial that contradicts the entry removes the candidate.

The total is ``0.55 s + 0.45 g``, or ``0.9 s`` when the raw name has no given part, so a bare
surname never scores above 90. A match needs a total of at least ``ACCEPT`` and a lead of
``MARGIN`` over every other entry; otherwise the name is *ambiguous* (or has no candidate) and
stays unmatched unless the context step can settle it. Precision comes first: a wrong match
charges one player with another's mistakes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from ddrank.names.nicknames import same_given_name
from ddrank.names.rankings import RankingEntry, alias_key, resolve_aliases
from ddrank.names.tokens import EntryName, Reading, SurnameKey, parse_entry, parse_raw
from ddrank.names.types import (
    METHOD_ALIAS,
    METHOD_AMBIGUOUS,
    METHOD_FUZZY,
    METHOD_NONE,
    TIE_SEPARATOR,
    MatchDecision,
)

ACCEPT = 85.0  # lowest total score that can be accepted
MARGIN = 4.0  # lead needed over the runner-up
SURNAME_CUTOFF = 85.0  # rapidfuzz ratio below which a surname is not a candidate at all
FUZZY_SURNAME_NEEDS_GIVEN = 90.0  # a surname below this ratio needs a near-certain given name
GIVEN_CONFLICT = 82.0  # full given names scoring below this contradict each other (Liping/Ping: 80)
PREFIX_MIN = 4  # shortest cut-short surname used as a prefix


@dataclass(frozen=True, slots=True)
class Candidate:
    """One entry's best score for a raw name, and whether the surname alone supports it."""

    index: int
    score: float
    strong: bool  # surname matched through a key allowed to stand on its own


@dataclass(frozen=True, slots=True)
class Standalone:
    """The name-only verdict for one raw string, before context is considered."""

    decision: MatchDecision
    tied: tuple[int, ...]  # entry indexes within MARGIN of the best (ambiguous case)
    readings: tuple[Reading, ...]


def _similar(a: str, b: str) -> float:
    """rapidfuzz ratio, where ``?`` in ``b`` (an accent the list lost) matches one letter."""
    if not a or not b:
        return 0.0
    if "?" in b:
        pattern = re.escape(b).replace(r"\?", "[a-z]")
        if re.fullmatch(pattern, a):
            return 97.0
        b = b.replace("?", "")
    return fuzz.ratio(a, b)


def _name_similarity(a: str, b: str) -> float:
    if same_given_name(a, b.replace("?", "")):
        return 100.0
    score = _similar(a, b)
    short, long_ = sorted((a, b.replace("?", "")), key=len)
    if len(short) >= 3 and long_.startswith(short):
        score = max(score, 90.0)
    return score


def given_score(
    reading: Reading, entry: EntryName, middle_is_surname: bool = False
) -> float | None:
    """Given-name agreement in [0, 100]; None when either side has nothing to compare; -1 conflict.

    With ``middle_is_surname`` the entry's last given token served as surname and is left out.
    """
    entry_given = entry.given[:-1] if middle_is_surname and entry.given else entry.given
    if not reading.has_given or not (entry_given or entry.initials or entry.nicknames):
        return None
    raw_names = reading.given + reading.nicknames
    entry_names = entry_given + entry.nicknames
    best = -1.0
    if raw_names and entry_names:
        for r in raw_names:
            for e in entry_names:
                best = max(best, _name_similarity(r, e))
        best = max(best, _similar(reading.given_joined, entry.given_joined))
        if best < GIVEN_CONFLICT:
            return -1.0
    elif raw_names and not entry_names:  # entry has initials only ("M. S. Wu")
        letters = entry.initials
        return 80.0 if raw_names[0][0] == letters[0] else -1.0
    if reading.initials:
        firsts = [n[0] for n in entry_given if n] + list(entry.initials)
        if not firsts:
            return best if best >= 0 else None
        initial = reading.initials[0]
        if initial == firsts[0]:
            init_score = 85.0
        elif initial in firsts:
            init_score = 80.0
        else:
            return -1.0
        if not raw_names:
            return init_score
    return best


class FuzzyMatcher:
    """The fuzzy strategy over one ranking list; results per raw string are cached."""

    def __init__(
        self, entries: Sequence[RankingEntry], aliases: dict[str, str] | None = None
    ) -> None:
        self.entries = list(entries)
        self.names: list[EntryName] = [parse_entry(e) for e in self.entries]
        self.by_key: dict[str, list[tuple[int, SurnameKey]]] = {}
        self.key_of_entry = {e.key: i for i, e in enumerate(self.entries)}
        for i, name in enumerate(self.names):
            for k in name.surnames:
                self.by_key.setdefault(k.key, []).append((i, k))
        self.blocks: dict[str, list[str]] = {}
        for key in self.by_key:
            self.blocks.setdefault(key[:1], []).append(key)
        self.aliases = resolve_aliases(self.entries, aliases or {})
        self._cache: dict[str, Standalone] = {}

    # ------------------------------------------------------------------ candidates

    def _lookup(self, key: str, truncated: bool) -> list[tuple[str, float]]:
        """Entry keys near a raw surname key, with their surname score."""
        found: dict[str, float] = {}
        if key in self.by_key:
            found[key] = 100.0
        block = self.blocks.get(key[:1], [])
        if truncated and len(key) >= PREFIX_MIN:
            for k in block:
                if k.startswith(key) and k != key:
                    found[k] = max(found.get(k, 0.0), 95.0)
        if len(key) >= 4 and block:
            for k, score, _ in process.extract(
                key, block, scorer=fuzz.ratio, score_cutoff=SURNAME_CUTOFF, limit=None
            ):
                if score > found.get(k, 0.0):
                    found[k] = score
        return list(found.items())

    def candidates(self, readings: Sequence[Reading]) -> list[Candidate]:
        """Every entry that some reading supports, with its best total score."""
        best: dict[int, Candidate] = {}
        for reading in readings:
            for raw_key in reading.surnames:
                for entry_key, s_raw in self._lookup(raw_key.key, reading.truncated):
                    for i, e_key in self.by_key[entry_key]:
                        s = s_raw * raw_key.weight * e_key.weight
                        strong = raw_key.strong and e_key.strong
                        total = self._total(reading, self.names[i], s, s_raw, strong, e_key.middle)
                        if total is None:
                            continue
                        old = best.get(i)
                        if old is None or total > old.score:
                            best[i] = Candidate(i, total, strong)
        return sorted(best.values(), key=lambda c: (-c.score, c.index))

    def _total(
        self,
        reading: Reading,
        entry: EntryName,
        s: float,
        s_raw: float,
        strong: bool,
        middle: bool = False,
    ) -> float | None:
        g = given_score(reading, entry, middle)
        if g is not None and g < 0:
            return None  # contradicting given name or initial
        if g is None:
            if not strong or s_raw < 95.0:
                return None  # a bare surname must be (nearly) exact and a real surname
            total = 0.9 * s
        else:
            if s_raw < FUZZY_SURNAME_NEEDS_GIVEN and g < 95.0:
                return None
            if reading.weight < 1.0 and g < 90.0:
                return None  # swapped order needs a clearly matching given name
            total = 0.55 * s + 0.45 * g
        return round(total * reading.weight, 2)

    # ------------------------------------------------------------------ decisions

    def standalone(self, raw_name: str) -> Standalone:
        """Decide one raw name from its own letters (aliases first); cached per string."""
        cached = self._cache.get(raw_name)
        if cached is None:
            cached = self._decide(raw_name)
            self._cache[raw_name] = cached
        return cached

    def match(self, raw_name: str, context: str = "") -> MatchDecision:
        return self.standalone(raw_name).decision.with_context(context)

    def _decide(self, raw_name: str) -> Standalone:
        akey = alias_key(raw_name)
        if akey in self.aliases:
            decision = MatchDecision(
                raw_name, "", self.aliases[akey], METHOD_ALIAS, 100.0, None, None
            )
            return Standalone(decision, (), ())
        readings = parse_raw(raw_name)
        if not readings:
            return Standalone(
                MatchDecision(raw_name, "", None, METHOD_NONE, 0.0, None, None), (), ()
            )
        cands = self.candidates(readings)
        if not cands:
            return Standalone(
                MatchDecision(raw_name, "", None, METHOD_NONE, 0.0, None, None), (), readings
            )
        best = cands[0]
        runner = cands[1] if len(cands) > 1 else None
        runner_key = self.entries[runner.index].key if runner else None
        runner_score = runner.score if runner else None
        if best.score < ACCEPT:
            decision = MatchDecision(
                raw_name,
                "",
                None,
                METHOD_NONE,
                best.score,
                self.entries[best.index].key,
                best.score,
            )
            return Standalone(decision, (), readings)
        tied = tuple(c.index for c in cands if best.score - c.score < MARGIN)
        if len(tied) > 1:
            # every tied candidate, so a reviewer sees both "Tor Helness" and "Gunn Helness"
            decision = MatchDecision(
                raw_name,
                "",
                None,
                METHOD_AMBIGUOUS,
                best.score,
                TIE_SEPARATOR.join(self.entries[i].key for i in tied),
                runner_score,
            )
            return Standalone(decision, tied, readings)
        decision = MatchDecision(
            raw_name,
            "",
            self.entries[best.index].key,
            METHOD_FUZZY,
            best.score,
            runner_key,
            runner_score,
        )
        return Standalone(decision, (best.index,), readings)

    def score_entry(self, raw_name: str, index: int) -> float | None:
        """Score one given entry against a raw name, bypassing blocking (used by the context step)."""
        readings = parse_raw(raw_name)
        entry = self.names[index]
        best: float | None = None
        for reading in readings:
            for raw_key in reading.surnames:
                for k in entry.surnames:
                    s_raw = _similar(raw_key.key, k.key)
                    if reading.truncated and k.key.startswith(raw_key.key):
                        s_raw = max(s_raw, 95.0)
                    if s_raw < SURNAME_CUTOFF:
                        continue
                    total = self._total(
                        reading,
                        entry,
                        s_raw * raw_key.weight * k.weight,
                        s_raw,
                        raw_key.strong and k.strong,
                        k.middle,
                    )
                    if total is not None and (best is None or total > best):
                        best = total
        return best

    def given_token_match(self, raw_name: str, index: int) -> bool:
        """A one-word raw name equal to one of the entry's names ("Zia" for Zia Mahmood).

        Weak evidence, only used when a known partnership already points at this entry.
        """
        readings = parse_raw(raw_name)
        if len(readings) != 1 or readings[0].has_given:
            return False
        words = {k.key for k in readings[0].surnames if k.weight == 1.0}
        return bool(words & self.names[index].tokens)


def primary_surname_key(raw_name: str) -> str:
    """The surname key of a raw name's most likely reading ('' when there is none)."""
    readings = parse_raw(raw_name)
    if not readings or not readings[0].surnames:
        return ""
    return readings[0].surnames[0].key

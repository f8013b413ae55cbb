"""The skill states the skill ratings stage holds while rating (`stages.skill.rate_store`).

A plain dict of `SkillState`s made every period's surviving states new small objects (a key
tuple, its name strings, a state and its floats) scattered among that period's freed ones, so the
process's heap grew well beyond the states it held: at 1M generated results (132,267 states)
the rating loop's RSS climbed about 70 MB (issue 37). Here each skill keeps one slot for the
whole run: its key is stored once, when first met, and its numbers are written in place into
flat arrays, so a period leaves no new objects behind. The numbers are the same floats (a
double in an array is the float itself), so the ratings are the same to the last bit.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping

from ddrank.ratings import skill as sk


class StateTable(Mapping[sk.Key, sk.SkillState]):
    """Skill states by key: a `Mapping` that `ddrank.ratings.skill.period_states` reads."""

    def __init__(self) -> None:
        self._slot: dict[sk.Key, int] = {}
        self._mean = array("d")
        self._var = array("d")
        self._boards = array("q")
        self._last = array("q")

    def __getitem__(self, key: sk.Key) -> sk.SkillState:
        i = self._slot[key]
        return sk.SkillState(self._mean[i], self._var[i], self._boards[i], self._last[i])

    def get(self, key: sk.Key, default: sk.SkillState | None = None) -> sk.SkillState | None:  # type: ignore[override]
        i = self._slot.get(key)
        if i is None:
            return default
        return sk.SkillState(self._mean[i], self._var[i], self._boards[i], self._last[i])

    def __contains__(self, key: object) -> bool:
        return key in self._slot

    def __iter__(self) -> Iterator[sk.Key]:
        return iter(self._slot)

    def __len__(self) -> int:
        return len(self._slot)

    def put(self, key: sk.Key, s: sk.SkillState) -> None:
        """Hold `s` as `key`'s state (a key already held keeps its slot and its key object)."""
        i = self._slot.get(key)
        if i is None:
            self._slot[key] = len(self._mean)
            self._mean.append(s.mean)
            self._var.append(s.var)
            self._boards.append(s.boards)
            self._last.append(s.last_period)
            return
        self._mean[i], self._var[i] = s.mean, s.var
        self._boards[i], self._last[i] = s.boards, s.last_period

    def keep_recent(self, n: int) -> None:
        """Drop all but the `n` most recently rated states (by their last period, then key: the
        order in which a dict updated period by period in sorted key order would hold them)."""
        order = sorted(self._slot, key=lambda k: (self._last[self._slot[k]], k))
        kept = order[len(order) - n :] if n > 0 else []
        old = (self._slot, self._mean, self._var, self._boards, self._last)
        self.__init__()  # type: ignore[misc]
        for k in kept:
            i = old[0][k]
            self.put(k, sk.SkillState(old[1][i], old[2][i], old[3][i], old[4][i]))

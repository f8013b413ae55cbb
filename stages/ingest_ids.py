"""The record ids one ingest has spooled, kept compact (issue 37).

An ingest keeps every id it has written so far, to leave out a record a later file repeats. As a
Python set of ints those ids cost about 78 MB at 1M records, and, being small objects made among
each batch's short-lived records, they kept more of the heap resident than that: the ingest
stage's own peak at 1M generated results was 641 MB with the set and 512 MB without it. Here the
newest ids are a Python set; each time it holds `SET_IDS` of them, its ids (20 hex digits: 80
bits) move into a sorted numpy run, 10 bytes an id, and runs of similar size are merged, so a
batch is looked up in a few vectorised searches. numpy is imported only then: a small ingest never
pays for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Ids kept in the Python set before they move into a sorted run (about 8 MB of set at most).
SET_IDS = 100_000

Key = int | str  # a regular record id as its number (stages.ingest._key), any other as its text


class SeenIds:
    """A set of record keys: `among` (which of a batch are held), `update`, `difference_update`."""

    def __init__(self) -> None:
        self._set: set[Key] = set()
        self._runs: list[tuple[Any, Any]] = []  # (high 64 bits, low 16 bits), sorted by high

    def __len__(self) -> int:
        return len(self._set) + sum(len(hi) for hi, _ in self._runs)

    def among(self, keys: list[Key]) -> set[Key]:
        """The keys of `keys` this set holds."""
        held = {k for k in keys if k in self._set}
        numbers = [k for k in keys if isinstance(k, int) and k not in held]
        if numbers and self._runs:
            hi, lo = _split(numbers)
            found = _found(self._runs, hi, lo)
            held.update(k for k, f in zip(numbers, found.tolist(), strict=True) if f)
        return held

    def update(self, keys: Iterable[Key]) -> None:
        self._set.update(keys)
        if len(self._set) >= SET_IDS:
            self._compact()

    def difference_update(self, keys: Iterable[Key]) -> None:
        gone = set(keys)
        self._set -= gone
        numbers = [k for k in gone if isinstance(k, int)]
        if numbers and self._runs:
            ghi, glo = _sorted(*_split(numbers))
            runs = [(rhi[keep], rlo[keep]) for rhi, rlo in self._runs
                    for keep in [~_held_by_run(ghi, glo, rhi, rlo)]]  # fmt: skip
            self._runs = [run for run in runs if len(run[0])]

    def _compact(self) -> None:
        """The set's numeric ids become a sorted run; runs of similar size are merged (each id is
        merged about log2(n / SET_IDS) times)."""
        import numpy as np

        numbers = [k for k in self._set if isinstance(k, int)]
        self._set = {k for k in self._set if not isinstance(k, int)}
        if not numbers:
            return
        self._runs.append(_sorted(*_split(numbers)))
        while len(self._runs) > 1 and len(self._runs[-2][0]) < 2 * len(self._runs[-1][0]):
            (h1, l1), (h2, l2) = self._runs.pop(), self._runs.pop()
            self._runs.append(_sorted(np.concatenate([h2, h1]), np.concatenate([l2, l1])))


def _split(numbers: list[int]) -> tuple[Any, Any]:
    """80-bit ids as their high 64 bits (uint64) and low 16 bits (uint16)."""
    import numpy as np

    n = len(numbers)
    hi = np.fromiter((k >> 16 for k in numbers), dtype=np.uint64, count=n)
    lo = np.fromiter((k & 0xFFFF for k in numbers), dtype=np.uint16, count=n)
    return hi, lo


def _sorted(hi: Any, lo: Any) -> tuple[Any, Any]:
    import numpy as np

    order = np.argsort(hi, kind="stable")
    return hi[order], lo[order]


def _found(runs: list[tuple[Any, Any]], hi: Any, lo: Any) -> Any:
    """For each (hi, lo) of the query, whether some run holds it."""
    import numpy as np

    found = np.zeros(len(hi), dtype=bool)
    for rhi, rlo in runs:
        found |= _held_by_run(rhi, rlo, hi, lo)
    return found


def _held_by_run(rhi: Any, rlo: Any, hi: Any, lo: Any) -> Any:
    """Whether each query id (hi, lo) is in the run (rhi, rlo: sorted by rhi)."""
    import numpy as np

    left = np.searchsorted(rhi, hi, side="left")
    right = np.searchsorted(rhi, hi, side="right")
    held = np.zeros(len(hi), dtype=bool)
    one = np.flatnonzero(right - left == 1)
    held[one] = rlo[left[one]] == lo[one]
    for i in np.flatnonzero(right - left > 1):  # two ids with the same high 64 bits: rare
        held[i] = bool((rlo[left[i] : right[i]] == lo[i]).any())
    return held

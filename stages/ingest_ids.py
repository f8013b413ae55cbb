"""The record ids one ingest has spooled, kept compact (issue 37).

An ingest keeps every id it has written so far, to leave out a record a later file repeats. As a
Python set those ids cost about 78 MB at 1M records (as ints; more as text), and, being small
objects made among each batch's short-lived records, they kept more of the heap resident than
that: the ingest stage's own peak at 1M generated results was 641 MB with the set and 512 MB with
none (load 10-15). Here the newest ids are a Python set; each time it holds `SET_IDS` of them,
its ids (20 hex digits: 80 bits) move into a sorted numpy run, 10 bytes an id, and runs of
similar size are merged, so a batch is looked up in a few vectorised searches. numpy is imported
only then: a small ingest never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Ids kept in the Python set before they move into a sorted run (about 10 MB of set at most).
SET_IDS = 100_000
#: An id as 80 bits: its high 64 and low 16, big-endian as its hex digits read.
_ID = [("hi", ">u8"), ("lo", ">u2")]


class SeenIds:
    """A set of record ids: `among` (which of a batch are held), `update`, `difference_update`.
    Ids that are not 20 hex digits stay in the Python set."""

    def __init__(self) -> None:
        self._set: set[str] = set()
        self._runs: list[tuple[Any, Any]] = []  # (high 64 bits, low 16 bits), sorted by high

    def __len__(self) -> int:
        return len(self._set) + sum(len(hi) for hi, _ in self._runs)

    def among(self, ids: list[str]) -> set[str]:
        """The ids of `ids` this set holds."""
        held = {r for r in ids if r in self._set}
        if self._runs and ids:
            regular, hi, lo = _split(ids)
            found = _found(self._runs, hi, lo)
            held.update(r for r, f in zip(regular, found.tolist(), strict=True) if f)
        return held

    def update(self, ids: Iterable[str]) -> None:
        self._set.update(ids)
        if len(self._set) >= SET_IDS:
            self._compact()

    def difference_update(self, ids: Iterable[str]) -> None:
        gone = set(ids)
        self._set -= gone
        if gone and self._runs:
            _, ghi, glo = _split(list(gone))
            ghi, glo = _sorted(ghi, glo)
            runs = [(rhi[keep], rlo[keep]) for rhi, rlo in self._runs
                    for keep in [~_found([(ghi, glo)], rhi, rlo)]]  # fmt: skip
            self._runs = [run for run in runs if len(run[0])]

    def _compact(self) -> None:
        """The set's regular ids become a sorted run; runs of similar size are merged (each id
        is merged about log2(n / SET_IDS) times)."""
        import numpy as np

        regular, hi, lo = _split(list(self._set))
        self._set.difference_update(regular)
        self._runs.append(_sorted(hi, lo))
        while len(self._runs) > 1 and len(self._runs[-2][0]) < 2 * len(self._runs[-1][0]):
            (h1, l1), (h2, l2) = self._runs.pop(), self._runs.pop()
            self._runs.append(_sorted(np.concatenate([h2, h1]), np.concatenate([l2, l1])))


def _split(ids: list[str]) -> tuple[list[str], Any, Any]:
    """The ids that are 20 hex digits, and their high 64 and low 16 bits (uint64, uint16)."""
    import numpy as np

    regular: list[str] | None = None
    if all(len(r) == 20 for r in ids):
        try:
            raw = bytes.fromhex("".join(ids))
            regular = ids if len(raw) == 10 * len(ids) else None  # (no whitespace in an id)
        except ValueError:
            pass
    if regular is None:  # some id of another form
        regular = [r for r in ids if len(r) == 20 and _is_hex(r)]
        raw = bytes.fromhex("".join(regular))
    both = np.frombuffer(raw, dtype=_ID)
    return regular, both["hi"].astype(np.uint64), both["lo"].astype(np.uint16)


def _is_hex(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 10
    except ValueError:
        return False


def _sorted(hi: Any, lo: Any) -> tuple[Any, Any]:
    import numpy as np

    order = np.argsort(hi, kind="stable")
    return hi[order], lo[order]


def _found(runs: list[tuple[Any, Any]], hi: Any, lo: Any) -> Any:
    """For each id (hi, lo) of the query, whether some run (sorted by its hi) holds it."""
    import numpy as np

    order = np.argsort(hi, kind="stable")  # sorted queries: the searches walk the run in order
    qhi, qlo = hi[order], lo[order]
    found = np.zeros(len(qhi), dtype=bool)
    for rhi, rlo in runs:
        at = np.searchsorted(rhi, qhi, side="left")
        while True:  # the run's ids with the query's high bits (more than one: rare)
            inside = at < len(rhi)
            same = np.zeros(len(qhi), dtype=bool)
            same[inside] = rhi[at[inside]] == qhi[inside]
            if not same.any():
                break
            found[same] |= rlo[at[same]] == qlo[same]
            at = at + 1
    out = np.empty_like(found)
    out[order] = found
    return out

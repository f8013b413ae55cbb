"""A board's frequency table: each score, how many tables got it, and what it was worth to each
side (matchpoints, or IMPs against the field), as the scoring stage scored it.

Equal scores of one board are worth the same to every table that got them, except on a fouled
board (its groups are scored apart): a score is then listed once per value. Adjusted scores and
lines that were not played are counted on their own lines, below the played scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.site.data import Row
from ddrank.site.ranking import number
from ddrank.site.traveller import status


@dataclass
class Frequency:
    ns_score: int | None  # None for an adjusted score or a line not played
    label: str  # what the line is when there is no score ('Adjusted 60% / 40%')
    count: int
    ns_value: float | None  # matchpoints, or IMPs
    ew_value: float | None


def frequencies(rows: list[Row], mp: bool) -> list[Frequency]:
    """The board's scores, North-South's best first; then adjusted and unplayed lines."""
    groups: dict[tuple, Frequency] = {}
    for r in rows:
        st = r.get("scored") or {}
        kind, words = status(r)
        if mp:
            ns_v, ew_v = number(st.get("ns_mp")), number(st.get("ew_mp"))
        else:
            imps = number(st.get("butler") if st.get("butler") is not None else st.get("imps"))
            ns_v, ew_v = imps, None if imps is None else -imps
        score = None if kind else r.get("ns_points")
        label = words if kind else ""
        key = (score, label, _round(ns_v), _round(ew_v))
        f = groups.get(key)
        if f is None:
            groups[key] = Frequency(score, label, 1, ns_v, ew_v)
        else:
            f.count += 1
    return sorted(groups.values(), key=lambda f: (f.ns_score is None, -(f.ns_score or 0),
                                                  f.label, -(f.ns_value or 0)))  # fmt: skip


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)

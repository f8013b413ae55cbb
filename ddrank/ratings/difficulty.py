"""DD evidence weighted by the board's difficulty (a variant of the skill rating, issue 21).

A trick that the whole field lost on a deal says little about the one player who lost it too.
Each table's *board reference* is the leave-one-out mean of a quantity at the other tables of
the same board (same deal, same field): the declarer's tricks over DD after the lead, their size
(|tricks over DD - mean|), the opening lead's DD cost, the declarer's own per-card DD cost and a
defender's per-card DD cost. The skill model (`ddrank.ratings.skill`) then centres each DD
observation partly on the board reference instead of the field-wide mean, and widens its noise
on boards where the field lost much:

    centre = (1 - l) x field-wide mean + l x board reference
    sd     = base sd x sqrt(1 + a x board reference of the cost's size)

with l = `SkillParams.difficulty_centre` and a = `SkillParams.difficulty_noise` (both 0 by
default: the observation is v1's, bit for bit). Pure: no I/O.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple


class FieldRef(NamedTuple):
    """Leave-one-out means over the other tables of the same board (None: no other table)."""

    play: float | None = None  # declarer's tricks over DD after the lead
    play_size: float | None = None  # |tricks over DD - play_mean|
    lead: float | None = None  # the opening lead's DD cost
    declarer_cost: float | None = None  # the declarer's own per-card DD cost
    defence_cost: float | None = None  # one defender's per-card DD cost


def centre(mean: float, ref: float | None, weight: float) -> float:
    """The expected value an observation is measured against."""
    if ref is None or not weight:
        return mean
    return (1.0 - weight) * mean + weight * ref


def widen(sd: float, size: float | None, noise: float) -> float:
    """The observation's noise sd on a board whose field lost `size` on average."""
    if size is None or not noise:
        return sd
    return sd * math.sqrt(1.0 + noise * max(size, 0.0))


def _loo(values: Sequence[tuple[int, float]], n_tables: int) -> list[float | None]:
    """Per table: the mean of the values at the other tables (a table may give several)."""
    total = sum(v for _, v in values)
    count = len(values)
    own_sum = [0.0] * n_tables
    own_n = [0] * n_tables
    for k, v in values:
        own_sum[k] += v
        own_n[k] += 1
    out: list[float | None] = []
    for k in range(n_tables):
        n = count - own_n[k]
        out.append((total - own_sum[k]) / n if n > 0 else None)
    return out


def field_refs(boards: Sequence[Any], groups: Sequence[Hashable], play_mean: float) -> list:
    """The board reference of every table (`FieldRef`), grouped by `groups` (the board key).

    `boards` are `SkillBoard`s; a board played at one table gets None (v1's observation).
    """
    by: dict[Hashable, list[int]] = defaultdict(list)
    for i, g in enumerate(groups):
        by[g].append(i)
    out: list[FieldRef | None] = [None] * len(boards)
    for idx in by.values():
        if len(idx) < 2:
            continue
        bs = [boards[i] for i in idx]
        n = len(bs)
        play = [(k, float(b.play_tricks)) for k, b in enumerate(bs) if b.play_tricks is not None]
        size = [(k, abs(v - play_mean)) for k, v in play]
        lead = [(k, float(b.lead_cost)) for k, b in enumerate(bs) if b.lead_cost is not None]
        dec = [(k, float(b.declarer_cost)) for k, b in enumerate(bs) if b.declarer_cost is not None]
        dfc = [
            (k, float(c)) for k, b in enumerate(bs) if b.defence_costs for _, c in b.defence_costs
        ]
        cols = [_loo(v, n) for v in (play, size, lead, dec, dfc)]
        for k, i in enumerate(idx):
            out[i] = FieldRef(*(c[k] for c in cols))
    return out

"""How an IMP pairs event is scored, as its scorer did: the rule (`ImpRule`) and one board's IMPs.

IMP pairs events come in two families, and scorers differ inside each:

* **cross-IMPs**: each result against every other result of its board. Published as the
  *average* per comparison (`sum / (n - 1)`) or as the *sum* ("Total IMPs").
* **Butler**: each result against a *datum*, the mean of the board's results after dropping the
  extremes: how many at each end (one with few tables, 5%, or as a PBN declares
  `Butler-N`), a `Median` instead of the mean, and the rounding to 10 points (half away from zero,
  or half to even: 425 -> 420).

An artificial score (A+ 60%, A- 40%) is worth a number of IMPs per % above average: 0.3 (A+ = +3
IMPs) by the EBU's rule and others', per comparison when cross-IMPs are summed ("AVE+ 3 IMPs
x (number of results - 1)"). A file may define its own rate through its published adjusted lines
(ddrank.scoring.choice.impchoice reads it).

Which rule an event was scored by comes from what the file declares, then from its published
per-line IMPs and datums (ddrank.scoring.choice.impchoice). Everything here is pure: scores in, IMPs out.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from ddrank.scoring.arithmetic.crossimps import cross_imp_totals, trimmed_mean
from ddrank.scoring.arithmetic.duplicate import imps
from ddrank.scoring.arithmetic.precision import round_half_away
from ddrank.scoring.model import ADJUSTED_RATE, BUTLER, CROSS, ImpRule, PairLine  # noqa: F401 - read as imprule.CROSS

_BUTLER_TAG = re.compile(r"butler\s*-?\s*(\d+)?", re.IGNORECASE)


def declared_rule(declared: str, kind: str) -> ImpRule:
    """The rule a source's declaration names, where it does: a PBN may write
    `[Scoring "IMP;Butler-2;Mean"]` (2 results dropped at each end, the mean of the rest),
    `IMP;Butler-2;Median`, `IMP;Cross`. `kind` ("cross"/"butler") is the event's scoring."""
    parts = [p.strip().lower() for p in declared.split(";")]
    rule = ImpRule(kind=kind)
    for p in parts:
        m = _BUTLER_TAG.fullmatch(p)
        if m:
            rule = ImpRule(kind=BUTLER, drop=int(m.group(1) or 1))
        elif p == "median":
            rule = ImpRule(kind=rule.kind, drop=rule.drop, median=True)
    return rule


def round_half(value: float, step: int, half: str = "away") -> float:
    """`value` rounded to a multiple of `step`: halves away from zero, or to the even step."""
    if step <= 0:
        return value
    q = value / step
    if half == "even":
        return float(round(q) * step)
    return math.copysign(math.floor(abs(q) + 0.5) * step, value)


def datum(scores: Sequence[float], rule: ImpRule) -> float:
    """The Butler datum of one group of results (the same cards) under `rule`."""
    n = len(scores)
    if rule.drop_fraction is not None and not rule.median:
        mean = trimmed_mean(scores, drop_fraction=rule.drop_fraction)
    else:
        mean = trimmed_mean(scores, (n - 1) // 2 if rule.median else min(rule.drop, (n - 1) // 2))
    return round_half(mean, rule.datum_step, rule.datum_half)


def group_imps(scores: Sequence[float], rule: ImpRule, given: float | None = None
               ) -> tuple[list[float], float | None]:  # fmt: skip
    """North-South's IMPs of each result of one group, and the group's datum (Butler; None for
    cross-IMPs): `given` (the scorer's own, with `datum_published`) or ours. A lone result
    scores 0."""
    n = len(scores)
    if rule.kind == BUTLER and rule.datum_published and given is not None:
        return [float(imps(s - given)) for s in scores], given
    if n < 2:
        return [0.0] * n, (float(scores[0]) if n and rule.kind == BUTLER else None)
    if rule.kind == BUTLER:
        d = datum(scores, rule)
        return [float(imps(s - d)) for s in scores], d
    totals = cross_imp_totals(scores)
    if rule.cross == "sum":
        return [float(t) for t in totals], None
    return [t / (n - 1) for t in totals], None


def adjusted_imps(pct: float, rule: ImpRule, others: int) -> float:
    """The IMPs of an artificial score of `pct` %: the rate per % above average, once per
    comparison with the `others` real results when cross-IMPs are summed."""
    per = (pct - 50.0) * rule.adjusted_rate
    return per * others if rule.kind == CROSS and rule.cross == "sum" else per


def factor_imp_totals(lines: Sequence[PairLine],
                      boards: Mapping[tuple[str, str, str], int] | None = None,
                      decimals: int | None = None) -> None:  # fmt: skip
    """IMP totals of pairs that played fewer boards (a sit-out) are factored up to the most boards
    played in their ranking, as EBU scorers do ("Factor IMPs"): a sit-out neither adds nor costs;
    or, given `boards` per (event, session, section), up to that many (every pair sits out
    some rounds, and the total is the one every board would have given). `decimals`: the sum is
    rounded to them (halves away from zero, as printed) before it is factored.

    Matchpoint lines are left alone: their percentage already is per board.
    """
    groups: dict[tuple[str, str, str, str], list[PairLine]] = defaultdict(list)
    for line in lines:
        if not line.top:
            groups[(line.event, line.session, line.section, line.direction)].append(line)
    for key, members in groups.items():
        most = max(x.boards for x in members)
        if boards is not None:
            most = max(most, boards.get(key[:3], 0))
        for line in members:
            if 0 < line.boards < most:
                line.factor = most / line.boards
                if decimals is not None:
                    line.mp = round_half_away(line.mp, decimals)
                line.mp = line.mp * line.factor

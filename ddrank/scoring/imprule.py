"""How an IMP pairs event is scored, as its scorer did: the rule (`ImpRule`) and one board's IMPs.

IMP pairs events come in two families, and scorers differ inside each:

* **cross-IMPs**: each result against every other result of its board. Published as the
  *average* per comparison (`sum / (n - 1)`) or as the *sum* ("Total IMPs").
* **Butler**: each result against a *datum*, the mean of the board's results after dropping the
  extremes: how many at each end (one with few tables, 5%, or as a PBN declares
  `Butler-N`), a `Median` instead of the mean, and the rounding to 10 points (half away from zero,
  or half to even: 425 -> 420).

An artificial score (A+ 60%, A- 40%) is worth a number of IMPs per % above average: 0.3 (A+ = +3
IMPs) by the EBU and ACBL rule, per comparison when cross-IMPs are summed ("AVE+ 3 IMPs
x (number of results - 1)"). A file may define its own rate through its published adjusted lines
(ddrank.scoring.impchoice reads it).

Which rule an event was scored by comes from what the file declares, then from its published
per-line IMPs and datums (ddrank.scoring.impchoice). Everything here is pure: scores in, IMPs out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ddrank.scoring.crossimps import cross_imp_totals, trimmed_mean
from ddrank.scoring.duplicate import imps

CROSS = "cross"
BUTLER = "butler"
#: IMPs per % above average of an artificial score: A+ (60%) = +3, A- (40%) = -3 (EBU, ACBL).
ADJUSTED_RATE = 0.3


@dataclass(frozen=True, slots=True)
class ImpRule:
    """One IMP pairs scoring rule; the defaults are the EBU's (and ddrank's before this rule)."""

    kind: str = CROSS  # "cross" | "butler"
    cross: str = "comparisons"  # cross-IMPs: "comparisons" (the average per comparison) | "sum"
    drop: int = 1  # Butler: results dropped at each end before the mean (never all of them)
    drop_fraction: float | None = None  # ... or this share of them (e.g. 5%), last in part
    median: bool = False  # Butler: the datum is the median (every result but the middle dropped)
    datum_step: int = 10  # Butler: the datum rounded to this many points (0: not rounded)
    datum_half: str = "away"  # a datum half-way between steps: "away" from zero | "even"
    adjusted_rate: float = ADJUSTED_RATE  # IMPs per % above average of an artificial score
    # Butler: each board's datum as the file publishes it, where no rule of ours reproduces the
    # file's datums (JFR Pary prints "średnia rozdania" on each traveller); last resort
    datum_published: bool = False
    across: bool | None = None  # sections compared as one field (None: as the event says)
    # A pair's total: its lines summed (each rounded to `line_decimals` first, as printed, when
    # set), and a pair that played fewer boards factored up to "most" boards any pair of its
    # ranking played (EBU), or to the "boards" of the session (a sit-out every round);
    # `sum_decimals`: the sum rounded as printed before it is factored (EBU's Pianola)
    line_decimals: int | None = None
    sum_decimals: int | None = None
    factor_to: str = "most"
    one_ranking: bool = False  # North-South and East-West ranked together

    def words(self) -> str:
        """'cross-IMPs summed over every comparison', 'Butler: datum the mean after dropping 1
        result at each end, rounded to 10 (halves away from zero)'."""
        if self.kind == CROSS:
            text = ("cross-IMPs summed over every comparison" if self.cross == "sum"
                    else "cross-IMPs averaged per comparison")  # fmt: skip
        else:
            how = ("the median" if self.median else
                   f"the mean after dropping {self.drop_fraction:.0%} of the results at each end"
                   if self.drop_fraction is not None else
                   f"the mean after dropping {self.drop} result{'s' if self.drop != 1 else ''} "
                   "at each end")  # fmt: skip
            rounding = (f"rounded to {self.datum_step} (halves "
                        f"{'to even' if self.datum_half == 'even' else 'away from zero'})"
                        if self.datum_step else "not rounded")  # fmt: skip
            text = f"Butler: datum {how}, {rounding}"
            if self.datum_published:
                text = "Butler: each board's datum as the file publishes it"
        if self.adjusted_rate != ADJUSTED_RATE:
            text += f"; an artificial score {self.adjusted_rate * 10:g} IMPs per 10% above average"
        if self.across:
            text += "; sections compared as one field"
        if self.line_decimals is not None:
            text += f"; totals sum the lines as printed ({self.line_decimals} decimals)"
        if self.sum_decimals is not None:
            text += f"; a pair's sum rounded to {self.sum_decimals} decimals before it is factored"
        if self.factor_to == "boards":
            text += "; a pair's total factored up to every board of the session"
        if self.one_ranking:
            text += "; one ranking for both directions"
        return text


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

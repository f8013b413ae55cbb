"""What the skill model's noise and offsets are fitted on, kept as columns, not as boards.

`fit_params` (ddrank.ratings.skill) reads a handful of numbers from each board: declarer's
tricks over DD, the lead's cost, each side's play costs, the result's and the contract's IMPs,
and which side declared. `FitColumns` keeps exactly those, 8 bytes a number (NaN where a board
has none), so a store's skill stage can read an archive a batch of events at a time, add each
batch here and drop its boards, and still fit on every board. The fit is the same arithmetic in
the same order as on the boards themselves: the same parameters to the last bit.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .skill import SkillBoard, SkillParams

NAN = math.nan


def _or_nan(v: float | None) -> float:
    return NAN if v is None else float(v)


class FitColumns:
    """The per-board numbers of the fit, in board order (module doc)."""

    def __init__(self) -> None:
        self.play, self.lead, self.declarer_cost = array("d"), array("d"), array("d")
        self.result, self.bid = array("d"), array("d")
        self.ns = array("d")  # declarer_ns: 1 North-South, -1 East-West, NaN unknown
        self.has_declarer = array("d")  # 1 when the declarer is known (a named player)
        self.defence = array("d")  # every defender's play cost, board after board

    def __len__(self) -> int:
        return len(self.result)

    def add(self, boards: Iterable[SkillBoard]) -> None:
        for b in boards:
            self.play.append(_or_nan(b.play_tricks))
            self.lead.append(_or_nan(b.lead_cost))
            self.declarer_cost.append(_or_nan(b.declarer_cost))
            self.result.append(float(b.result_imps))
            self.bid.append(_or_nan(b.bid_imps))
            self.ns.append(NAN if b.declarer_ns is None else (1.0 if b.declarer_ns else -1.0))
            self.has_declarer.append(0.0 if b.declarer is None else 1.0)
            if b.defence_costs:
                self.defence.extend(float(c) for _, c in b.defence_costs)

    def column(self, name: str) -> np.ndarray:
        values = getattr(self, name)
        return np.frombuffer(values, dtype=float) if len(values) else np.zeros(0)


def _moments(values: np.ndarray, default_sd: float) -> tuple[float, float]:
    if len(values) < 10:
        return 0.0, default_sd
    return float(values.mean()), float(max(values.std(ddof=1), 1e-3))


def _known(values: np.ndarray) -> np.ndarray:
    return values[~np.isnan(values)]


def imps_per_trick(cols: FitColumns, default: float) -> float:
    """OLS slope (through 0) of the board's IMPs less the contract's DD IMPs on the NS-view
    tricks above DD: what one trick of better play is worth on these boards."""
    play, lead, ns, bid = (cols.column(n) for n in ("play", "lead", "ns", "bid"))
    use = ~np.isnan(bid) & ~np.isnan(ns) & ~np.isnan(play)
    extra = play[use] + np.where(np.isnan(lead), 0.0, lead)[use]
    x = np.where(ns[use] > 0, extra, -extra)
    y = cols.column("result")[use] - bid[use]
    if len(x) < 20 or not np.any(x):
        return default
    return float(max(np.dot(x, y) / np.dot(x, x), 0.5))


def fit_params_from(cols: FitColumns, params: SkillParams) -> SkillParams:
    """IMPs per trick, trick offsets and noise sds from the training boards' columns (sample
    moments). Only the training boards are used, so choosing them never looks at what is
    predicted."""
    play, lead, result = cols.column("play"), cols.column("lead"), cols.column("result")
    play_mean, play_sd = _moments(_known(play), params.noise_sd["play"])
    lead_mean, lead_sd = _moments(_known(lead), params.noise_sd["lead"])
    out = replace(params, play_mean=play_mean, lead_mean=lead_mean,
                  imps_per_trick=imps_per_trick(cols, params.imps_per_trick))  # fmt: skip
    dec_mean, dec_sd = _moments(_known(cols.column("declarer_cost")),
                                params.noise_sd.get("declarer_cost", 0.5))  # fmt: skip
    def_mean, def_sd = _moments(cols.column("defence"), params.noise_sd.get("defence_cost", 0.5))
    out = replace(out, declarer_cost_mean=dec_mean, defence_cost_mean=def_mean)
    # declarer's tricks above the DD value before the lead, less the field's average
    ns = cols.column("ns")
    use = (cols.column("has_declarer") > 0) & ~np.isnan(ns) & ~np.isnan(play)
    p, ld = play[use], lead[use]
    total = np.where(np.isnan(ld), p - out.play_mean - out.lead_mean,
                     p + ld - out.play_mean - out.lead_mean)  # fmt: skip
    sign = np.where(ns[use] > 0, 1.0, -1.0)
    residual = result[use] - sign * out.imps_per_trick * total
    _, bid_sd = _moments(residual, params.noise_sd["bid"])
    _, res_sd = _moments(result, params.noise_sd["result"])
    noise = {"bid": bid_sd, "play": play_sd, "lead": lead_sd, "result": res_sd,
             "declarer_cost": dec_sd, "defence_cost": def_sd}  # fmt: skip
    return replace(out, noise_sd=noise)

"""Variance inflation factors (Equation 1) and their iterative removal above a limit.

VIF_j = 1 / (1 - R_j^2), where R_j^2 comes from regressing predictor j on all the others with an
intercept, which is what SAS PROC REG's ``/VIF`` option prints (Tables 10 and 11).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ddrank.regression.models import ols


@dataclass(frozen=True)
class VifValue:
    """The VIF of one predictor; ``None`` when it is perfectly collinear (VIF infinite)."""

    variable: str
    vif: float | None

    @property
    def perfectly_collinear(self) -> bool:
        return self.vif is None


@dataclass(frozen=True)
class VifRound:
    """One pass of the removal procedure: every VIF, and the variable removed, if any."""

    values: tuple[VifValue, ...]
    removed: str | None


@dataclass(frozen=True)
class VifScreen:
    """The outcome of iterative VIF removal: the rounds and the predictors kept."""

    limit: float
    rounds: tuple[VifRound, ...]
    constant: tuple[str, ...]
    kept: tuple[str, ...]

    @property
    def initial(self) -> tuple[VifValue, ...]:
        """The first round: the table the paper prints."""
        return self.rounds[0].values if self.rounds else ()

    @property
    def removed(self) -> tuple[str, ...]:
        return tuple(r.removed for r in self.rounds if r.removed is not None)


def variance_inflation_factors(
    data: pd.DataFrame, variables: Sequence[str]
) -> tuple[VifValue, ...]:
    """The VIF of each predictor given the others (a lone predictor has VIF 1)."""
    values: list[VifValue] = []
    for variable in variables:
        others = [v for v in variables if v != variable]
        if not others:
            values.append(VifValue(variable, 1.0))
            continue
        r_squared = float(ols(data, variable, others).rsquared)
        if not np.isfinite(r_squared) or r_squared >= 1.0 - 1e-12:
            values.append(VifValue(variable, None))
        else:
            values.append(VifValue(variable, 1.0 / (1.0 - r_squared)))
    return tuple(values)


def screen_by_vif(data: pd.DataFrame, variables: Sequence[str], limit: float = 5.0) -> VifScreen:
    """Drop the predictor with the largest VIF above ``limit`` and recompute, until none is.

    Predictors without variation are dropped first: they carry no information and their VIF is
    undefined.
    """
    constant = tuple(v for v in variables if float(np.ptp(data[v].to_numpy(dtype=float))) == 0.0)
    current = [v for v in variables if v not in constant]
    rounds: list[VifRound] = []
    while True:
        values = variance_inflation_factors(data, current)
        worst: VifValue | None = None
        for value in values:
            if value.vif is not None and value.vif <= limit:
                continue
            if (
                worst is None
                or worst.vif is not None
                and (value.vif is None or value.vif > worst.vif)
            ):
                worst = value
        rounds.append(VifRound(values, worst.variable if worst else None))
        if worst is None:
            break
        current.remove(worst.variable)
    return VifScreen(limit=limit, rounds=tuple(rounds), constant=constant, kept=tuple(current))

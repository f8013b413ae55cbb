"""Ordinary least squares fits as SAS PROC REG reports them, and the paper's sign rule.

Every predictor counts mistakes, so the domain expects every coefficient to be negative
(Marriner §2.3); a fitted model is flagged when it breaks that rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from statsmodels.regression.linear_model import RegressionResultsWrapper

INTERCEPT = "Intercept"


@dataclass(frozen=True)
class Coefficient:
    """One row of a parameter-estimates table (Tables 13-16)."""

    variable: str
    estimate: float
    std_error: float
    t_value: float
    p_value: float


@dataclass(frozen=True)
class FittedModel:
    """An OLS fit of ``response`` on ``variables`` with the statistics the paper reports."""

    response: str
    variables: tuple[str, ...]
    coefficients: tuple[Coefficient, ...]
    n: int
    r_squared: float
    adj_r_squared: float
    f_value: float
    model_p_value: float
    fitted: np.ndarray
    residuals: np.ndarray

    @property
    def intercept(self) -> Coefficient:
        return self.coefficients[0]

    @property
    def predictors(self) -> tuple[Coefficient, ...]:
        return self.coefficients[1:]

    def coefficient(self, variable: str) -> Coefficient:
        """The row of one predictor (or of ``Intercept``)."""
        for row in self.coefficients:
            if row.variable == variable:
                return row
        raise KeyError(variable)

    @property
    def positive_predictors(self) -> tuple[str, ...]:
        """Predictors whose coefficient breaks the domain rule (should be negative)."""
        return tuple(c.variable for c in self.predictors if c.estimate >= 0)

    @property
    def satisfies_sign_rule(self) -> bool:
        """True when every predictor's coefficient is negative, as the domain requires."""
        return not self.positive_predictors


def design_matrix(data: pd.DataFrame, variables: Sequence[str]) -> np.ndarray:
    """Intercept column followed by the predictors, as float64."""
    columns = [np.ones(len(data))] + [data[v].to_numpy(dtype=float) for v in variables]
    return np.column_stack(columns)


def ols(data: pd.DataFrame, response: str, variables: Sequence[str]) -> RegressionResultsWrapper:
    """The statsmodels OLS fit behind every number in the report."""
    exog = design_matrix(data, variables)
    return sm.OLS(data[response].to_numpy(dtype=float), exog).fit()


def fit_model(data: pd.DataFrame, response: str, variables: Sequence[str]) -> FittedModel:
    """Fit OLS with an intercept; needs at least one predictor (SAS reports "None" otherwise)."""
    variables = tuple(variables)
    if not variables:
        raise ValueError("a model needs at least one predictor")
    result = ols(data, response, variables)
    names = (INTERCEPT, *variables)
    coefficients = tuple(
        Coefficient(
            variable=name,
            estimate=float(result.params[i]),
            std_error=float(result.bse[i]),
            t_value=float(result.tvalues[i]),
            p_value=float(result.pvalues[i]),
        )
        for i, name in enumerate(names)
    )
    return FittedModel(
        response=response,
        variables=variables,
        coefficients=coefficients,
        n=int(result.nobs),
        r_squared=float(result.rsquared),
        adj_r_squared=float(result.rsquared_adj),
        f_value=float(result.fvalue),
        model_p_value=float(result.f_pvalue),
        fitted=np.asarray(result.fittedvalues, dtype=float),
        residuals=np.asarray(result.resid, dtype=float),
    )


def predict(model: FittedModel, data: pd.DataFrame) -> np.ndarray:
    """Predicted response for every row of ``data`` (the rows need the model's predictors)."""
    estimates = np.array([c.estimate for c in model.coefficients])
    return design_matrix(data, model.variables) @ estimates


def format_p_value(p: float | None) -> str:
    """A p-value as SAS prints it to 4 decimals: ``<0.0001`` below 0.0001, ``None`` if absent."""
    if p is None:
        return "None"
    if p < 0.0001:
        return "<0.0001"
    return f"{p:.4f}"


def model_equation(model: FittedModel, decimals: int = 5) -> str:
    """The ranking equation in the paper's Equation 2 form, ``y = -1028.60322x + 35.43033``.

    One predictor is written ``x``; several are written ``x1, x2, ...`` in model order.
    """

    def term(estimate: float, symbol: str, first: bool) -> str:
        magnitude = f"{abs(estimate):.{decimals}f}{symbol}"
        if first:
            return f"-{magnitude}" if estimate < 0 else magnitude
        return f" - {magnitude}" if estimate < 0 else f" + {magnitude}"

    symbols = (
        ["x"] if len(model.variables) == 1 else [f"x{i + 1}" for i in range(len(model.variables))]
    )
    text = "y = "
    for i, (row, symbol) in enumerate(zip(model.predictors, symbols, strict=True)):
        text += term(row.estimate, symbol, i == 0)
    text += term(model.intercept.estimate, "", False)
    return text


def equation_symbols(model: FittedModel) -> dict[str, str]:
    """Which variable each ``x`` of :func:`model_equation` stands for."""
    if len(model.variables) == 1:
        return {"x": model.variables[0]}
    return {f"x{i + 1}": v for i, v in enumerate(model.variables)}

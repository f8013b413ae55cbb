"""Beyond the paper: checks the paper did not run but its findings call for.

The paper saw heteroscedastic residuals (Figure 1) and an R² near 0.07. So we add a
Breusch-Pagan test, HC3 heteroscedasticity-robust standard errors, a log(1+points) response, an
out-of-sample (10-fold cross-validated) R², and Spearman rank correlations, because a ranking only
needs the order of players to be right.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.diagnostic import het_breuschpagan

from ddrank.regression.defaults import DEFAULT_CV_SEED  # noqa: F401 - callers import it here
from ddrank.regression.models import INTERCEPT, design_matrix, ols


@dataclass(frozen=True)
class BreuschPagan:
    """Breusch-Pagan (Koenker studentised) test of constant error variance."""

    lm_statistic: float
    lm_p_value: float
    f_statistic: float
    f_p_value: float


@dataclass(frozen=True)
class RobustCoefficient:
    """A coefficient with its classical and HC3 heteroscedasticity-robust standard errors."""

    variable: str
    estimate: float
    ols_std_error: float
    ols_p_value: float
    hc3_std_error: float
    hc3_p_value: float


@dataclass(frozen=True)
class CrossValidation:
    """K-fold cross-validated fit of a fixed variable set.

    ``r_squared`` pools the out-of-fold predictions: 1 - sum((y - ŷ_oof)²) / sum((y - ȳ)²).
    ``spearman`` correlates the out-of-fold predictions with the observed response.
    """

    folds: int
    seed: int
    r_squared: float
    mean_fold_r_squared: float
    spearman: float
    predictions: np.ndarray


@dataclass(frozen=True)
class RankCorrelation:
    """Spearman's rho between two orderings of the same players, with its p-value."""

    rho: float
    p_value: float


def breusch_pagan(data: pd.DataFrame, response: str, variables: Sequence[str]) -> BreuschPagan:
    """Regress squared residuals on the predictors; a small p-value means heteroscedasticity."""
    result = ols(data, response, variables)
    lm, lm_p, f, f_p = het_breuschpagan(result.resid, design_matrix(data, variables))
    return BreuschPagan(float(lm), float(lm_p), float(f), float(f_p))


def robust_coefficients(
    data: pd.DataFrame, response: str, variables: Sequence[str]
) -> tuple[RobustCoefficient, ...]:
    """Coefficients with OLS and HC3 (MacKinnon-White) standard errors side by side."""
    classical = ols(data, response, variables)
    robust = classical.get_robustcov_results(cov_type="HC3")
    names = (INTERCEPT, *variables)
    return tuple(
        RobustCoefficient(
            variable=name,
            estimate=float(classical.params[i]),
            ols_std_error=float(classical.bse[i]),
            ols_p_value=float(classical.pvalues[i]),
            hc3_std_error=float(robust.bse[i]),
            hc3_p_value=float(robust.pvalues[i]),
        )
        for i, name in enumerate(names)
    )


def spearman(
    actual: Sequence[float] | np.ndarray, predicted: Sequence[float] | np.ndarray
) -> RankCorrelation:
    """Spearman's rho of predicted against actual points (ties get average ranks)."""
    actual = np.asarray(actual, dtype=float)
    predicted = np.asarray(predicted, dtype=float)
    if np.ptp(actual) == 0 or np.ptp(predicted) == 0:
        raise ValueError("Spearman's rho is undefined when one side is constant")
    result = stats.spearmanr(actual, predicted)
    return RankCorrelation(float(result.statistic), float(result.pvalue))


def cross_validated_r2(
    data: pd.DataFrame,
    response: str,
    variables: Sequence[str],
    folds: int = 10,
    seed: int = DEFAULT_CV_SEED,
) -> CrossValidation:
    """Refit the variable set on k-1 folds and predict the held-out fold, for every fold.

    The variables are fixed (chosen on all the data), so this measures how well the chosen model
    generalises, not the selection procedure itself; it is still optimistic for that reason.
    """
    if folds < 2 or folds > len(data):
        raise ValueError(f"folds must be between 2 and the number of players ({len(data)})")
    y = data[response].to_numpy(dtype=float)
    x = design_matrix(data, variables)
    predictions = np.empty_like(y)
    fold_r2: list[float] = []
    for train, test in _kfold(len(y), folds, seed):
        beta, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
        predictions[test] = x[test] @ beta
        ss_tot = float(np.sum((y[test] - y[test].mean()) ** 2))
        if ss_tot > 0:
            fold_r2.append(1.0 - float(np.sum((y[test] - predictions[test]) ** 2)) / ss_tot)
    pooled = 1.0 - float(np.sum((y - predictions) ** 2)) / float(np.sum((y - y.mean()) ** 2))
    return CrossValidation(
        folds=folds,
        seed=seed,
        r_squared=pooled,
        mean_fold_r_squared=float(np.mean(fold_r2)),
        spearman=spearman(y, predictions).rho,
        predictions=predictions,
    )


def _kfold(n: int, folds: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Shuffled K-fold train/test indices, the same folds as scikit-learn's
    `KFold(n_splits=folds, shuffle=True, random_state=seed)`: a RandomState(seed) permutation cut
    into `folds` consecutive parts, the first `n % folds` one longer; both index arrays sorted."""
    if not 2 <= folds <= n:
        raise ValueError(f"cannot make {folds} folds of {n} rows")
    order = np.arange(n)
    np.random.RandomState(seed).shuffle(order)
    sizes = np.full(folds, n // folds)
    sizes[: n % folds] += 1
    start = 0
    for size in sizes:
        test = np.zeros(n, dtype=bool)
        test[order[start : start + size]] = True
        start += size
        yield np.flatnonzero(~test), np.flatnonzero(test)


def log_points(values: Sequence[float] | np.ndarray | pd.Series) -> np.ndarray:
    """log(1 + points): compresses the long right tail of masterpoints and placing points."""
    values = np.asarray(values, dtype=float)
    if np.any(values < 0):
        raise ValueError("log(1+points) needs non-negative points")
    return np.log1p(values)


def points_from_log(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Back-transform a prediction on the log(1+points) scale to points."""
    return np.expm1(np.asarray(values, dtype=float))


@dataclass(frozen=True)
class ModelDiagnostics:
    """All beyond-the-paper statistics of one variable set on one response scale."""

    label: str
    scale: str
    variables: tuple[str, ...]
    adj_r_squared: float
    breusch_pagan: BreuschPagan
    robust: tuple[RobustCoefficient, ...]
    cross_validation: CrossValidation
    spearman_in_sample: RankCorrelation


def diagnose(
    data: pd.DataFrame,
    response: str,
    variables: Sequence[str],
    *,
    label: str,
    scale: str,
    actual_points: np.ndarray,
    log_scale: bool,
    folds: int = 10,
    seed: int = DEFAULT_CV_SEED,
) -> ModelDiagnostics:
    """Run every beyond-the-paper check for one model.

    ``data[response]`` is the modelled response (points or log(1+points)); Spearman always
    compares the predictions with ``actual_points``, so it is comparable across scales.
    """
    result = ols(data, response, variables)
    cv = cross_validated_r2(data, response, variables, folds, seed)
    fitted = np.asarray(result.fittedvalues, dtype=float)
    if log_scale:
        fitted = points_from_log(fitted)
    return ModelDiagnostics(
        label=label,
        scale=scale,
        variables=tuple(variables),
        adj_r_squared=float(result.rsquared_adj),
        breusch_pagan=breusch_pagan(data, response, variables),
        robust=robust_coefficients(data, response, variables),
        cross_validation=cv,
        spearman_in_sample=spearman(actual_points, fitted),
    )

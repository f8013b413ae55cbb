"""Beyond the paper: Breusch-Pagan, HC3, cross-validation and Spearman checked against references."""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold, cross_val_predict
from test_regression import DEF, OPP_LAST, analysis, dataset

from ddrank.regression.analysis import analyse
from ddrank.regression.diagnostics import (
    breusch_pagan,
    cross_validated_r2,
    robust_coefficients,
    spearman,
)
from ddrank.regression.models import fit_model

# ------------------------------------------------------------------ beyond the paper


def test_breusch_pagan_matches_n_r2_of_the_auxiliary_regression() -> None:
    data = dataset("pp", "unweighted").data
    bp = breusch_pagan(data, "pp", [DEF])
    fit = sm.OLS(data["pp"], sm.add_constant(data[[DEF]])).fit()
    aux = sm.OLS(fit.resid**2, sm.add_constant(data[[DEF]])).fit()
    assert bp.lm_statistic == pytest.approx(len(data) * aux.rsquared, rel=1e-10)
    assert bp.lm_p_value == pytest.approx(stats.chi2.sf(len(data) * aux.rsquared, 1), rel=1e-10)
    assert bp.lm_p_value < 0.05  # the heteroscedasticity the paper saw in Figure 1


def test_hc3_standard_errors_match_the_sandwich_formula() -> None:
    data = dataset("pp", "unweighted").data
    variables = [DEF, OPP_LAST]
    x = sm.add_constant(data[variables]).to_numpy()
    y = data["pp"].to_numpy()
    bread = np.linalg.inv(x.T @ x)
    residual = y - x @ (bread @ x.T @ y)
    leverage = np.einsum("ij,jk,ik->i", x, bread, x)
    meat = x.T @ (x * (residual**2 / (1 - leverage) ** 2)[:, None])
    expected = np.sqrt(np.diag(bread @ meat @ bread))
    rows = robust_coefficients(data, "pp", variables)
    assert [r.hc3_std_error for r in rows] == pytest.approx(expected, rel=1e-10)
    assert rows[1].hc3_std_error > rows[1].ols_std_error  # heteroscedasticity widens the SE


def test_cross_validated_r2_is_reproducible_and_matches_sklearn() -> None:
    data = dataset("pp", "unweighted").data
    cv = cross_validated_r2(data, "pp", [DEF], folds=10, seed=7)
    folds = KFold(n_splits=10, shuffle=True, random_state=7)
    predicted = cross_val_predict(LinearRegression(), data[[DEF]], data["pp"], cv=folds)
    y = data["pp"].to_numpy()
    assert cv.predictions == pytest.approx(predicted, rel=1e-9)
    assert cv.r_squared == pytest.approx(
        1 - np.sum((y - predicted) ** 2) / np.sum((y - y.mean()) ** 2)
    )
    assert cross_validated_r2(data, "pp", [DEF], folds=10, seed=7).r_squared == cv.r_squared
    assert cv.r_squared < fit_model(data, "pp", [DEF]).r_squared  # out of sample is worse


def test_spearman_is_the_pearson_correlation_of_ranks() -> None:
    result = analysis("pp", "unweighted")
    ranking = result.ranking
    rho = spearman(ranking["actual_pp"], ranking["predicted_pp"]).rho
    ranks = ranking[["actual_pp", "predicted_pp"]].rank()
    assert rho == pytest.approx(np.corrcoef(ranks["actual_pp"], ranks["predicted_pp"])[0, 1])
    final = next(d for d in result.diagnostics if d.label == "final")
    assert final.spearman_in_sample.rho == pytest.approx(rho)


def test_log_response_models_log1p_points_and_ranks_by_points() -> None:
    result = analyse(dataset("pp", "unweighted"), log_response=True)
    assert result.modelled_response == "log1p_pp"
    assert result.final is not None and result.final.model.satisfies_sign_rule
    ranking = result.ranking
    assert np.allclose(np.expm1(ranking["predicted_log1p_pp"]), ranking["predicted_pp"])
    assert ranking["predicted_pp"].is_monotonic_decreasing
    assert result.alternate_scale is not None and result.alternate_scale.scale == "pp"

"""Every number of the regression report as a JSON-ready dict (NaN and infinities become null)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ddrank.regression.analysis import RegressionAnalysis
from ddrank.regression.diagnostics import ModelDiagnostics
from ddrank.regression.models import FittedModel, model_equation


def _json_number(value: float | None) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def _model_json(model: FittedModel | None) -> dict[str, Any] | None:
    if model is None:
        return None
    return {
        "variables": list(model.variables),
        "coefficients": [
            {
                "variable": c.variable,
                "estimate": _json_number(c.estimate),
                "std_error": _json_number(c.std_error),
                "p_value": _json_number(c.p_value),
            }
            for c in model.coefficients
        ],
        "n": model.n,
        "r_squared": _json_number(model.r_squared),
        "adj_r_squared": _json_number(model.adj_r_squared),
        "f_value": _json_number(model.f_value),
        "model_p_value": _json_number(model.model_p_value),
        "satisfies_sign_rule": model.satisfies_sign_rule,
        "positive_predictors": list(model.positive_predictors),
        "equation": model_equation(model),
    }


def _diagnostics_json(d: ModelDiagnostics) -> dict[str, Any]:
    return {
        "model": d.label,
        "scale": d.scale,
        "variables": list(d.variables),
        "adj_r_squared": _json_number(d.adj_r_squared),
        "breusch_pagan": {
            "lm_statistic": _json_number(d.breusch_pagan.lm_statistic),
            "lm_p_value": _json_number(d.breusch_pagan.lm_p_value),
            "f_statistic": _json_number(d.breusch_pagan.f_statistic),
            "f_p_value": _json_number(d.breusch_pagan.f_p_value),
        },
        "hc3": [
            {
                "variable": r.variable,
                "estimate": _json_number(r.estimate),
                "ols_std_error": _json_number(r.ols_std_error),
                "ols_p_value": _json_number(r.ols_p_value),
                "hc3_std_error": _json_number(r.hc3_std_error),
                "hc3_p_value": _json_number(r.hc3_p_value),
            }
            for r in d.robust
        ],
        "cv_r_squared": _json_number(d.cross_validation.r_squared),
        "cv_mean_fold_r_squared": _json_number(d.cross_validation.mean_fold_r_squared),
        "cv_spearman": _json_number(d.cross_validation.spearman),
        "spearman": _json_number(d.spearman_in_sample.rho),
        "spearman_p_value": _json_number(d.spearman_in_sample.p_value),
    }


def report_json(
    analysis: RegressionAnalysis, source: str, files: Iterable[str] = ()
) -> dict[str, Any]:
    """Every number of the report, machine-readable (NaN/inf become null)."""
    dataset = analysis.dataset
    return {
        "input": source,
        "dataset": dataset.label,
        "response": dataset.response,
        "modelled_response": analysis.modelled_response,
        "variables": dataset.variable_set,
        "layout": dataset.layout,
        "players_in_input": dataset.n_input,
        "players_analysed": len(dataset.data),
        "players_excluded": len(dataset.exclusions),
        "thresholds": dataset.thresholds.as_dict() if dataset.thresholds else None,
        "vif": [{"variable": v.variable, "vif": _json_number(v.vif)} for v in analysis.vif.initial],
        "vif_removed": list(analysis.vif.removed),
        "vif_constant": list(analysis.vif.constant),
        "procedures": [
            {
                "procedure": o.procedure,
                "selected": list(o.selection.variables),
                "stop_reason": o.selection.stop_reason,
                "steps": [
                    {
                        "action": s.action,
                        "variable": s.variable,
                        "f_value": _json_number(s.f_value),
                        "p_value": _json_number(s.p_value),
                    }
                    for s in o.selection.steps
                ],
                "model": _model_json(o.model),
            }
            for o in analysis.procedures
        ],
        "final": None
        if analysis.final is None
        else {"rule": analysis.final.rule, "model": _model_json(analysis.final.model)},
        "beyond_the_paper": {
            "cv_folds": analysis.cv_folds,
            "cv_seed": analysis.cv_seed,
            "models": [_diagnostics_json(d) for d in analysis.diagnostics],
            "final_other_scale": None
            if analysis.alternate_scale is None
            else _diagnostics_json(analysis.alternate_scale),
        },
        "files": list(files),
    }

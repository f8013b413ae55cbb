"""The paper's §2.3/§3 analysis of one dataset, end to end, as a single value.

VIF screen -> stepwise/backward/forward selection -> refit of each chosen set -> the sign rule ->
a final model -> predicted-points ranking, plus the beyond-the-paper diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ddrank.regression.diagnostics import (
    DEFAULT_CV_SEED,
    ModelDiagnostics,
    diagnose,
    log_points,
    points_from_log,
)
from ddrank.regression.models import FittedModel, fit_model, predict
from ddrank.regression.selection import PROCEDURES, Procedure, SelectionResult, run_procedure
from ddrank.regression.variables import PreparedDataset
from ddrank.regression.vif import VifScreen, screen_by_vif


@dataclass(frozen=True)
class SelectionSettings:
    """Significance levels of the procedures (SAS defaults) and the VIF limit of the screen."""

    vif_limit: float = 5.0
    forward_slentry: float = 0.50
    backward_slstay: float = 0.10
    stepwise_slentry: float = 0.15
    stepwise_slstay: float = 0.15
    significance: float = 0.05


@dataclass(frozen=True)
class ProcedureOutcome:
    """One row group of Table 12: what a procedure selected and the refit model (if any)."""

    procedure: Procedure
    selection: SelectionResult
    model: FittedModel | None


@dataclass(frozen=True)
class FinalChoice:
    """The model used for the ranking and the rule that picked it."""

    model: FittedModel
    rule: str


@dataclass(frozen=True)
class RegressionAnalysis:
    """Everything the report shows for one dataset."""

    dataset: PreparedDataset
    modelled_response: str
    log_response: bool
    settings: SelectionSettings
    vif: VifScreen
    procedures: tuple[ProcedureOutcome, ...]
    final: FinalChoice | None
    diagnostics: tuple[ModelDiagnostics, ...]
    alternate_scale: ModelDiagnostics | None
    ranking: pd.DataFrame | None
    cv_folds: int
    cv_seed: int

    def procedure(self, name: Procedure) -> ProcedureOutcome:
        for outcome in self.procedures:
            if outcome.procedure == name:
                return outcome
        raise KeyError(name)


def modelled_data(dataset: PreparedDataset, log_response: bool) -> tuple[pd.DataFrame, str]:
    """The dataset with the response column to model: points, or log(1+points)."""
    if not log_response:
        return dataset.data, dataset.response
    column = f"log1p_{dataset.response}"
    data = dataset.data.copy()
    data[column] = log_points(data[dataset.response])
    return data, column


def _prune_positive(data: pd.DataFrame, response: str, variables: list[str]) -> FittedModel | None:
    """Refit, dropping the least significant positive predictor, until every sign is negative."""
    while variables:
        model = fit_model(data, response, variables)
        if model.satisfies_sign_rule:
            return model
        positives = [c for c in model.predictors if c.estimate >= 0]
        variables.remove(max(positives, key=lambda c: c.p_value).variable)
    return None


def choose_final_model(
    data: pd.DataFrame,
    response: str,
    outcomes: Sequence[ProcedureOutcome],
    candidates: Sequence[str],
    significance: float = 0.05,
) -> FinalChoice | None:
    """Pick the ranking model the way §3 of the paper reasons, made explicit.

    1. A procedure's model that is significant and obeys the sign rule (best adjusted R²).
    2. Otherwise the predictors that were negative and significant at ``significance`` in any
       procedure's model, refit together (and pruned until all signs are negative). On PP,
       unweighted this is Table 16's model.
    3. Otherwise the single candidate with the most significant negative simple regression.
    """
    models = [o.model for o in outcomes if o.model is not None]
    compliant = [m for m in models if m.satisfies_sign_rule and m.model_p_value < significance]
    if compliant:
        best = max(compliant, key=lambda m: m.adj_r_squared)
        return FinalChoice(
            best,
            "highest adjusted R² among the selected models that are significant at "
            f"{significance:g} and have only negative coefficients",
        )
    significant_negative: list[str] = []
    for model in models:
        for row in model.predictors:
            if (
                row.estimate < 0
                and row.p_value < significance
                and row.variable not in significant_negative
            ):
                significant_negative.append(row.variable)
    if significant_negative:
        pruned = _prune_positive(data, response, significant_negative)
        if pruned is not None:
            return FinalChoice(
                pruned,
                "no selected model obeys the sign rule, so the predictors with a negative "
                f"coefficient significant at {significance:g} in a selected model are refit "
                "alone (the paper's Table 16 step)",
            )
    simple = [fit_model(data, response, [v]) for v in candidates]
    negative = [m for m in simple if m.satisfies_sign_rule]
    if not negative:
        return None
    best = min(negative, key=lambda m: m.predictors[0].p_value)
    significant = best.predictors[0].p_value < significance
    return FinalChoice(
        best,
        "no selected model obeys the sign rule and no predictor is negative and significant in "
        "one, so the simple regression with the most significant negative coefficient is used"
        + ("" if significant else f" (it is NOT significant at {significance:g})"),
    )


def predicted_ranking(
    dataset: PreparedDataset, model: FittedModel, log_response: bool
) -> pd.DataFrame:
    """Every player ranked by the points the model predicts for them (Equation 2).

    Ties share the better rank; players keep input order within a tie.
    """
    data = dataset.data
    prediction = predict(model, data)
    points = points_from_log(prediction) if log_response else prediction
    response = dataset.response
    table = pd.DataFrame(
        {
            "name": data["name"].to_numpy(),
            f"predicted_{response}": points,
            f"actual_{response}": data[response].to_numpy(dtype=float),
        }
    )
    if log_response:
        table[f"predicted_log1p_{response}"] = prediction
    table["residual"] = table[f"actual_{response}"] - table[f"predicted_{response}"]
    table["actual_rank"] = (
        table[f"actual_{response}"].rank(ascending=False, method="min").astype(int)
    )
    for variable in model.variables:
        table[variable] = data[variable].to_numpy(dtype=float)
    table = table.sort_values(f"predicted_{response}", ascending=False, kind="stable")
    table.insert(
        0, "rank", table[f"predicted_{response}"].rank(ascending=False, method="min").astype(int)
    )
    return table.reset_index(drop=True)


def analyse(
    dataset: PreparedDataset,
    *,
    settings: SelectionSettings | None = None,
    log_response: bool = False,
    final_variables: Sequence[str] | None = None,
    cv_folds: int = 10,
    cv_seed: int = DEFAULT_CV_SEED,
) -> RegressionAnalysis:
    """Run the whole analysis on one prepared dataset.

    ``final_variables`` overrides the automatic choice of the ranking model.
    """
    settings = settings or SelectionSettings()
    if len(dataset.data) < max(cv_folds, len(dataset.variables) + 2):
        raise ValueError(
            f"only {len(dataset.data)} players left after exclusions; the analysis needs at "
            f"least {max(cv_folds, len(dataset.variables) + 2)}"
        )
    data, response = modelled_data(dataset, log_response)
    vif = screen_by_vif(data, dataset.variables, settings.vif_limit)
    outcomes: list[ProcedureOutcome] = []
    for procedure in PROCEDURES:
        selection = run_procedure(
            procedure,
            data,
            response,
            vif.kept,
            forward_slentry=settings.forward_slentry,
            backward_slstay=settings.backward_slstay,
            stepwise_slentry=settings.stepwise_slentry,
            stepwise_slstay=settings.stepwise_slstay,
        )
        model = fit_model(data, response, selection.variables) if selection.variables else None
        outcomes.append(ProcedureOutcome(procedure, selection, model))

    if final_variables:
        unknown = [v for v in final_variables if v not in dataset.variables]
        if unknown:
            raise ValueError(
                f"unknown final variable(s) {unknown}; known: {list(dataset.variables)}"
            )
        final: FinalChoice | None = FinalChoice(
            fit_model(data, response, final_variables), "chosen by the user"
        )
    else:
        final = choose_final_model(data, response, outcomes, vif.kept, settings.significance)

    actual = dataset.data[dataset.response].to_numpy(dtype=float)
    scale = f"log(1+{dataset.response})" if log_response else dataset.response
    diagnostics: list[ModelDiagnostics] = []
    for outcome in outcomes:
        if outcome.model is not None:
            diagnostics.append(
                diagnose(
                    data,
                    response,
                    outcome.model.variables,
                    label=outcome.procedure,
                    scale=scale,
                    actual_points=actual,
                    log_scale=log_response,
                    folds=cv_folds,
                    seed=cv_seed,
                )
            )
    alternate = None
    ranking = None
    if final is not None:
        diagnostics.append(
            diagnose(
                data,
                response,
                final.model.variables,
                label="final",
                scale=scale,
                actual_points=actual,
                log_scale=log_response,
                folds=cv_folds,
                seed=cv_seed,
            )
        )
        other, other_response = modelled_data(dataset, not log_response)
        alternate = diagnose(
            other,
            other_response,
            final.model.variables,
            label="final",
            scale=dataset.response if log_response else f"log(1+{dataset.response})",
            actual_points=actual,
            log_scale=not log_response,
            folds=cv_folds,
            seed=cv_seed,
        )
        ranking = predicted_ranking(dataset, final.model, log_response)
    return RegressionAnalysis(
        dataset=dataset,
        modelled_response=response,
        log_response=log_response,
        settings=settings,
        vif=vif,
        procedures=tuple(outcomes),
        final=final,
        diagnostics=tuple(diagnostics),
        alternate_scale=alternate,
        ranking=ranking,
        cv_folds=cv_folds,
        cv_seed=cv_seed,
    )


def finite(value: float) -> bool:
    """True for a finite float (used to keep NaN/inf out of every output)."""
    return bool(np.isfinite(value))

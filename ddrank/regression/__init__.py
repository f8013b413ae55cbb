"""The paper's regression and ranking model (Marriner 2024 §2.3, §3), reproduced with statsmodels.

Pure functions on values: opportunity thresholds and Table 4 rates (:mod:`.variables`), VIF
screening (:mod:`.vif`), SAS PROC REG selection (:mod:`.selection`), fits and the sign rule
(:mod:`.models`), beyond-the-paper statistics (:mod:`.diagnostics`), the whole analysis
(:mod:`.analysis`), Figures 1-2 (:mod:`.plots`) and the report text (:mod:`.report`).
"""

from ddrank.regression.analysis import (
    FinalChoice,
    ProcedureOutcome,
    RegressionAnalysis,
    SelectionSettings,
    analyse,
    choose_final_model,
    predicted_ranking,
)
from ddrank.regression.models import FittedModel, fit_model, format_p_value, model_equation
from ddrank.regression.selection import (
    PROCEDURES,
    backward_elimination,
    forward_selection,
    partial_f_test,
    stepwise_selection,
)
from ddrank.regression.variables import (
    COUNTERS,
    DENOMINATORS,
    RATE_VARIABLES,
    Exclusion,
    PreparedDataset,
    Thresholds,
    prepare_dataset,
    rate_variables,
)
from ddrank.regression.vif import screen_by_vif, variance_inflation_factors

__all__ = [
    "COUNTERS",
    "DENOMINATORS",
    "PROCEDURES",
    "RATE_VARIABLES",
    "Exclusion",
    "FinalChoice",
    "FittedModel",
    "PreparedDataset",
    "ProcedureOutcome",
    "RegressionAnalysis",
    "SelectionSettings",
    "Thresholds",
    "analyse",
    "backward_elimination",
    "choose_final_model",
    "fit_model",
    "format_p_value",
    "forward_selection",
    "model_equation",
    "partial_f_test",
    "predicted_ranking",
    "prepare_dataset",
    "rate_variables",
    "screen_by_vif",
    "stepwise_selection",
    "variance_inflation_factors",
]

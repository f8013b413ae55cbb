"""The paper's regression and ranking model (Marriner 2024 §2.3, §3), reproduced with statsmodels.

Pure functions on values: opportunity thresholds and Table 4 rates (:mod:`.variables`), VIF
screening (:mod:`.vif`), SAS PROC REG selection (:mod:`.selection`), fits and the sign rule
(:mod:`.models`), beyond-the-paper statistics (:mod:`.diagnostics`), the whole analysis
(:mod:`.analysis`), Figures 1-2 (:mod:`.plots`) and the regression report's content: its blocks
(:mod:`.blocks`, :mod:`.report`) and numbers (:mod:`.numbers`); `publish.regression` writes it.
"""

# Lazy exports: importing a submodule (say `ddrank.regression.defaults` for the CLI's option
# defaults) must not pull in statsmodels, scipy and scikit-learn through this package.
_EXPORTS: dict[str, str] = {
    "COUNTERS": "ddrank.regression.variables",
    "DENOMINATORS": "ddrank.regression.variables",
    "Exclusion": "ddrank.regression.variables",
    "FinalChoice": "ddrank.regression.analysis",
    "FittedModel": "ddrank.regression.models",
    "PROCEDURES": "ddrank.regression.selection",
    "PreparedDataset": "ddrank.regression.variables",
    "ProcedureOutcome": "ddrank.regression.analysis",
    "RATE_VARIABLES": "ddrank.regression.variables",
    "RegressionAnalysis": "ddrank.regression.analysis",
    "SelectionSettings": "ddrank.regression.analysis",
    "Thresholds": "ddrank.regression.variables",
    "analyse": "ddrank.regression.analysis",
    "backward_elimination": "ddrank.regression.selection",
    "choose_final_model": "ddrank.regression.analysis",
    "fit_model": "ddrank.regression.models",
    "format_p_value": "ddrank.regression.models",
    "forward_selection": "ddrank.regression.selection",
    "model_equation": "ddrank.regression.models",
    "partial_f_test": "ddrank.regression.selection",
    "predicted_ranking": "ddrank.regression.analysis",
    "prepare_dataset": "ddrank.regression.variables",
    "rate_variables": "ddrank.regression.variables",
    "screen_by_vif": "ddrank.regression.vif",
    "stepwise_selection": "ddrank.regression.selection",
    "variance_inflation_factors": "ddrank.regression.vif",
}


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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

"""The regression report's content: blocks laid out like the paper's Tables 9-16 and Figures
1-2, with a separate, clearly labelled beyond-the-paper section.

Pure: the caller passes the file names it will write the figures and CSVs to; `publish.regression`
renders the blocks as Markdown and HTML and writes the files.
"""

from __future__ import annotations

from collections import Counter

from ddrank.regression.analysis import RegressionAnalysis
from ddrank.regression.blocks import (
    Block,
    Code,
    Heading,
    Image,
    Paragraph,
    ReportFiles,
    Table,
    number,
    p_value,
)
from ddrank.regression.defaults import TABLE9_MINIMA, regress_flags
from ddrank.regression.diagnostics import ModelDiagnostics
from ddrank.regression.models import FittedModel, equation_symbols, model_equation
from ddrank.regression.variables import RESPONSE_LABELS

PROCEDURE_TITLES = {
    "forward": "forward selection",
    "backward": "backward elimination",
    "stepwise": "stepwise selection",
}
PAPER_TABLES = {"forward": "Table 13", "stepwise": "Table 14", "backward": "Table 15"}


def _code(name: str) -> str:
    return f"`{name}`"


def _dataset_title(analysis: RegressionAnalysis) -> str:
    dataset = analysis.dataset
    scale = " (log(1+points) response)" if analysis.log_response else ""
    return f"{dataset.label}{scale}"


def _response_words(analysis: RegressionAnalysis) -> str:
    words = RESPONSE_LABELS[analysis.dataset.response]
    return f"log(1+{words})" if analysis.log_response else words


def _coefficient_table(model: FittedModel, caption: str) -> Table:
    rows = tuple(
        (
            _code(c.variable) if c.variable != "Intercept" else "Intercept",
            number(c.estimate, 5),
            p_value(c.p_value),
        )
        for c in model.coefficients
    )
    if model.satisfies_sign_rule:
        note = "Sign rule: satisfied (every predictor's coefficient is negative)."
    else:
        note = (
            "Sign rule: **violated**; positive coefficients prohibited by the domain: "
            + ", ".join(_code(v) for v in model.positive_predictors)
        )
    return Table(caption, ("Variable", "Coefficient", "P-value"), rows, note)


def _thresholds_origin(thresholds: dict[str, float], source: str) -> str:
    """Where these minima come from, and the `ddrank regress` call that reproduces them."""
    if ":" in source and not source.lower().endswith(".csv"):
        path, table = source.rsplit(":", 1)
        given = f"--db {path}" + ("" if table == "player_stats" else f" --table {table}")
    else:
        given = f"--input {source}"
    command = f"`ddrank regress {given} {regress_flags(thresholds)}`"
    if thresholds == {k: float(v) for k, v in TABLE9_MINIMA.items()}:
        return f"These are the paper's Table 9 minima. {command} reproduces this filter."
    paper = ", ".join(f"{v:g}" for v in TABLE9_MINIMA.values())
    return (
        f"These are not the paper's minima ({paper}), which were chosen for its 190,622 boards: "
        "`ddrank run` scales each one by this store's boards / 190,622 (at least 1), since on a "
        "smaller store almost nobody reaches them; `--min-*` options may also have set them. "
        f"{command} reproduces this filter."
    )


def _exclusion_summary(analysis: RegressionAnalysis) -> list[tuple[str, str]]:
    kinds: Counter[str] = Counter()
    for exclusion in analysis.dataset.exclusions:
        kinds[exclusion.reason.split(":", 1)[0]] += 1
    return [(kind, str(count)) for kind, count in kinds.most_common()]


def _diagnostics_row(diagnostics: ModelDiagnostics, title: str) -> tuple[str, ...]:
    return (
        title,
        diagnostics.scale,
        str(len(diagnostics.variables)),
        number(diagnostics.adj_r_squared, 4),
        number(diagnostics.cross_validation.r_squared, 4),
        number(diagnostics.spearman_in_sample.rho, 4),
        number(diagnostics.cross_validation.spearman, 4),
        p_value(diagnostics.breusch_pagan.lm_p_value),
    )


def build_report(analysis: RegressionAnalysis, source: str, files: ReportFiles) -> list[Block]:
    """The report's blocks, in order."""
    dataset = analysis.dataset
    words = _response_words(analysis)
    set_name = dataset.variable_set
    blocks: list[Block] = [
        Heading(1, f"Regression report: {_dataset_title(analysis)}"),
        Paragraph(
            f"Input `{source}` ({'33 counters per player' if dataset.layout == 'counters' else '14 rates per player'}); "
            f"response: {words}; predictors: the 14 {set_name} rates of Table 4. "
            f"{len(dataset.data)} of {dataset.n_input} players are analysed; "
            f"{len(dataset.exclusions)} are excluded, each with its reason in `{files.exclusions}`. "
            "Sections 1-6 reproduce the paper's method (Marriner 2024, §2.3 and §3); section 7 goes "
            "beyond the paper."
        ),
    ]

    # 1. Table 9
    blocks.append(Heading(2, "1. Opportunity thresholds (Table 9)"))
    if dataset.thresholds is not None:
        blocks.append(
            Table(
                "Minimum values required to be included as a data point",
                ("Variable", "Minimum value required"),
                tuple((_code(k), f"{v:g}") for k, v in dataset.thresholds.as_dict().items()),
            )
        )
        blocks.append(
            Paragraph(
                f"Applying this filter reduced the number of players from {dataset.n_input} to "
                f"{len(dataset.data)}."
            )
        )
        blocks.append(Paragraph(_thresholds_origin(dataset.thresholds.as_dict(), source)))
    else:
        blocks.append(
            Paragraph(
                "The input holds rates, not the opportunity counts, so no threshold could be "
                "applied here: the rows are taken as already filtered."
            )
        )
    summary = _exclusion_summary(analysis)
    if summary:
        blocks.append(Table("Players excluded", ("Reason", "Players"), tuple(summary)))

    # 2. Tables 10/11
    table_no = "Table 11" if set_name == "weighted" else "Table 10"
    blocks.append(Heading(2, f"2. Variance inflation factors ({table_no})"))
    blocks.append(
        Table(
            f"VIF values for each {set_name} variable",
            ("Variable", "VIF"),
            tuple(
                (
                    _code(v.variable),
                    number(v.vif, 5) if v.vif is not None else "perfect collinearity",
                )
                for v in analysis.vif.initial
            ),
        )
    )
    if analysis.vif.removed or analysis.vif.constant:
        removed = ", ".join(_code(v) for v in analysis.vif.removed) or "none"
        constant = ", ".join(_code(v) for v in analysis.vif.constant) or "none"
        blocks.append(
            Paragraph(
                f"Removed one at a time for VIF > {analysis.vif.limit:g}: {removed}. "
                f"Removed for having no variation: {constant}."
            )
        )
    else:
        blocks.append(
            Paragraph(
                f"Every VIF is at most {analysis.vif.limit:g}, so all {len(analysis.vif.kept)} "
                "variables are candidates for selection."
            )
        )

    # 3. Table 12
    blocks.append(Heading(2, "3. Model selection results (Table 12)"))
    rows: list[tuple[str, ...]] = []
    for outcome in analysis.procedures:
        title = outcome.procedure.capitalize()
        model = outcome.model
        if model is None:
            rows.append((dataset.label, title, "None", "None", "None", "None", "n/a"))
            continue
        sign = (
            "ok"
            if model.satisfies_sign_rule
            else f"violated ({len(model.positive_predictors)} positive)"
        )
        for i, variable in enumerate(model.variables):
            first = i == 0
            rows.append(
                (
                    dataset.label if first else "",
                    title if first else "",
                    _code(variable),
                    p_value(model.coefficient(variable).p_value),
                    p_value(model.model_p_value) if first else "",
                    number(model.adj_r_squared, 4) if first else "",
                    sign if first else "",
                )
            )
    blocks.append(
        Table(
            "Model selection results",
            (
                "Dataset",
                "Procedure",
                "Variables included",
                "Variable p-value",
                "Model p-value",
                "Adj. R²",
                "Sign rule",
            ),
            tuple(rows),
            note=(
                f"SAS PROC REG defaults: stepwise SLENTRY {analysis.settings.stepwise_slentry:g} / "
                f"SLSTAY {analysis.settings.stepwise_slstay:g}, backward SLSTAY "
                f"{analysis.settings.backward_slstay:g}, forward SLENTRY "
                f"{analysis.settings.forward_slentry:g}. Variables are listed in order of entry "
                "(backward: in candidate order). The sign rule column is not in the paper."
            ),
        )
    )
    step_rows: list[tuple[str, ...]] = []
    for outcome in analysis.procedures:
        for n, step in enumerate(outcome.selection.steps, start=1):
            step_rows.append(
                (
                    outcome.procedure,
                    str(n),
                    step.action,
                    _code(step.variable),
                    number(step.f_value, 4),
                    p_value(step.p_value),
                )
            )
        step_rows.append((outcome.procedure, "stop", outcome.selection.stop_reason, "", "", ""))
    blocks.append(
        Table(
            "Selection steps (partial F-tests)",
            ("Procedure", "Step", "Action", "Variable", "F", "p-value"),
            tuple(step_rows),
        )
    )

    # 4. Tables 13-15
    blocks.append(Heading(2, "4. Coefficients of the selected models (Tables 13-15)"))
    for outcome in analysis.procedures:
        if outcome.model is None:
            blocks.append(
                Paragraph(
                    f"{PROCEDURE_TITLES[outcome.procedure].capitalize()} selected no variable."
                )
            )
            continue
        blocks.append(
            _coefficient_table(
                outcome.model,
                f"Predictor coefficients for the model determined by {PROCEDURE_TITLES[outcome.procedure]} "
                f"using {set_name} variables and {words} (cf. the paper's {PAPER_TABLES[outcome.procedure]})",
            )
        )

    # 5. Table 16 + Equation 2
    blocks.append(Heading(2, "5. Final model and ranking equation (Table 16, Equation 2)"))
    final = analysis.final
    if final is None:
        blocks.append(
            Paragraph(
                "No model with only negative coefficients could be found: no ranking is produced."
            )
        )
    else:
        model = final.model
        blocks.append(Paragraph(f"Chosen by rule: {final.rule}."))
        blocks.append(
            _coefficient_table(
                model,
                "Predictor coefficients for the model consisting only of "
                + ", ".join(_code(v) for v in model.variables),
            )
        )
        blocks.append(
            Paragraph(
                f"The adjusted R² for this model is {number(model.adj_r_squared, 4)} "
                f"(R² {number(model.r_squared, 4)}, F {number(model.f_value, 4)}, model p-value "
                f"{p_value(model.model_p_value)}, n = {model.n})."
            )
        )
        blocks.append(Code(model_equation(model)))
        legend = "; ".join(
            f"{symbol} = `{variable}`" for symbol, variable in equation_symbols(model).items()
        )
        target = (
            f"log(1 + {RESPONSE_LABELS[dataset.response]})"
            if analysis.log_response
            else RESPONSE_LABELS[dataset.response]
        )
        blocks.append(
            Paragraph(f"Here {legend}, and y is the predicted {target}. Players are ranked by y.")
        )

        # 6. Figures
        blocks.append(Heading(2, "6. Residual diagnostics (Figures 1 and 2)"))
        blocks.append(Image(files.residual_plot, "Figure 1: residuals versus predicted value"))
        blocks.append(Image(files.qq_plot, "Figure 2: QQ plot of the residuals"))

        ranking = analysis.ranking
        if ranking is not None:
            response = dataset.response
            blocks.append(Heading(3, "Predicted-points ranking"))
            blocks.append(
                Paragraph(
                    f"All {len(ranking)} players, ranked by predicted {RESPONSE_LABELS[response]}, are in `{files.ranking}`. The top 10:"
                )
            )
            top = ranking.head(10)
            blocks.append(
                Table(
                    "Top of the predicted ranking",
                    (
                        "Rank",
                        "Player",
                        f"Predicted {response}",
                        f"Actual {response}",
                        "Actual rank",
                    ),
                    tuple(
                        (
                            str(row["rank"]),
                            str(row["name"]),
                            number(float(row[f"predicted_{response}"]), 2),
                            number(float(row[f"actual_{response}"]), 2),
                            str(row["actual_rank"]),
                        )
                        for _, row in top.iterrows()
                    ),
                )
            )

    # 7. Beyond the paper
    blocks.append(Heading(2, "7. Beyond the paper (not in Marriner 2024)"))
    blocks.append(
        Paragraph(
            "Everything in this section is an addition to the paper's method. The paper judged "
            "models by in-sample adjusted R² only and saw heteroscedastic residuals in Figure 1; "
            "here every selected model is also tested for heteroscedasticity (Breusch-Pagan, "
            "Koenker's studentised form), refit with HC3 robust standard errors, scored out of "
            f"sample ({analysis.cv_folds}-fold cross-validated R², fixed seed {analysis.cv_seed}), "
            "and scored as a ranking (Spearman's rank correlation between predicted and actual "
            "points). The final model's variables are also refit on the other response scale "
            "(points vs log(1+points))."
        )
    )
    diag_rows = [
        _diagnostics_row(d, d.label if d.label == "final" else d.label)
        for d in analysis.diagnostics
    ]
    if analysis.alternate_scale is not None:
        diag_rows.append(_diagnostics_row(analysis.alternate_scale, "final, other scale"))
    blocks.append(
        Table(
            "Paper's measure next to out-of-sample and rank measures",
            (
                "Model",
                "Response scale",
                "Predictors",
                "Adj. R² (paper)",
                f"{analysis.cv_folds}-fold CV R²",
                "Spearman ρ",
                f"Spearman ρ ({analysis.cv_folds}-fold CV)",
                "Breusch-Pagan p",
            ),
            tuple(diag_rows),
            note=(
                "CV R² pools the out-of-fold predictions: 1 - Σ(y - ŷ_oof)² / Σ(y - ȳ)². The "
                "variables were chosen on all the data, so even the CV figures are optimistic. "
                "Spearman ρ compares predicted with actual points and is comparable across scales."
            ),
        )
    )
    final_diag = next((d for d in analysis.diagnostics if d.label == "final"), None)
    if final_diag is not None:
        blocks.append(
            Table(
                "Final model with HC3 heteroscedasticity-robust standard errors",
                ("Variable", "Coefficient", "OLS SE", "OLS p-value", "HC3 SE", "HC3 p-value"),
                tuple(
                    (
                        _code(r.variable) if r.variable != "Intercept" else "Intercept",
                        number(r.estimate, 5),
                        number(r.ols_std_error, 5),
                        p_value(r.ols_p_value),
                        number(r.hc3_std_error, 5),
                        p_value(r.hc3_p_value),
                    )
                    for r in final_diag.robust
                ),
            )
        )
        blocks.append(Paragraph(_beyond_reading(analysis, final_diag)))

    # Settings
    blocks.append(Heading(2, "Settings"))
    settings = analysis.settings
    blocks.append(
        Table(
            "Settings of this run",
            ("Setting", "Value"),
            (
                ("VIF limit", f"{settings.vif_limit:g}"),
                ("Forward SLENTRY", f"{settings.forward_slentry:g}"),
                ("Backward SLSTAY", f"{settings.backward_slstay:g}"),
                (
                    "Stepwise SLENTRY / SLSTAY",
                    f"{settings.stepwise_slentry:g} / {settings.stepwise_slstay:g}",
                ),
                ("Significance for the sign-rule choice", f"{settings.significance:g}"),
                ("Response scale", analysis.modelled_response),
                ("Cross-validation", f"{analysis.cv_folds} folds, seed {analysis.cv_seed}"),
            ),
        )
    )
    return blocks


def _beyond_reading(analysis: RegressionAnalysis, final: ModelDiagnostics) -> str:
    """A plain-language reading of the beyond-the-paper numbers for the final model."""
    bp = final.breusch_pagan.lm_p_value
    significance = analysis.settings.significance
    if bp < significance:
        het = (
            f"Breusch-Pagan rejects constant error variance for the final model (p = {p_value(bp)}), "
            "which confirms the widening band of Figure 1; the HC3 p-values above are the ones to trust."
        )
    else:
        het = f"Breusch-Pagan does not reject constant error variance for the final model (p = {p_value(bp)})."
    cv = final.cross_validation
    rank = (
        f" Out of sample the final model keeps a {analysis.cv_folds}-fold CV R² of "
        f"{number(cv.r_squared, 4)} (in-sample adjusted R² {number(final.adj_r_squared, 4)}), and "
        f"its predicted order of players agrees with the actual order with Spearman ρ = "
        f"{number(final.spearman_in_sample.rho, 4)} in sample and {number(cv.spearman, 4)} out of sample."
    )
    alt = analysis.alternate_scale
    log_note = ""
    if alt is not None:
        log_note = (
            f" On the {alt.scale} scale the same predictors give adjusted R² "
            f"{number(alt.adj_r_squared, 4)}, CV R² {number(alt.cross_validation.r_squared, 4)} "
            f"(R² values on different scales are not directly comparable) and Breusch-Pagan p = "
            f"{p_value(alt.breusch_pagan.lm_p_value)}."
        )
    return het + rank + log_note

"""The regression report as text: Markdown, HTML and a JSON-ready dict, laid out like the
paper's Tables 9-16 and Figures 1-2, with a separate, clearly labelled beyond-the-paper section.

Rendering is pure: the caller passes the file names it will write the figures and CSVs to.
Non-finite numbers are never printed: they render as ``undefined`` (text) or ``null`` (JSON).
"""

from __future__ import annotations

import html
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ddrank.regression.analysis import RegressionAnalysis
from ddrank.regression.defaults import TABLE9_MINIMA, regress_flags
from ddrank.regression.diagnostics import ModelDiagnostics
from ddrank.regression.models import (
    FittedModel,
    equation_symbols,
    format_p_value,
    model_equation,
)
from ddrank.regression.variables import RESPONSE_LABELS

PROCEDURE_TITLES = {
    "forward": "forward selection",
    "backward": "backward elimination",
    "stepwise": "stepwise selection",
}
PAPER_TABLES = {"forward": "Table 13", "stepwise": "Table 14", "backward": "Table 15"}


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """Text with `code` spans and **bold**; nothing else is interpreted."""

    text: str


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str | None = None


@dataclass(frozen=True)
class Image:
    path: str
    caption: str


@dataclass(frozen=True)
class Code:
    text: str


Block = Heading | Paragraph | Table | Image | Code


@dataclass(frozen=True)
class ReportFiles:
    """Names (relative to the report) of the files the report links to."""

    residual_plot: str = "regression_residuals.png"
    qq_plot: str = "regression_qq.png"
    ranking: str = "ranking.csv"
    exclusions: str = "excluded_players.csv"
    extra: dict[str, str] = field(default_factory=dict)


def number(value: float | None, decimals: int) -> str:
    """A fixed-decimals number; ``undefined`` instead of NaN/inf, ``None`` if absent."""
    if value is None:
        return "None"
    if not math.isfinite(value):
        return "undefined"
    return f"{value:.{decimals}f}"


def p_value(value: float | None) -> str:
    """SAS-style p-value, ``undefined`` instead of NaN."""
    if value is not None and not math.isfinite(value):
        return "undefined"
    return format_p_value(value)


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


# ---------------------------------------------------------------------------------- rendering


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(blocks: Sequence[Block]) -> str:
    """GitHub-flavoured Markdown."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}\n")
        elif isinstance(block, Paragraph):
            out.append(f"{block.text}\n")
        elif isinstance(block, Code):
            out.append(f"```\n{block.text}\n```\n")
        elif isinstance(block, Image):
            out.append(f"![{block.caption}]({block.path})\n\n*{block.caption}*\n")
        elif isinstance(block, Table):
            lines = [f"**{block.caption}**", ""]
            lines.append("| " + " | ".join(_markdown_cell(h) for h in block.header) + " |")
            lines.append("|" + "|".join(" --- " for _ in block.header) + "|")
            lines.extend(
                "| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in block.rows
            )
            if block.note:
                lines.extend(["", f"*{block.note}*" if "**" not in block.note else block.note])
            out.append("\n".join(lines) + "\n")
    return "\n".join(out)


_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _inline_html(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = _INLINE_CODE.sub(r"<code>\1</code>", escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 0.85em; }
pre { background: #f6f6f6; padding: 0.6rem; }
figure img { max-width: 100%; border: 1px solid #ddd; }
p.note { font-size: 0.85rem; color: #555; }
"""

_NUMERIC = re.compile(r"^[<\-]?\d[\d.]*$")


def render_html(blocks: Sequence[Block], title: str) -> str:
    """A self-describing HTML page (images are linked, not embedded)."""
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{_inline_html(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, Code):
            body.append(f"<pre><code>{html.escape(block.text)}</code></pre>")
        elif isinstance(block, Image):
            body.append(
                f'<figure><img src="{html.escape(block.path)}" alt="{html.escape(block.caption)}">'
                f"<figcaption>{html.escape(block.caption)}</figcaption></figure>"
            )
        elif isinstance(block, Table):
            rows = ["<table>", f"<caption>{_inline_html(block.caption)}</caption>"]
            rows.append(
                "<tr>" + "".join(f"<th>{_inline_html(h)}</th>" for h in block.header) + "</tr>"
            )
            for row in block.rows:
                cells = "".join(
                    f'<td class="num">{_inline_html(c)}</td>'
                    if _NUMERIC.match(c)
                    else f"<td>{_inline_html(c)}</td>"
                    for c in row
                )
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</table>")
            if block.note:
                rows.append(f'<p class="note">{_inline_html(block.note)}</p>')
            body.append("\n".join(rows))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


# ---------------------------------------------------------------------------------- JSON


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

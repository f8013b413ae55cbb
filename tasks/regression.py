"""Prefect tasks of the regression report: read a player table, prepare, analyse, write.

The tasks are thin: all statistics live in :mod:`ddrank.regression`. ``run_regression_report``
chains the same task bodies without Prefect, so the CLI answers in a second instead of starting a
temporary Prefect server.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.exceptions import MissingContextError

from ddrank.regression.analysis import RegressionAnalysis, SelectionSettings, analyse
from ddrank.regression.diagnostics import DEFAULT_CV_SEED
from ddrank.regression.plots import qq_figure, residuals_vs_predicted_figure
from ddrank.regression.report import (
    ReportFiles,
    build_report,
    render_html,
    render_markdown,
    report_json,
)
from ddrank.regression.variables import (
    RESPONSE_LABELS,
    PreparedDataset,
    Thresholds,
    prepare_dataset,
)

DEFAULT_TABLE = "player_stats"
_NON_FINITE = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _logger() -> logging.Logger | logging.LoggerAdapter:
    """The Prefect run logger inside a flow, the module logger outside one."""
    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger("ddrank.regression")


@task(name="read-player-table", cache_policy=NO_CACHE)
def read_player_table(
    input_path: str | None = None, db_path: str | None = None, table: str = DEFAULT_TABLE
) -> pd.DataFrame:
    """Read the per-player table from a CSV file or from a DuckDB table (read-only)."""
    if (input_path is None) == (db_path is None):
        raise ValueError("give exactly one of input_path (CSV) or db_path (DuckDB)")
    if input_path is not None:
        path = Path(input_path)
        if not path.is_file():
            raise FileNotFoundError(f"input CSV not found: {path}")
        frame = pd.read_csv(path)
        _logger().info("read %d players from %s", len(frame), path)
        return frame
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", table):
        raise ValueError(f"not a table name: {table!r}")
    path = Path(db_path)  # type: ignore[arg-type]
    if not path.is_file():
        raise FileNotFoundError(f"DuckDB file not found: {path}")
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.IOException as exc:
        raise RuntimeError(
            f"cannot open {path}: another ddrank process may hold it ({exc})"
        ) from exc
    try:
        frame = con.sql(f"select * from {table}").df()
    finally:
        con.close()
    if "name" not in frame.columns and "player" in frame.columns:  # the store's player_stats
        frame = frame.rename(columns={"player": "name"})
    _logger().info("read %d players from %s:%s", len(frame), path, table)
    return frame


@task(name="prepare-regression-dataset", cache_policy=NO_CACHE)
def prepare_regression_dataset(
    frame: pd.DataFrame,
    response: str,
    variables: str,
    thresholds: Mapping[str, float] | None = None,
) -> PreparedDataset:
    """Thresholds and rates, logging why each excluded player is left out.

    Each zero-denominator player is logged (info), each missing or non-finite value is a
    warning; players below the thresholds are summarised (each one at debug level). All of them
    are also written to excluded_players.csv.
    """
    logger = _logger()
    dataset = prepare_dataset(frame, response, variables, Thresholds.from_mapping(thresholds))  # type: ignore[arg-type]
    below = 0
    for exclusion in dataset.exclusions:
        if exclusion.reason.startswith("below Table 9 threshold"):
            below += 1
            logger.debug("excluded %s: %s", exclusion.name, exclusion.reason)
        elif exclusion.reason.startswith("zero denominator"):
            logger.info("excluded %s: %s", exclusion.name, exclusion.reason)
        else:
            logger.warning("excluded %s: %s", exclusion.name, exclusion.reason)
    logger.info(
        "%s: %d of %d players kept (%d below the thresholds, %d other exclusions)",
        dataset.label,
        len(dataset.data),
        dataset.n_input,
        below,
        len(dataset.exclusions) - below,
    )
    return dataset


@task(name="analyse-regression", cache_policy=NO_CACHE)
def analyse_regression(
    dataset: PreparedDataset,
    settings: Mapping[str, float] | None = None,
    log_response: bool = False,
    final_variables: Sequence[str] | None = None,
    cv_folds: int = 10,
    cv_seed: int = DEFAULT_CV_SEED,
) -> RegressionAnalysis:
    """VIF screen, the three selection procedures, the final model and the diagnostics."""
    analysis = analyse(
        dataset,
        settings=SelectionSettings(**dict(settings or {})),
        log_response=log_response,
        final_variables=list(final_variables) if final_variables else None,
        cv_folds=cv_folds,
        cv_seed=cv_seed,
    )
    final = analysis.final
    _logger().info(
        "%s: final model %s, adjusted R² %.4f",
        dataset.label,
        list(final.model.variables) if final else None,
        final.model.adj_r_squared if final else float("nan"),
    )
    return analysis


def _check_finite_text(name: str, text: str) -> None:
    """Refuse to write an output that contains a NaN or an infinity."""
    match = _NON_FINITE.search(text)
    if match:
        start = max(match.start() - 60, 0)
        raise ValueError(
            f"{name} would contain {match.group(0)!r}: ...{text[start : match.end() + 20]}..."
        )


@task(name="write-regression-report", cache_policy=NO_CACHE)
def write_regression_report(
    analysis: RegressionAnalysis, source: str, out_dir: str
) -> dict[str, str]:
    """Write report.md/.html/.json, both figures, the ranking and the exclusions to ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = ReportFiles()
    written: dict[str, str] = {}

    texts: dict[str, str] = {}
    if analysis.final is not None:
        label = RESPONSE_LABELS[analysis.dataset.response]
        if analysis.log_response:
            label = f"log(1 + {label})"
        for key, name, figure in (
            (
                "residual_plot",
                files.residual_plot,
                residuals_vs_predicted_figure(analysis.final.model, label),
            ),
            ("qq_plot", files.qq_plot, qq_figure(analysis.final.model)),
        ):
            figure.savefig(out / name, dpi=100)
            written[key] = str(out / name)
    if analysis.ranking is not None:
        texts[files.ranking] = analysis.ranking.to_csv(index=False, float_format="%.10g")
        written["ranking"] = str(out / files.ranking)
    exclusions = pd.DataFrame(
        {
            "name": [e.name for e in analysis.dataset.exclusions],
            "reason": [e.reason for e in analysis.dataset.exclusions],
        }
    )
    texts[files.exclusions] = exclusions.to_csv(index=False)
    written["exclusions"] = str(out / files.exclusions)

    blocks = build_report(analysis, source, files)
    title = f"ddrank regression report: {analysis.dataset.label}"
    texts["report.md"] = render_markdown(blocks)
    texts["report.html"] = render_html(blocks, title)
    written["markdown"] = str(out / "report.md")
    written["html"] = str(out / "report.html")
    written["json"] = str(out / "report.json")
    payload: dict[str, Any] = report_json(analysis, source, sorted(written.values()))
    texts["report.json"] = json.dumps(payload, indent=2, allow_nan=False, ensure_ascii=False)

    for name, text in texts.items():
        # Player names are free text; only check the generated numbers and prose.
        checked = (
            text
            if name != files.exclusions
            else "\n".join(e.reason for e in analysis.dataset.exclusions)
        )
        if name == files.ranking and analysis.ranking is not None:
            checked = analysis.ranking.drop(columns=["name"]).to_csv(index=False)
        _check_finite_text(name, checked)
        (out / name).write_text(text, encoding="utf-8")
    _logger().info("wrote the regression report to %s", out)
    return written


def run_regression_report(
    *,
    input_path: str | None = None,
    db_path: str | None = None,
    table: str = DEFAULT_TABLE,
    response: str = "pp",
    variables: str = "unweighted",
    out_dir: str = "out/regression",
    thresholds: Mapping[str, float] | None = None,
    settings: Mapping[str, float] | None = None,
    log_response: bool = False,
    final_variables: Sequence[str] | None = None,
    cv_folds: int = 10,
    cv_seed: int = DEFAULT_CV_SEED,
) -> tuple[RegressionAnalysis, dict[str, str]]:
    """The regression_report flow's steps run in-process, without a Prefect server."""
    frame = read_player_table.fn(input_path, db_path, table)
    dataset = prepare_regression_dataset.fn(frame, response, variables, thresholds)
    analysis = analyse_regression.fn(
        dataset, settings, log_response, final_variables, cv_folds, cv_seed
    )
    source = input_path if input_path is not None else f"{db_path}:{table}"
    return analysis, write_regression_report.fn(analysis, source, out_dir)

"""Regression stage: read a player table, prepare the dataset, analyse, write the regression report.

All statistics live in `ddrank.regression`, the report's files are written by `publish.regression`.
`run_regression_report` is the entry point the CLI runs without a Prefect server; the flow
`regression_report` runs the same steps as tasks. Whether `ddrank run` writes a regression report
at all is `stages.regression_gate`, which imports no statistics package.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ddrank.regression.analysis import RegressionAnalysis, SelectionSettings, analyse
from ddrank.regression.diagnostics import DEFAULT_CV_SEED
from ddrank.regression.variables import PreparedDataset, Thresholds, prepare_dataset
from publish.regression import write_regression_report
from stages.regression_gate import (  # noqa: F401 - re-exported: the stage's light half
    MIN_REGRESSION_PLAYERS,
    PAPER_BOARDS,
    eligible_players,
    player_table,
    scaled_thresholds,
)
from store import Store

DEFAULT_TABLE = "player_stats"
_MODULE_LOGGER = logging.getLogger("ddrank.regression")
Logger = logging.Logger | logging.LoggerAdapter


@dataclass(frozen=True)
class RegressionRequest:
    """One regression report: where the players come from, the model's options, where it goes.

    `thresholds` overrides Table 9's minima (counter input only); `settings` overrides the
    selection levels (`vif_limit`, `forward_slentry`, `backward_slstay`, `stepwise_slentry`,
    `stepwise_slstay`, `significance`).
    """

    input_path: str | None = None
    db_path: str | None = None
    table: str = DEFAULT_TABLE
    response: str = "pp"
    variables: str = "unweighted"
    out_dir: str = "out/regression"
    thresholds: Mapping[str, float] | None = None
    settings: Mapping[str, float] | None = None
    log_response: bool = False
    final_variables: Sequence[str] | None = None
    cv_folds: int = 10
    cv_seed: int = DEFAULT_CV_SEED

    @property
    def source(self) -> str:
        """The input as the report names it: the CSV path, or `store:table`."""
        return self.input_path if self.input_path is not None else f"{self.db_path}:{self.table}"


def read_player_table(request: RegressionRequest, logger: Logger = _MODULE_LOGGER,
                      store: Store | None = None) -> pd.DataFrame:  # fmt: skip
    """Read the per-player table from a CSV file or from a store's table (read-only); `store` is
    the run's open store (`request.db_path` then only names it)."""
    if (request.input_path is None) == (request.db_path is None):
        raise ValueError("give exactly one of input_path (CSV) or db_path (DuckDB)")
    if request.input_path is not None:
        path = Path(request.input_path)
        if not path.is_file():
            raise FileNotFoundError(f"input CSV not found: {path}")
        frame = pd.read_csv(path)
        logger.info("read %d players from %s", len(frame), path)
        return frame
    table = request.table
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", table):
        raise ValueError(f"not a table name: {table!r}")
    path = Path(request.db_path)  # type: ignore[arg-type]
    if store is None and not path.is_file():
        raise FileNotFoundError(f"DuckDB file not found: {path}")
    with nullcontext(store) if store is not None else Store(path, read_only=True) as db:
        if not db.scalar("regression_has_table", table=table.rsplit(".", 1)[-1]):
            raise ValueError(
                f"{path}: no table {table!r} to regress (the DD stage writes player_stats: "
                f"run `ddrank dd --db {path}` or `ddrank run`)"
            )
        # pandas straight from DuckDB: the statistics expect its dtypes
        frame = db.con.sql(db.sql("regression_player_table"), params={"table": table}).df()
    if "name" not in frame.columns and "player" in frame.columns:  # the store's player_stats
        frame = frame.rename(columns={"player": "name"})
    logger.info("read %d players from %s:%s", len(frame), path, table)
    return frame


def prepare_regression_dataset(
    frame: pd.DataFrame, request: RegressionRequest, logger: Logger = _MODULE_LOGGER
) -> PreparedDataset:
    """Thresholds and rates, logging why each excluded player is left out.

    Each zero-denominator player is logged (info), each missing or non-finite value is a
    warning; players below the thresholds are summarised (each one at debug level). All of them
    are also written to excluded_players.csv.
    """
    thresholds = Thresholds.from_mapping(request.thresholds)
    dataset = prepare_dataset(frame, request.response, request.variables, thresholds)  # type: ignore[arg-type]
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


def analyse_regression(
    dataset: PreparedDataset, request: RegressionRequest, logger: Logger = _MODULE_LOGGER
) -> RegressionAnalysis:
    """VIF screen, the three selection procedures, the final model and the diagnostics."""
    analysis = analyse(
        dataset,
        settings=SelectionSettings(**dict(request.settings or {})),
        log_response=request.log_response,
        final_variables=list(request.final_variables) if request.final_variables else None,
        cv_folds=request.cv_folds,
        cv_seed=request.cv_seed,
    )
    final = analysis.final
    logger.info(
        "%s: final model %s, adjusted R² %.4f",
        dataset.label,
        list(final.model.variables) if final else None,
        final.model.adj_r_squared if final else float("nan"),
    )
    return analysis


def publish_regression_report(
    analysis: RegressionAnalysis, request: RegressionRequest, logger: Logger = _MODULE_LOGGER
) -> dict[str, str]:
    """Write the regression report's files to `request.out_dir`; return them by kind."""
    written = write_regression_report(analysis, request.source, request.out_dir)
    logger.info("wrote the regression report to %s", Path(request.out_dir))
    return written


def run_regression_report(
    request: RegressionRequest, logger: Logger = _MODULE_LOGGER, store: Store | None = None
) -> tuple[RegressionAnalysis, dict[str, str]]:
    """The stage's entry point: the flow `regression_report`'s steps, in-process, no server."""
    frame = read_player_table(request, logger, store)
    dataset = prepare_regression_dataset(frame, request, logger)
    analysis = analyse_regression(dataset, request, logger)
    return analysis, publish_regression_report(analysis, request, logger)

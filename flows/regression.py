"""Flow ``regression_report``: the paper's regression (Tables 9-16, Figures 1-2) as a report."""

from __future__ import annotations

from prefect import flow

from ddrank.regression.diagnostics import DEFAULT_CV_SEED
from tasks.regression import (
    DEFAULT_TABLE,
    analyse_regression,
    prepare_regression_dataset,
    read_player_table,
    write_regression_report,
)


@flow(name="regression_report")
def regression_report(
    input_path: str | None = None,
    db_path: str | None = None,
    table: str = DEFAULT_TABLE,
    response: str = "pp",
    variables: str = "unweighted",
    out_dir: str = "out/regression",
    thresholds: dict[str, float] | None = None,
    settings: dict[str, float] | None = None,
    log_response: bool = False,
    final_variables: list[str] | None = None,
    cv_folds: int = 10,
    cv_seed: int = DEFAULT_CV_SEED,
) -> dict[str, str]:
    """Read a player table (CSV or DuckDB), select and fit the models, write the report.

    ``thresholds`` overrides Table 9's minima (counter input only); ``settings`` overrides the
    selection levels (``vif_limit``, ``forward_slentry``, ``backward_slstay``,
    ``stepwise_slentry``, ``stepwise_slstay``, ``significance``). Returns the written files.
    """
    frame = read_player_table(input_path, db_path, table)
    dataset = prepare_regression_dataset(frame, response, variables, thresholds)
    analysis = analyse_regression(
        dataset, settings, log_response, final_variables, cv_folds, cv_seed
    )
    source = input_path if input_path is not None else f"{db_path}:{table}"
    return write_regression_report(analysis, source, out_dir)

"""Flow `regression_report`: the paper's regression (Tables 9-16, Figures 1-2) as a report."""

from __future__ import annotations

from prefect import flow

from ddrank.regression.diagnostics import DEFAULT_CV_SEED
from stages.regression import DEFAULT_TABLE, RegressionRequest
from tasks.regression import (
    analyse_regression_task,
    prepare_regression_dataset_task,
    read_player_table_task,
    write_regression_report_task,
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

    The parameters are the fields of `stages.regression.RegressionRequest`. Returns the written
    files.
    """
    request = RegressionRequest(**locals())
    frame = read_player_table_task(request)
    dataset = prepare_regression_dataset_task(frame, request)
    analysis = analyse_regression_task(dataset, request)
    return write_regression_report_task(analysis, request)

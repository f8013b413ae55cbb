"""Prefect tasks of the regression report: thin wrappers over `stages.regression`.

Inside a flow the steps log to the Prefect run logger, so the UI shows why players were left out.
"""

from __future__ import annotations

import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from ddrank.regression.analysis import RegressionAnalysis
from ddrank.regression.variables import PreparedDataset
from stages import regression as stage
from stages.regression import RegressionRequest


@task(name="read-player-table", cache_policy=NO_CACHE)
def read_player_table_task(request: RegressionRequest) -> pd.DataFrame:
    return stage.read_player_table(request, get_run_logger())


@task(name="prepare-regression-dataset", cache_policy=NO_CACHE)
def prepare_regression_dataset_task(
    frame: pd.DataFrame, request: RegressionRequest
) -> PreparedDataset:
    return stage.prepare_regression_dataset(frame, request, get_run_logger())


@task(name="analyse-regression", cache_policy=NO_CACHE)
def analyse_regression_task(
    dataset: PreparedDataset, request: RegressionRequest
) -> RegressionAnalysis:
    return stage.analyse_regression(dataset, request, get_run_logger())


@task(name="write-regression-report", cache_policy=NO_CACHE)
def write_regression_report_task(
    analysis: RegressionAnalysis, request: RegressionRequest
) -> dict[str, str]:
    return stage.publish_regression_report(analysis, request, get_run_logger())

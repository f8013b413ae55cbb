"""The whole pipeline in a subprocess, as the end-to-end tests run it: `ddrank run` (tests/conftest.py's
session fixture `lin_pipeline`) and the flow as a deployment starts it (tests/test_pipeline.py,
tests/test_scoring_flow.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: The bundled BBO vugraph file (30 table results): the small real input of the end-to-end runs.
ROOT = Path(__file__).resolve().parents[1]
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"


def pipeline_env(tmp: Path, name: str, inputs: list[Path]) -> dict[str, str]:
    """The environment of a `python -m flows.pipeline` run on `inputs`, with its store at
    `tmp/NAME.duckdb` and its outputs in `tmp/NAME-out` (partitions of 4 boards: several
    partitions even on 30 boards)."""
    env = dict(os.environ)
    env.update(
        DDRANK_DB=str(tmp / f"{name}.duckdb"),
        DDRANK_INPUTS="[" + ", ".join(f'"{p}"' for p in inputs) + "]",
        DDRANK_PARTITION_SIZE="4",
        DDRANK_OUT=str(tmp / f"{name}-out"),
        DDRANK_WORKERS="2",
        DO_NOT_TRACK="1",
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
    )
    env.pop("PREFECT_API_URL", None)
    return env


def run_pipeline(tmp: Path, name: str, inputs: list[Path]) -> subprocess.CompletedProcess[str]:
    """The whole pipeline flow, as `ddrank run` starts it, in a subprocess (its own Prefect API)."""
    return subprocess.run([sys.executable, "-m", "flows.pipeline"], cwd=ROOT,
                          env=pipeline_env(tmp, name, inputs), capture_output=True, text=True,
                          timeout=900)  # fmt: skip


def run_ddrank(tmp: Path, name: str, inputs: list[Path]) -> subprocess.CompletedProcess[str]:
    """`ddrank run --verbose` as a user starts it, piped (a log), with the same settings as
    `run_pipeline` (from the DDRANK_* variables): its progress lines once a second, its summary,
    and Prefect's log lines (the flow's own summary lines, such as the scoring stage's)."""
    env = {**pipeline_env(tmp, name, inputs), "DDRANK_PROGRESS_EVERY": "1", "COLUMNS": "400"}
    return subprocess.run([sys.executable, "-m", "cli.main", "run", "--verbose"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)  # fmt: skip

"""Run settings: one pydantic model for the CLI, the flows and deployments.

Filled from CLI flags, `DDRANK_*` variables or a TOML file. Every option of a stage command is a
field here, so `ddrank run`, a flow call and a deployment parameter can all set it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = REPO_ROOT / "data" / "sample"
RANKINGS_CSV = REPO_ROOT / "data" / "rankings" / "wbf-open-rankings.csv"


class PipelineSettings(BaseSettings):
    """Everything a pipeline run needs; the flow parameters and the CLI flags are these fields."""

    model_config = SettingsConfigDict(env_prefix="DDRANK_", extra="ignore")

    inputs: list[str] = Field(default_factory=lambda: [str(SAMPLE_DIR)],
                              description="Hand-record files or folders to ingest.")  # fmt: skip
    db: str = Field("data/ddrank.duckdb", description="DuckDB store.")
    out: str = Field("out", description="Folder for reports and exports.")
    inbox: str | None = Field(None, description="Folder watched for new hand records.")
    partition_size: int = Field(500, ge=1, description="Boards per partition (unit of fan-out).")
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1,
                         description="Worker processes for double-dummy analysis.")  # fmt: skip
    dds_threads: int = Field(1, ge=1, description="DDS threads inside each worker.")
    runner: Literal["process", "thread", "dask"] = Field(
        "process", description="Where DD partitions run: CPU processes, threads, or a Dask cluster."
    )
    dask_address: str | None = Field(None, description="tcp://host:port of a Dask scheduler.")
    rankings: str = Field(str(RANKINGS_CSV), description="Ranking list CSV for name matching.")
    aliases: str | None = Field(None, description="CSV of raw name → ranking name overrides.")
    response: Literal["pp", "mp"] = Field(
        "pp", description="Regression response: WBF placing points (pp) or masterpoints (mp)."
    )
    variables: Literal["weighted", "unweighted"] = Field(
        "unweighted", description="The paper's weighted or unweighted mistake variables."
    )
    # Table 9's minima; `ddrank run` scales them to the store's size (README).
    min_claims: int = Field(362, description="Regression: claims a player needs.")
    min_leads: int = Field(100, description="Regression: opening leads a player needs.")
    min_cards_declarer: int = Field(1408, description="Regression: cards played as declarer.")
    min_cards_defender: int = Field(1424, description="Regression: cards played as defender.")
    min_auctions: int = Field(392, description="Regression: auctions a player needs.")
    force: bool = Field(False, description="Run every stage even when nothing is new since the "
                        "last finished run (see tasks/freshness.py).")  # fmt: skip


def load_settings(config: str | Path | None = None, **overrides: Any) -> PipelineSettings:
    """Defaults < TOML file (`[ddrank]` table or top level) < DDRANK_* env < explicit overrides."""
    data: dict[str, Any] = {}
    path = Path(config) if config else None
    if path is None and os.environ.get("DDRANK_CONFIG"):
        path = Path(os.environ["DDRANK_CONFIG"])
    if path is not None:
        raw = tomllib.loads(path.read_text())
        data.update(raw.get("ddrank", raw))
    env = PipelineSettings().model_dump(exclude_unset=True)
    data.update(env)
    data.update({k: v for k, v in overrides.items() if v is not None})
    return PipelineSettings(**data)

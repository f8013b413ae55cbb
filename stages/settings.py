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

from ddrank.data import bundled
from ddrank.dd.solver import MAX_TABLE_BATCH, TABLE_BATCH, TRACE_BATCH
from ddrank.limits import DEFAULT_LIMITS, Limits
from ddrank.regression.defaults import DEFAULT_CV_SEED
from ddrank.scoring.rulebooks import own_methods
from store.defaults import DEFAULT_DB, DEFAULT_OUT

#: The matchpoint methods an option may fix: as the scorer did, the board arithmetic's lifts, and
#: each producer's own arithmetic (its rulebook's).
MP_METHODS = ("auto", "neuberg", "mitchell1", "mitchell1_bis", "ascherman", "none", *own_methods())

#: Shipped with the package (ddrank/data), found from any directory.
SAMPLE_DIR = bundled("sample")
RANKINGS_CSV = bundled("rankings", "wbf-open-rankings.csv")


class PipelineSettings(BaseSettings):
    """Everything a pipeline run needs; the flow parameters and the CLI flags are these fields."""

    model_config = SettingsConfigDict(env_prefix="DDRANK_", extra="ignore")

    inputs: list[str] = Field(default_factory=lambda: [str(SAMPLE_DIR)],
                              description="Hand-record files or folders to ingest "
                              "(default: the sample shipped with the package).")  # fmt: skip
    db: str = Field(str(DEFAULT_DB), description="DuckDB store (a relative path is taken from "
                    "the current directory).")  # fmt: skip
    out: str = Field(str(DEFAULT_OUT), description="Folder for reports and exports (a relative "
                     "path is taken from the current directory).")  # fmt: skip
    inbox: str | None = Field(None, description="Folder watched for new hand records.")
    partition_size: int = Field(
        500, ge=1, description="Table results (raw records) per partition, the unit of storage "
        "(DD work is cut into solve units for the workers, whatever the partitions)."
    )  # fmt: skip
    # -- input limits (ddrank/limits.py): a file over one is refused whole, nothing of it stored
    max_file_bytes: int = Field(DEFAULT_LIMITS.max_file_bytes, ge=1, description="Input limit: "
                                "bytes of one input file.")  # fmt: skip
    max_rows: int = Field(DEFAULT_LIMITS.max_rows, ge=1, description="Input limit: records of "
                          "one input file (table results, hand-record deals, ranking lines, "
                          "rows of a SQLite bridgedeals table).")  # fmt: skip
    max_xml_depth: int = Field(DEFAULT_LIMITS.max_xml_depth, ge=1, description="Input limit: "
                               "levels of nesting in an XML results file.")  # fmt: skip
    max_xml_elements: int = Field(DEFAULT_LIMITS.max_xml_elements, ge=1, description="Input "
                                  "limit: elements in an XML results file.")  # fmt: skip
    max_value_chars: int = Field(DEFAULT_LIMITS.max_value_chars, ge=1, description="Input limit: "
                                 "characters of one value (a tag's value, a text node, an XML "
                                 "start tag with its attributes).")  # fmt: skip
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1,
                         description="Worker processes (double dummy, cleaning).")  # fmt: skip
    dds_threads: int = Field(1, ge=1, description="DDS threads inside each worker.")
    runner: Literal["process", "thread", "dask"] = Field(
        "thread",
        description="Where DD solve units run: thread (threads of this process, each driving "
        "its own DDS process; the cheapest: no worker imports Prefect), process (a pool of "
        "worker processes) or dask (a Dask cluster).",
    )
    dask_address: str | None = Field(None, description="tcp://host:port of a Dask scheduler "
                                     "(with --runner dask); the DD work is then planned for "
                                     "its workers' threads, not --workers.")  # fmt: skip
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
    # -- scoring and ratings (stages/scoring.py, ratings.py, split.py, skill.py) --------------
    mp_method: Literal[MP_METHODS] = (  # type: ignore[valid-type]
        Field("auto", description="Matchpoints of a board played fewer times than the field: "
              "`auto` as the event's scorer did, or one method for every event.")
    )  # fmt: skip
    mp_top: float | None = Field(None, description="Matchpoints per result beaten: 2, or 1 as "
                                 "some federations score. Default: as the event's scorer did.")  # fmt: skip
    min_boards: int = Field(30, ge=0, description="Boards a player needs to appear in the "
                            "rating table and the reports' top 20.")  # fmt: skip
    lehman_start_rating: float = Field(50.0, description="Lehman rating of a new player (%).")
    lehman_start_weight: float = Field(10.0, ge=0, description="Boards' worth of belief in the "
                                       "start rating.")  # fmt: skip
    lehman_history_weight: float = Field(0.9, gt=0, le=1, description="Per-period discount of "
                                         "past boards (1 = none).")  # fmt: skip
    lehman_max_weight: float | None = Field(1000.0, description="Cap on the backlog weight.")
    lehman_min_ante: float = Field(1.0, gt=0, description="Floor on a rating used as an ante.")
    lehman_imp_top: float = Field(12.0, gt=0, description="IMPs per board that count as 100%.")
    lehman_scale: Literal["imps", "mp"] = Field("imps", description="`ddrank lehman`: rate on "
                                                "cross-IMPs mapped to % (imps) or MP % (mp).")  # fmt: skip
    cross_imps_divide_by: Literal["results", "comparisons"] = Field(
        "results", description="`ddrank score --valet`: cross-IMPs per result or per comparison."
    )
    butler_drop_count: int = Field(1, ge=0, description="`ddrank score --valet`: results dropped "
                                   "at each end of the Butler/Bastille datum.")  # fmt: skip
    butler_drop_percent: float | None = Field(None, description="`ddrank score --valet`: drop "
                                              "this percentage at each end instead.")  # fmt: skip
    skill_full: bool = Field(False, description="Skill ratings: rate every period again.")
    skill_component: str = Field("bidding", description="`ddrank rate`: the component shown.")
    skill_min_boards: int = Field(30, ge=0, description="`ddrank rate`: boards a shown player "
                                  "needs.")  # fmt: skip
    # -- double dummy (`ddrank dd`) --
    table_batch: int = Field(TABLE_BATCH, ge=1, le=MAX_TABLE_BATCH,
                             description="Deals per DDS CalcAllTables call (1-40).")  # fmt: skip
    trace_batch: int = Field(TRACE_BATCH, ge=1, le=200,
                             description="Boards per DDS AnalyseAllPlays call (1-200).")  # fmt: skip
    refresh_cache: bool = Field(False, description="Recompute DD solve units even when a cached "
                                "result exists.")  # fmt: skip
    # -- names (`ddrank match-names`) --
    names_strategy: Literal["fuzzy", "seed"] = Field(
        "fuzzy", description="Ranking-list matching: fuzzy, or seed (the paper's algorithm)."
    )
    # -- regression (`ddrank regress`): SAS-style selection levels and validation --
    vif_limit: float = Field(5.0, description="Remove predictors with VIF above this, one at a "
                             "time.")  # fmt: skip
    forward_slentry: float = Field(0.50, description="Forward selection SLENTRY (SAS default).")
    backward_slstay: float = Field(0.10, description="Backward elimination SLSTAY (SAS default).")
    stepwise_slentry: float = Field(0.15, description="Stepwise SLENTRY (SAS default).")
    stepwise_slstay: float = Field(0.15, description="Stepwise SLSTAY (SAS default).")
    significance: float = Field(0.05, description="Significance used when choosing the final, "
                                "all-negative model.")  # fmt: skip
    log_response: bool = Field(False, description="Regress the log of the response.")
    cv_folds: int = Field(10, ge=2, description="Folds of the cross-validated R².")
    cv_seed: int = Field(DEFAULT_CV_SEED, description="Seed of the cross-validation folds.")
    force: bool = Field(False, description="Run every stage again even when nothing is new "
                        "since the last finished run (same files, store, settings, outputs).")  # fmt: skip
    # -- which stages run (`ddrank results` turns the research stages off) --
    double_dummy: bool = Field(True, description="Run the double-dummy analysis (tables, traces, "
                               "per-player mistakes).")  # fmt: skip
    regression: bool = Field(True, description="Write the regression report (needs the DD "
                             "analysis).")  # fmt: skip
    ratings: bool = Field(True, description="Update the Lehman and skill ratings and the bid/play "
                          "split after scoring.")  # fmt: skip
    names_scope: Literal["covered", "all", "none"] = Field(
        "covered", description="Which events' players are matched to the ranking list: `covered` "
        "(events the list covers: most of their players are on it, as in championships; club "
        "players keep their names), `all`, or `none` (no name matching).")  # fmt: skip


def limits_of(settings: PipelineSettings) -> Limits:
    """The input limits of these settings, for the readers."""
    return Limits(**{name: getattr(settings, name) for name in DEFAULT_LIMITS.as_dict()})


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

"""The learned DD estimator's files: saved models, the DDS-solved caches, the states datasets.

Everything the estimator reads or writes on disk goes through here; `ddrank.estimate` stays pure
and `stages.estimate` computes. Cache writes are atomic (temporary file, then rename), so a killed
run never leaves half a shard.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from ddrank.data import bundled
from ddrank.extras import require

#: Where `train` caches DDS work and saves models: relative, so in the current directory.
CACHE_DIR = Path("data/cache/estimator")
MODELS_DIR = Path("models")
DATASET_FILE = "states.parquet"
#: The small held-out evaluation set shipped with the package (data/estimator/make_evalset.py).
EVALSET = bundled("estimator", "evalset.parquet")
#: The models shipped with the package; a model of the same name in MODELS_DIR wins.
SHIPPED_MODELS_DIR = bundled("models")
DEFAULT_MODEL = "gbm-compact"
SHARD_DEALS = 200  # deals per cached parquet shard: ~30 s of single-threaded DDS


# ------------------------------------------------------------------ DDS caches
def shard_path(cache_dir: Path, seed: int, index: int, size: int = SHARD_DEALS) -> Path:
    """Shard `index` holds deals index*size .. (index+1)*size-1 of the seed's sequence."""
    tag = "" if size == SHARD_DEALS else f"-size{size}"
    return cache_dir / "random" / f"seed{seed}{tag}-shard{index:05d}.parquet"


def write_parquet_atomic(frame: pl.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    frame.write_parquet(tmp)
    os.replace(tmp, path)  # atomic: a killed run never leaves a half shard


def cached_traces(cache_dir: Path, key: str) -> list[list[int] | None] | None:
    """The play traces of one solved job, or None when it was never solved."""
    path = cache_dir / "traces" / f"{key}.json"
    return json.loads(path.read_text()) if path.exists() else None


def save_traces(cache_dir: Path, key: str, traces: list[list[int] | None]) -> None:
    path = cache_dir / "traces" / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(traces))
    os.replace(tmp, path)


# ------------------------------------------------------------------ states datasets
def save_dataset(states: pl.DataFrame, cache_dir: Path = CACHE_DIR) -> Path:
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / DATASET_FILE
    states.write_parquet(path)
    return path


def load_dataset(cache_dir: Path = CACHE_DIR) -> pl.DataFrame:
    path = cache_dir / DATASET_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: run `ddrank dd-estimate train` first")
    return pl.read_parquet(path)


def evaluation_states(
    cache_dir: Path = CACHE_DIR, states: Path | None = None
) -> tuple[pl.DataFrame, str]:
    """The states to score and a line saying which they are: `states` if given, else the
    training cache (its held-out split), else the shipped evaluation set."""
    if states is not None:
        if not states.is_file():
            raise FileNotFoundError(f"{states}: no such states file")
        return pl.read_parquet(states), f"states of {states}"
    cached = cache_dir / DATASET_FILE
    if cached.is_file():
        return pl.read_parquet(cached), f"held-out deals of the training cache {cached}"
    if EVALSET.is_file():
        frame = pl.read_parquet(EVALSET)
        return frame, (
            "the shipped evaluation set ddrank/data/estimator/evalset.parquet "
            f"({frame.height:,} held-out states labelled by DDS; `ddrank dd-estimate train` "
            "builds the full held-out set)"
        )
    raise FileNotFoundError(
        f"no states to score: {cached} is missing (run `ddrank dd-estimate train`, about "
        f"1 h 45 min of DDS on 2 cores) and so is the shipped {EVALSET.name} "
        "(run `python data/estimator/make_evalset.py`, about a minute)"
    )


# ------------------------------------------------------------------ models
def save_model(model: Any, models_dir: Path = MODELS_DIR, extra: dict | None = None) -> Path:
    """`<name>.joblib` plus `<name>.json` with feature version, parameters and metrics."""
    joblib = require("joblib", "estimator")

    models_dir.mkdir(parents=True, exist_ok=True)
    path = models_dir / f"{model.name}.joblib"
    joblib.dump(model, path, compress=3)
    meta = {
        "name": model.name,
        "family": model.spec.family,
        "feature_set": model.spec.feature_set,
        "feature_version": model.feature_version,
        "params": model.spec.params,
        "fit_seconds": round(model.fit_seconds, 1),
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "metrics": model.metrics,
        **(extra or {}),
    }
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return path


def load_model(name_or_path: str | Path = DEFAULT_MODEL, models_dir: Path = MODELS_DIR) -> Any:
    """A saved TrickModel, refusing one whose feature version this code no longer computes."""
    from ddrank.estimate.models import FEATURE_SETS

    path = find_model(name_or_path, models_dir)
    joblib = require("joblib", "estimator")
    require("lightgbm", "estimator")  # the shipped models are LightGBM and scikit-learn objects
    require("sklearn", "estimator")
    model = joblib.load(path)
    if FEATURE_SETS.get(model.spec.feature_set) != model.feature_version:
        raise ValueError(
            f"{path} was trained on features {model.feature_version}; this code computes "
            f"{FEATURE_SETS.get(model.spec.feature_set)}: retrain it"
        )
    return model


def find_model(name_or_path: str | Path, models_dir: Path = MODELS_DIR) -> Path:
    """A `.joblib` path as given, else `<name>.joblib` in `models_dir`, else the shipped one."""
    path = Path(name_or_path)
    if path.suffix:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such model file")
        return path
    for folder in (models_dir, SHIPPED_MODELS_DIR):
        if (folder / f"{name_or_path}.joblib").is_file():
            return folder / f"{name_or_path}.joblib"
    raise FileNotFoundError(
        f"no model {name_or_path!r} in {models_dir}/ nor among the shipped models "
        f"({', '.join(p.stem for p in saved_models(SHIPPED_MODELS_DIR)) or 'none'}): "
        "run `ddrank dd-estimate train` first"
    )


def saved_models(models_dir: Path = MODELS_DIR) -> list[Path]:
    """The models of `models_dir`, plus each shipped model of a name not found there."""
    own = sorted(models_dir.glob("*.joblib"))
    if models_dir.resolve() == SHIPPED_MODELS_DIR.resolve():
        return own
    names = {p.stem for p in own}
    return own + [p for p in sorted(SHIPPED_MODELS_DIR.glob("*.joblib")) if p.stem not in names]

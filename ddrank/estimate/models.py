"""Trick models: one learner per hand size, behind one interface that returns distributions.

Families (all scikit-learn or LightGBM, single-threaded):
- `softmax`: multinomial logistic regression on standardised features, the seed's baseline;
- `extra_trees`: extremely randomised regression trees, the seed's best learner;
- `gbm`: LightGBM gradient-boosted regression trees.

Each model sees one feature set: `paper80` (the seed's 80 features, absolute seats, no leader;
trump and no-trump states trained apart as in the seed's 26 files) or `compact` (ours: exact
rank bits seen from the side on lead; it predicts the leading side's tricks, mapped back to NS).

Regressors give a distribution by discretising a normal around the prediction, with the spread
measured per hand size on deals held out of the fit (a calibration slice of the training deals).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ddrank.estimate.dataset import target_for_leader
from ddrank.estimate.features import (
    COMPACT_VERSION,
    PAPER_VERSION,
    compact_feature_names,
    compact_features,
    paper_feature_names,
    paper_features,
)
from ddrank.estimate.state import hand_size, normalise
from ddrank.extras import require

FEATURE_SETS = {"paper80": PAPER_VERSION, "compact": COMPACT_VERSION}
FAMILIES = ("softmax", "extra_trees", "gbm")
MAX_TRICKS = 13


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """What to train: a learner family on a feature set, with its hyper-parameters."""

    family: str
    feature_set: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.family}-{self.feature_set}"


DEFAULT_SPECS = (
    ModelSpec("softmax", "paper80", {}),
    ModelSpec("softmax", "compact", {}),
    ModelSpec("extra_trees", "paper80", {}),
    ModelSpec("extra_trees", "compact", {}),
    ModelSpec("gbm", "paper80", {}),
    ModelSpec("gbm", "compact", {}),
)
SOFTMAX_MAX_ROWS = 10_000
# Real boards' states weigh 3x random ones in the tree fits: random deals teach the card
# mechanics, real contracts are the positions users screen (measured: +3 points at 13 cards
# on real boards, no loss on random ones).
REAL_PLAY_WEIGHT = 3.0  # a linear model is data-saturated long before this; keeps fits short


def feature_matrix(
    feature_set: str, owners: np.ndarray, strains: np.ndarray, leaders: np.ndarray
) -> np.ndarray:
    """Normalise positions the seed's way, then compute the requested feature set."""
    norm = normalise(owners, strains)
    if feature_set == "paper80":
        return paper_features(norm)
    if feature_set == "compact":
        return compact_features(norm, leaders, np.asarray(strains) == 4)
    raise ValueError(f"unknown feature set {feature_set!r}")


def feature_names(feature_set: str) -> list[str]:
    return paper_feature_names() if feature_set == "paper80" else compact_feature_names()


def _group_keys(feature_set: str, sizes: np.ndarray, strains: np.ndarray) -> np.ndarray:
    """Model key per row: hand size, plus trump/no-trump for the seed's feature set."""
    if feature_set == "paper80":
        return sizes * 2 + (np.asarray(strains) == 4)
    return sizes * 2


def _calibration_rows(deal_ids: np.ndarray, percent: int = 10) -> np.ndarray:
    """A slice of the *training* deals kept out of each fit: early stopping and spreads."""
    salt = b"calibration:"
    return np.array(
        [int(hashlib.sha1(salt + d.encode()).hexdigest()[:8], 16) % 100 < percent for d in deal_ids]
    )


def _normal_distribution(mu: np.ndarray, sigma: float, size: int) -> np.ndarray:
    """P(tricks = t), t = 0..size, for a normal(mu, sigma) rounded to the nearest trick."""
    edges = np.arange(size + 2) - 0.5  # bin t is [t-0.5, t+0.5)
    z = (edges[None, :] - mu[:, None]) / max(sigma, 1e-3)
    cdf = 0.5 * (1.0 + _erf(z / math.sqrt(2.0)))
    cdf[:, 0], cdf[:, -1] = 0.0, 1.0  # tails fold into 0 and `size` tricks
    return np.diff(cdf, axis=1)


def _erf(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return erf(x)


def _new_estimator(spec: ModelSpec) -> Any:
    require("sklearn", "estimator")  # the [estimator] extra, with a one-line message if missing
    if spec.family == "gbm":
        require("lightgbm", "estimator")
    if spec.family == "softmax":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        params = {"max_iter": 100, "tol": 1e-3}
        return make_pipeline(StandardScaler(), LogisticRegression(**{**params, **spec.params}))
    if spec.family == "extra_trees":
        from sklearn.ensemble import ExtraTreesRegressor

        params = {
            "n_estimators": 20,
            "min_samples_leaf": 10,
            "max_features": 0.3,
            "max_leaf_nodes": 4096,  # bounds model size (fully grown trees reach GBs)
            "n_jobs": 1,
        }
        return ExtraTreesRegressor(**{**params, **spec.params}, random_state=0)
    if spec.family == "gbm":
        import lightgbm as lgb

        params = {  # at most 160 trees of 39 leaves: accuracy vs the 50,000 positions/s budget
            "n_estimators": 160,
            "learning_rate": 0.15,
            "num_leaves": 39,
            "min_child_samples": 30,
            "reg_lambda": 5.0,
            "subsample": 0.8,
            "subsample_freq": 1,
            "colsample_bytree": 0.8,
            "n_jobs": 1,
            "verbose": -1,
        }
        return lgb.LGBMRegressor(**{**params, **spec.params}, random_state=0)
    raise ValueError(f"unknown model family {spec.family!r}")


@dataclass
class SizeModel:
    """The learner for one hand size (and strain kind): classes or a calibrated spread."""

    estimator: Any
    size: int
    sigma: float = 1.0  # regressors: spread of the rounded-normal distribution
    classes: np.ndarray | None = None  # classifiers: tricks of predict_proba's columns
    _table: np.ndarray | None = field(default=None, repr=False)  # cached distribution rows

    def distribution(self, x: np.ndarray, flip: np.ndarray | None = None) -> np.ndarray:
        """[n, size+1] probabilities of the modelled side's tricks; rows where `flip` is set
        get the other side's (t -> size - t)."""
        if self.classes is not None:
            proba = self.estimator.predict_proba(x)
            out = np.zeros((len(x), self.size + 1))
            out[:, self.classes] = proba
            if flip is not None:
                out[flip] = out[flip, ::-1]
            return out
        if self._table is None:  # rounded-normal rows for mu on a 0.01-trick grid
            grid = np.arange(self.size * 100 + 1) / 100.0
            self._table = _normal_distribution(grid, self.sigma, self.size)
        mu = self.mu(x)
        if flip is not None:  # the rounded normal is symmetric: flip the mean, not the row
            mu = np.where(flip, self.size - mu, mu)
        return self._table[np.rint(mu * 100).astype(np.int64)]

    def mu(self, x: np.ndarray) -> np.ndarray:
        """Regressors: the predicted tricks, clipped to what the hand size allows."""
        if hasattr(self.estimator, "booster_"):  # LightGBM: skip the sklearn wrapper's checks
            booster = self.estimator.booster_
            mu = booster.predict(x, num_iteration=booster.best_iteration or None, num_threads=1)
        else:
            mu = self.estimator.predict(x)
        return np.clip(mu, 0, self.size)


@dataclass
class TrickModel:
    """A trained estimator: one SizeModel per key, its feature version and its metrics."""

    spec: ModelSpec
    feature_version: str
    by_key: dict[int, SizeModel]
    metrics: list[dict[str, Any]] = field(default_factory=list)
    fit_seconds: float = 0.0

    @property
    def name(self) -> str:
        return self.spec.name

    def predict(
        self, owners: np.ndarray, strains: np.ndarray, leaders: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(expected NS tricks [n], distribution of NS tricks [n, 14]) for raw positions."""
        owners = np.asarray(owners, dtype=np.int8)
        strains = np.asarray(strains, dtype=np.int64)
        leaders = np.asarray(leaders, dtype=np.int64)
        sizes = hand_size(owners)
        x = feature_matrix(self.spec.feature_set, owners, strains, leaders)
        keys = _group_keys(self.spec.feature_set, sizes, strains)
        dist = np.zeros((len(owners), MAX_TRICKS + 1))
        for key in np.unique(keys):
            rows = np.flatnonzero(keys == key)
            model = self.by_key.get(int(key))
            if model is None:
                raise KeyError(f"{self.name} has no model for hand size {key // 2}")
            flip = None
            if self.spec.feature_set == "compact":  # leading side's tricks -> NS tricks
                flip = leaders[rows] % 2 == 1
            dist[rows, : model.size + 1] = model.distribution(x[rows], flip)
        expected = dist @ np.arange(MAX_TRICKS + 1)
        return expected, dist


def fit_trick_model(
    spec: ModelSpec,
    owners: np.ndarray,
    strains: np.ndarray,
    leaders: np.ndarray,
    ns_tricks: np.ndarray,
    deal_ids: np.ndarray,
    weights: np.ndarray | None = None,
) -> TrickModel:
    """Fit one learner per hand size on training states (the caller keeps test deals out).

    `weights` (optional, per state) lets real-play states count more than random ones."""
    start = time.perf_counter()
    strains = np.asarray(strains, dtype=np.int64)
    leaders = np.asarray(leaders, dtype=np.int64)
    sizes = hand_size(owners)
    x = feature_matrix(spec.feature_set, owners, strains, leaders)
    y = np.asarray(ns_tricks)
    if spec.feature_set == "compact":
        y = target_for_leader(y, leaders, sizes)
    calib = _calibration_rows(np.asarray(deal_ids))
    keys = _group_keys(spec.feature_set, sizes, strains)
    by_key: dict[int, SizeModel] = {}
    for key in np.unique(keys):
        rows = keys == key
        size = int(key // 2)
        fit_rows, cal_rows = rows & ~calib, rows & calib
        if cal_rows.sum() < 20 or fit_rows.sum() < 20:  # too few deals to hold some out
            fit_rows = cal_rows = rows
        est = _new_estimator(spec)
        if spec.family == "softmax":
            if len(np.unique(y[rows])) < 2:  # one outcome only (tiny data): predict it
                from sklearn.dummy import DummyClassifier

                est = DummyClassifier(strategy="most_frequent")
            idx = np.flatnonzero(rows)
            if len(idx) > SOFTMAX_MAX_ROWS:
                idx = np.random.default_rng(0).choice(idx, SOFTMAX_MAX_ROWS, replace=False)
            est.fit(x[idx], y[idx])
            by_key[int(key)] = SizeModel(est, size, classes=est.classes_.astype(int))
            continue
        if spec.family == "gbm":
            import lightgbm as lgb

            est.fit(
                x[fit_rows],
                y[fit_rows],
                sample_weight=None if weights is None else weights[fit_rows],
                eval_X=x[cal_rows],
                eval_y=y[cal_rows],
                callbacks=[lgb.early_stopping(50, verbose=False)],
            )
        else:
            est.fit(x[fit_rows], y[fit_rows], None if weights is None else weights[fit_rows])
        model = SizeModel(est, size)
        resid = y[cal_rows] - model.mu(x[cal_rows])
        model.sigma = float(max(np.sqrt(np.mean(resid**2)), 0.05))
        by_key[int(key)] = model
    return TrickModel(
        spec, FEATURE_SETS[spec.feature_set], by_key, fit_seconds=time.perf_counter() - start
    )

"""The paper's regression inputs: 33 per-player counters, the 14+14 rates of Table 4, the
opportunity thresholds of Table 9, and the preparation of one analysable dataset.

Rates are named after Table 4 of the paper (the names the report prints); the paper's own CSV
files (``200_*_results.csv``, ``all_*_results.csv``) use shorter column names, which are accepted
as aliases. Players that cannot be analysed are never silently dropped: each one becomes an
:class:`Exclusion` with a reason the caller logs and writes out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Literal

import numpy as np
import pandas as pd

from ddrank.mistakes.variables import AUCTION_CATEGORIES
from ddrank.regression.defaults import TABLE9_MINIMA

#: The 33 counters of Table 3, in the order of dds_final_results.csv.
COUNTERS: tuple[str, ...] = (
    "claims",
    "claim_mistakes",
    "weighted_claim_mistakes",
    "leads",
    "lead_mistakes",
    "weighted_lead_mistakes",
    "cards_played_as_declarer",
    "play_mistakes_as_declarer",
    "weighted_play_mistakes_as_declarer",
    "cards_played_as_defender",
    "play_mistakes_as_defender",
    "weighted_play_mistakes_as_defender",
    "auctions_analyzed",
    "defender_missed_current_double",
    "weighted_defender_missed_current_double",
    "defender_erroneously_doubled",
    "weighted_defender_erroneously_doubled",
    "defender_missed_higher_contract",
    "weighted_defender_missed_higher_contract",
    "declarer_missed_higher_contract",
    "weighted_declarer_missed_higher_contract",
    "declarer_missed_doubling_opponents_last_bid",
    "weighted_declarer_missed_doubling_opponents_last_bid",
    "declarer_missed_opponents_last_redouble",
    "weighted_declarer_missed_opponents_last_redouble",
    "declarer_missed_redoubling_opponents_erroneous_double",
    "weighted_declarer_missed_redoubling_opponents_erroneous_double",
    "declarer_missed_opponents_last_bid",
    "weighted_declarer_missed_opponents_last_bid",
    "declarer_erroneous_redouble",
    "weighted_declarer_erroneous_redouble",
    "passed_higher_contract",
    "weighted_passed_higher_contract",
)

#: The five opportunity counts that serve as denominators in Table 4.
DENOMINATORS: tuple[str, ...] = (
    "claims",
    "leads",
    "cards_played_as_declarer",
    "cards_played_as_defender",
    "auctions_analyzed",
)

RESPONSES: tuple[str, ...] = ("mp", "pp")
RESPONSE_LABELS: dict[str, str] = {"mp": "masterpoints", "pp": "placing points"}

VariableSet = Literal["weighted", "unweighted"]
Layout = Literal["counters", "rates"]


@dataclass(frozen=True)
class RateVariable:
    """One Table 4 rate: a count of mistakes divided by the opportunities to make them."""

    name: str
    numerator: str
    denominator: str
    weighted: bool
    file_column: str


def _rate(stem: str, numerator: str, denominator: str, file_stem: str) -> list[RateVariable]:
    """The unweighted and weighted versions of one rate."""
    return [
        RateVariable(stem, numerator, denominator, False, f"unweighted_{file_stem}"),
        RateVariable(
            f"weighted_{stem}", f"weighted_{numerator}", denominator, True, f"weighted_{file_stem}"
        ),
    ]


_AUCTION_MISTAKES = AUCTION_CATEGORIES  # named once, in ddrank/mistakes/variables.py

#: All 28 rates, in the row order of Tables 10 and 11 (and of the paper's CSV columns).
RATE_VARIABLES: tuple[RateVariable, ...] = tuple(
    _rate("claim_mistakes_per_claim", "claim_mistakes", "claims", "claim_mistakes_per_claim")
    + _rate("lead_mistakes_per_lead", "lead_mistakes", "leads", "lead_mistakes_per_lead")
    + _rate(
        "declarer_mistakes_per_card_played_as_declarer",
        "play_mistakes_as_declarer",
        "cards_played_as_declarer",
        "mistakes_as_declarer",
    )
    + _rate(
        "defender_mistakes_per_card_played_as_defender",
        "play_mistakes_as_defender",
        "cards_played_as_defender",
        "mistakes_as_defender",
    )
    + [
        rate
        for mistake in _AUCTION_MISTAKES
        for rate in _rate(f"{mistake}_per_auction", mistake, "auctions_analyzed", mistake)
    ]
)


def rate_variables(variables: VariableSet) -> tuple[RateVariable, ...]:
    """The 14 rates of one variable set, in Table 10/11 order."""
    if variables not in ("weighted", "unweighted"):
        raise ValueError(f"variables must be 'weighted' or 'unweighted', not {variables!r}")
    weighted = variables == "weighted"
    return tuple(rate for rate in RATE_VARIABLES if rate.weighted == weighted)


@dataclass(frozen=True)
class Thresholds:
    """Minimum opportunities a player needs to be a data point (Table 9 defaults).

    A player is kept when every count is at least its minimum; the paper's 200 players are the
    same with >= or > because the smallest kept counts are exactly one above each minimum.
    """

    claims: float = TABLE9_MINIMA["claims"]
    leads: float = TABLE9_MINIMA["leads"]
    cards_played_as_declarer: float = TABLE9_MINIMA["cards_played_as_declarer"]
    cards_played_as_defender: float = TABLE9_MINIMA["cards_played_as_defender"]
    auctions_analyzed: float = TABLE9_MINIMA["auctions_analyzed"]

    def as_dict(self) -> dict[str, float]:
        """Denominator name to minimum, in Table 9 order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_mapping(cls, values: Mapping[str, float] | None) -> Thresholds:
        """Table 9 defaults overridden by the given minima (unknown names are an error)."""
        values = dict(values or {})
        unknown = sorted(set(values) - set(DENOMINATORS))
        if unknown:
            raise ValueError(f"unknown threshold(s) {unknown}; known: {list(DENOMINATORS)}")
        return cls(**values)


@dataclass(frozen=True)
class Exclusion:
    """A player left out of the regression, and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class PreparedDataset:
    """One of the paper's four datasets: a response and 14 rates for the players kept.

    ``data`` has columns ``name``, the response and the rates (Table 4 names), in input order.
    """

    data: pd.DataFrame
    response: str
    variable_set: VariableSet
    variables: tuple[str, ...]
    layout: Layout
    thresholds: Thresholds | None
    exclusions: tuple[Exclusion, ...]
    n_input: int

    @property
    def label(self) -> str:
        """The paper's dataset label, e.g. ``PP, unweighted``."""
        return f"{self.response.upper()}, {self.variable_set}"


def normalise_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Strip header whitespace (dds_final_results.csv's last header has two trailing spaces)."""
    return frame.rename(columns=lambda column: str(column).strip())


def detect_layout(columns: Iterable[str]) -> Layout:
    """``counters`` for a dds_final-style table of 33 counters, ``rates`` for a 14-rate table."""
    present = {str(c).strip() for c in columns}
    if set(DENOMINATORS) <= present:
        return "counters"
    rate_names = {r.name for r in RATE_VARIABLES} | {r.file_column for r in RATE_VARIABLES}
    if present & rate_names:
        return "rates"
    raise ValueError(
        "input has neither the 33 counters of dds_final_results.csv (needs "
        f"{', '.join(DENOMINATORS)}) nor Table 4 rate columns"
    )


def _format_number(value: float) -> str:
    """A count as written in the input (integers without a trailing .0)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _non_finite_reason(row: pd.Series, columns: Iterable[str]) -> str | None:
    """Why a row cannot be used because one of its values is missing or not finite."""
    bad = [c for c in columns if not _is_finite(row[c])]
    if not bad:
        return None
    return "missing or non-finite value: " + ", ".join(f"{c}={row[c]!r}" for c in bad)


def _is_finite(value: object) -> bool:
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def _require_columns(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} is missing column(s): {', '.join(missing)}")


def prepare_from_counters(
    frame: pd.DataFrame,
    response: str,
    variable_set: VariableSet,
    thresholds: Thresholds | None = None,
) -> PreparedDataset:
    """Apply the opportunity thresholds to 33-counter rows, then compute the 14 rates.

    Exclusion order: missing values, then a zero denominator (a rate would be 0/0, which the
    paper's all_* files wrote as 0.0), then the thresholds. Rates are computed exactly as the
    paper did (numerator / denominator in floating point), so the kept rows equal the paper's
    200_* files bit for bit.
    """
    thresholds = thresholds or Thresholds()
    frame = normalise_columns(frame)
    rates = rate_variables(variable_set)
    needed = sorted({r.numerator for r in rates} | set(DENOMINATORS))
    _require_columns(frame, ["name", response, *needed], "counter table")
    minima = thresholds.as_dict()

    kept: list[int] = []
    exclusions: list[Exclusion] = []
    for index, row in frame.iterrows():
        name = str(row["name"])
        reason = _non_finite_reason(row, [response, *needed])
        if reason is None:
            zero = [d for d in DENOMINATORS if float(row[d]) == 0.0]
            if zero:
                undefined = [r.name for r in rates if r.denominator in zero]
                reason = (
                    "zero denominator: "
                    + ", ".join(f"{d}=0" for d in zero)
                    + f" (undefined: {', '.join(undefined)})"
                )
        if reason is None:
            below = [
                f"{d} {_format_number(float(row[d]))} < {_format_number(m)}"
                for d, m in minima.items()
                if float(row[d]) < m
            ]
            if below:
                reason = "below Table 9 threshold: " + "; ".join(below)
        if reason is None:
            kept.append(index)
        else:
            exclusions.append(Exclusion(name, reason))

    subset = frame.loc[kept]
    data = pd.DataFrame(
        {
            "name": subset["name"].astype(str).to_numpy(),
            response: subset[response].astype(float).to_numpy(),
        }
    )
    for rate in rates:
        numerator = subset[rate.numerator].astype(float).to_numpy()
        denominator = subset[rate.denominator].astype(float).to_numpy()
        data[rate.name] = numerator / denominator
    return PreparedDataset(
        data=data,
        response=response,
        variable_set=variable_set,
        variables=tuple(r.name for r in rates),
        layout="counters",
        thresholds=thresholds,
        exclusions=tuple(exclusions),
        n_input=len(frame),
    )


def prepare_from_rates(
    frame: pd.DataFrame, response: str, variable_set: VariableSet
) -> PreparedDataset:
    """Take a 14-rate table (like 200_*_results.csv) as it is, under Table 4 names.

    Thresholds cannot be applied (the opportunity counts are not in the file); rows with a
    missing or non-finite value are excluded with a reason.
    """
    frame = normalise_columns(frame)
    rates = rate_variables(variable_set)
    rename: dict[str, str] = {}
    missing: list[str] = []
    for rate in rates:
        if rate.name in frame.columns:
            continue
        if rate.file_column in frame.columns:
            rename[rate.file_column] = rate.name
        else:
            missing.append(rate.name)
    if missing:
        other = "unweighted" if variable_set == "weighted" else "weighted"
        hint = ""
        if all(
            r.name in frame.columns or r.file_column in frame.columns for r in rate_variables(other)
        ):
            hint = f" (the file holds the {other} rates: use --variables {other})"
        raise ValueError(
            f"rate table lacks {len(missing)} {variable_set} rate(s), e.g. {missing[0]}{hint}"
        )
    _require_columns(frame, ["name", response], "rate table")
    frame = frame.rename(columns=rename)
    names = [r.name for r in rates]

    kept: list[int] = []
    exclusions: list[Exclusion] = []
    for index, row in frame.iterrows():
        reason = _non_finite_reason(row, [response, *names])
        if reason is None:
            kept.append(index)
        else:
            exclusions.append(Exclusion(str(row["name"]), reason))
    subset = frame.loc[kept]
    data = pd.DataFrame(
        {
            "name": subset["name"].astype(str).to_numpy(),
            response: subset[response].astype(float).to_numpy(),
        }
    )
    for name in names:
        data[name] = subset[name].astype(float).to_numpy()
    return PreparedDataset(
        data=data,
        response=response,
        variable_set=variable_set,
        variables=tuple(names),
        layout="rates",
        thresholds=None,
        exclusions=tuple(exclusions),
        n_input=len(frame),
    )


def prepare_dataset(
    frame: pd.DataFrame,
    response: str,
    variable_set: VariableSet,
    thresholds: Thresholds | None = None,
) -> PreparedDataset:
    """Build one analysable dataset from either input layout."""
    if response not in RESPONSES:
        raise ValueError(f"response must be one of {RESPONSES}, not {response!r}")
    rate_variables(variable_set)  # validates the name
    if detect_layout(frame.columns) == "counters":
        return prepare_from_counters(frame, response, variable_set, thresholds)
    return prepare_from_rates(frame, response, variable_set)


def all_finite(values: np.ndarray | pd.Series | Iterable[float]) -> bool:
    """True when every value is a finite number."""
    return bool(np.all(np.isfinite(np.asarray(list(values), dtype=float))))

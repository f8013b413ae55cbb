"""Model selection with SAS PROC REG semantics: forward, backward and stepwise.

All three judge a variable by its partial F-test, F = (SSE_without - SSE_with) / MSE_with on
(1, n - p - 1) degrees of freedom, where p counts the predictors in the larger model. SAS
defaults, which the paper kept: forward SLENTRY 0.50, backward SLSTAY 0.10, stepwise
SLENTRY 0.15 and SLSTAY 0.15.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pandas as pd
from scipy import stats

from ddrank.regression.models import ols

Procedure = Literal["stepwise", "backward", "forward"]
#: The order in which Table 12 lists the procedures of each dataset.
PROCEDURES: tuple[Procedure, ...] = ("stepwise", "backward", "forward")


@dataclass(frozen=True)
class PartialF:
    """A partial F-test of one variable given the rest of a model."""

    variable: str
    f_value: float
    p_value: float


@dataclass(frozen=True)
class SelectionStep:
    """One entry or removal, with the partial F-test that decided it."""

    action: Literal["entered", "removed"]
    variable: str
    f_value: float
    p_value: float
    in_model: tuple[str, ...]


@dataclass(frozen=True)
class SelectionResult:
    """The variables a procedure chose (entry order; backward keeps candidate order)."""

    procedure: Procedure
    variables: tuple[str, ...]
    steps: tuple[SelectionStep, ...]
    slentry: float | None
    slstay: float | None
    stop_reason: str


def _sse(data: pd.DataFrame, response: str, variables: Sequence[str]) -> tuple[float, int]:
    result = ols(data, response, variables)
    return float(result.ssr), int(round(result.df_resid))


def partial_f_test(
    data: pd.DataFrame, response: str, model: Sequence[str], variable: str
) -> PartialF:
    """Partial F-test of ``variable`` in the model ``model`` (added to it if absent)."""
    full = list(model) if variable in model else [*model, variable]
    reduced = [v for v in full if v != variable]
    sse_full, df_full = _sse(data, response, full)
    sse_reduced, _ = _sse(data, response, reduced)
    f_value = max(sse_reduced - sse_full, 0.0) / (sse_full / df_full)
    return PartialF(variable, f_value, float(stats.f.sf(f_value, 1, df_full)))


def _best_entry(
    data: pd.DataFrame, response: str, model: Sequence[str], candidates: Sequence[str]
) -> PartialF | None:
    """The candidate outside the model with the largest partial F (smallest p-value)."""
    tests = [partial_f_test(data, response, model, v) for v in candidates if v not in model]
    return min(tests, key=lambda t: (t.p_value, -t.f_value)) if tests else None


def _worst_member(data: pd.DataFrame, response: str, model: Sequence[str]) -> PartialF | None:
    """The variable in the model with the smallest partial F (largest p-value)."""
    tests = [partial_f_test(data, response, model, v) for v in model]
    return max(tests, key=lambda t: (t.p_value, -t.f_value)) if tests else None


def forward_selection(
    data: pd.DataFrame, response: str, candidates: Sequence[str], slentry: float = 0.50
) -> SelectionResult:
    """Start empty; add the most significant candidate while its p-value is <= SLENTRY."""
    model: list[str] = []
    steps: list[SelectionStep] = []
    while True:
        best = _best_entry(data, response, model, candidates)
        if best is None:
            reason = "every candidate entered"
            break
        if best.p_value > slentry:
            reason = f"no candidate significant at SLENTRY={slentry:g}"
            break
        model.append(best.variable)
        steps.append(
            SelectionStep("entered", best.variable, best.f_value, best.p_value, tuple(model))
        )
    return SelectionResult("forward", tuple(model), tuple(steps), slentry, None, reason)


def backward_elimination(
    data: pd.DataFrame, response: str, candidates: Sequence[str], slstay: float = 0.10
) -> SelectionResult:
    """Start full; remove the least significant variable while its p-value exceeds SLSTAY."""
    model = list(candidates)
    steps: list[SelectionStep] = []
    while True:
        worst = _worst_member(data, response, model)
        if worst is None:
            reason = "every variable removed"
            break
        if worst.p_value <= slstay:
            reason = f"every variable significant at SLSTAY={slstay:g}"
            break
        model.remove(worst.variable)
        steps.append(
            SelectionStep("removed", worst.variable, worst.f_value, worst.p_value, tuple(model))
        )
    return SelectionResult("backward", tuple(model), tuple(steps), None, slstay, reason)


def stepwise_selection(
    data: pd.DataFrame,
    response: str,
    candidates: Sequence[str],
    slentry: float = 0.15,
    slstay: float = 0.15,
) -> SelectionResult:
    """Forward entry with a removal check before every entry, as SAS does.

    Each step either removes the least significant variable in the model (p > SLSTAY) or enters
    the most significant one outside it (p <= SLENTRY). It stops when neither applies, or when the
    variable to enter is the one just removed (which would cycle forever).
    """
    model: list[str] = []
    steps: list[SelectionStep] = []
    just_removed: str | None = None
    limit = 4 * len(candidates) + 4  # SAS also caps the number of steps
    reason = f"step limit {limit} reached"
    for _ in range(limit):
        worst = _worst_member(data, response, model)
        if worst is not None and worst.p_value > slstay:
            model.remove(worst.variable)
            just_removed = worst.variable
            steps.append(
                SelectionStep("removed", worst.variable, worst.f_value, worst.p_value, tuple(model))
            )
            continue
        best = _best_entry(data, response, model, candidates)
        if best is None:
            reason = "every candidate entered"
            break
        if best.p_value > slentry:
            reason = f"no candidate significant at SLENTRY={slentry:g}"
            break
        if best.variable == just_removed:
            reason = f"the variable to enter, {best.variable}, is the one just removed"
            break
        model.append(best.variable)
        just_removed = None
        steps.append(
            SelectionStep("entered", best.variable, best.f_value, best.p_value, tuple(model))
        )
    return SelectionResult("stepwise", tuple(model), tuple(steps), slentry, slstay, reason)


def run_procedure(
    procedure: Procedure,
    data: pd.DataFrame,
    response: str,
    candidates: Sequence[str],
    *,
    forward_slentry: float = 0.50,
    backward_slstay: float = 0.10,
    stepwise_slentry: float = 0.15,
    stepwise_slstay: float = 0.15,
) -> SelectionResult:
    """Run one named procedure with the given (SAS default) significance levels."""
    if procedure == "forward":
        return forward_selection(data, response, candidates, forward_slentry)
    if procedure == "backward":
        return backward_elimination(data, response, candidates, backward_slstay)
    if procedure == "stepwise":
        return stepwise_selection(data, response, candidates, stepwise_slentry, stepwise_slstay)
    raise ValueError(f"unknown procedure {procedure!r}")

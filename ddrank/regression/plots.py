"""Figures 1 and 2 of the paper: residuals against predicted values, and a normal QQ plot.

The builders return matplotlib figures drawn on an Agg canvas (no pyplot, no global state, no
display needed); saving them is the caller's job.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from scipy import stats

from ddrank.regression.models import FittedModel


def _new_figure() -> Figure:
    figure = Figure(figsize=(6.4, 4.8), dpi=100, layout="tight")
    FigureCanvasAgg(figure)
    return figure


def residuals_vs_predicted_figure(model: FittedModel, response_label: str) -> Figure:
    """Figure 1: a constant-variance model shows an even band around zero."""
    figure = _new_figure()
    axes = figure.add_subplot()
    axes.scatter(model.fitted, model.residuals, s=14, alpha=0.75, edgecolors="none")
    axes.axhline(0.0, color="black", linewidth=0.8)
    actual = model.fitted + model.residuals
    if np.any(np.isclose(actual, 0.0)):
        # Players with no points sit on residual = -predicted: the floor under the scatter.
        span = np.array([model.fitted.min(), model.fitted.max()])
        axes.plot(
            span, -span, color="grey", linestyle="--", linewidth=0.8, label="players with 0 points"
        )
        axes.legend(loc="upper left", frameon=False)
    axes.set_xlabel(f"Predicted value ({response_label})")
    axes.set_ylabel("Residual")
    axes.set_title("Residuals versus predicted value")
    axes.grid(alpha=0.3)
    return figure


def normal_quantiles(residuals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Theoretical normal quantiles and sorted residuals (Blom plotting positions, as SAS)."""
    ordered = np.sort(np.asarray(residuals, dtype=float))
    n = len(ordered)
    positions = (np.arange(1, n + 1) - 0.375) / (n + 0.25)
    return stats.norm.ppf(positions), ordered


def qq_figure(model: FittedModel) -> Figure:
    """Figure 2: normally distributed errors fall on the line mean + sd * quantile."""
    figure = _new_figure()
    axes = figure.add_subplot()
    quantiles, ordered = normal_quantiles(model.residuals)
    axes.scatter(quantiles, ordered, s=14, alpha=0.75, edgecolors="none")
    mean = float(np.mean(model.residuals))
    sd = float(np.std(model.residuals, ddof=1))
    line = np.array([quantiles[0], quantiles[-1]])
    axes.plot(line, mean + sd * line, color="black", linewidth=0.8)
    axes.set_xlabel("Normal quantile")
    axes.set_ylabel("Residual")
    axes.set_title("QQ plot of residuals")
    axes.grid(alpha=0.3)
    return figure

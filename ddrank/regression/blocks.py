"""The regression report as blocks (headings, paragraphs, tables, figures) and number formats.

`ddrank.regression.report` builds the blocks; `publish.regression` renders them as Markdown and
HTML. Non-finite numbers are never printed: they render as ``undefined``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ddrank.regression.models import format_p_value


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """Text with `code` spans and **bold**; nothing else is interpreted."""

    text: str


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str | None = None


@dataclass(frozen=True)
class Image:
    path: str
    caption: str


@dataclass(frozen=True)
class Code:
    text: str


Block = Heading | Paragraph | Table | Image | Code


@dataclass(frozen=True)
class ReportFiles:
    """Names (relative to the report) of the files the report links to."""

    residual_plot: str = "regression_residuals.png"
    qq_plot: str = "regression_qq.png"
    ranking: str = "ranking.csv"
    exclusions: str = "excluded_players.csv"
    extra: dict[str, str] = field(default_factory=dict)


def number(value: float | None, decimals: int) -> str:
    """A fixed-decimals number; ``undefined`` instead of NaN/inf, ``None`` if absent."""
    if value is None:
        return "None"
    if not math.isfinite(value):
        return "undefined"
    return f"{value:.{decimals}f}"


def p_value(value: float | None) -> str:
    """SAS-style p-value, ``undefined`` instead of NaN."""
    if value is not None and not math.isfinite(value):
        return "undefined"
    return format_p_value(value)

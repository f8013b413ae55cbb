"""The site's rating charts as SVG files, written directly as SVG text.

A chart is a line of points with error bars above a bar chart: a few dozen SVG elements. Drawn by
a plotting library it cost 0.1-0.5 s of CPU each (and a second to import the library), the
largest fixed cost of a site build and of adding one event to it; written as text it costs about
a millisecond. The same input gives the same bytes, so a rebuild keeps an unchanged chart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

#: The chart's size in pixels (the player page shows it 700 wide).
WIDTH, HEIGHT = 700, 320
LEFT, RIGHT = 63.0, 686.0  # the plots' left and right edges
TOP = (19.0, 205.0)  # the rating plot's top and bottom
BOTTOM = (218.0, 282.0)  # the boards plot's top and bottom
LINE, BAR, BARS_OF_ERROR, GRID = "#1f4e79", "#b0b0b0", "#8aa9c8", "#dddddd"


def _num(v: Any) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return math.nan
    return f


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round values between `lo` and `hi` to label an axis with (about `count` of them)."""
    raw = (hi - lo) / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    return [first + k * step for k in range(int((hi - first) / step + 1e-9) + 1)]


def _label(v: float) -> str:
    return f"{v:.10g}" if abs(v) >= 1e-9 else "0"


def chart_svg(history: Sequence[dict[str, Any]]) -> str:
    """Rating after each period with ±1 standard error bars, boards played in each period below."""
    rows = sorted(history, key=lambda r: _num(r.get("period_index", 0)))
    n = max(len(rows), 1)
    periods = [str(r.get("period", k)) for k, r in enumerate(rows)]
    rating = [_num(r.get("rating")) for r in rows]
    se = [
        0.0 if math.isnan(s) else s for s in (_num(r.get("se", r.get("std_error"))) for r in rows)
    ]
    boards = [
        _num(r.get("boards_in_period", r.get("period_boards", r.get("boards")))) for r in rows
    ]
    boards = [0.0 if math.isnan(b) else b for b in boards]
    known = [(v - s, v + s) for v, s in zip(rating, se, strict=True) if not math.isnan(v)]
    lo, hi = (min(a for a, _ in known), max(b for _, b in known)) if known else (0.0, 1.0)
    pad = (hi - lo) * 0.08 or 1.0
    lo, hi = lo - pad, hi + pad

    def x(i: int) -> float:
        return LEFT + (RIGHT - LEFT) * (i + 0.5) / n

    def y(v: float) -> float:
        return TOP[1] - (v - lo) / (hi - lo) * (TOP[1] - TOP[0])

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="10">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{(LEFT + RIGHT) / 2:.1f}" y="13" text-anchor="middle" font-size="9">'
           "Rating after each period (bars: ±1 standard error)</text>"]  # fmt: skip
    for t in nice_ticks(lo, hi):
        out.append(f'<line x1="{LEFT}" x2="{RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                   f'stroke="{GRID}"/><text x="{LEFT - 4}" y="{y(t) + 3:.1f}" '
                   f'text-anchor="end">{_label(t)}</text>')  # fmt: skip
    out.append(f'<text x="14" y="{sum(TOP) / 2:.1f}" transform="rotate(-90 14 {sum(TOP) / 2:.1f})"'
               ' text-anchor="middle">rating</text>')  # fmt: skip
    for frame in (TOP, BOTTOM):
        out.append(f'<rect x="{LEFT}" y="{frame[0]}" width="{RIGHT - LEFT}" '
                   f'height="{frame[1] - frame[0]}" fill="none" stroke="#000000"/>')  # fmt: skip
    points: list[str] = []
    for i, (v, s) in enumerate(zip(rating, se, strict=True)):
        if math.isnan(v):
            if len(points) > 1:
                out.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{LINE}"/>')
            points = []
            continue
        xi = x(i)
        points.append(f"{xi:.1f},{y(v):.1f}")
        if s:
            out.append(f'<path d="M{xi:.1f} {y(v - s):.1f}V{y(v + s):.1f}M{xi - 3:.1f} '
                       f'{y(v - s):.1f}h6M{xi - 3:.1f} {y(v + s):.1f}h6" '
                       f'stroke="{BARS_OF_ERROR}"/>')  # fmt: skip
    if len(points) > 1:
        out.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{LINE}" '
                   'stroke-width="1.2"/>')  # fmt: skip
    out += [f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="3" fill="{LINE}"/>'
            for i, v in enumerate(rating) if not math.isnan(v) for p in [f"{x(i):.1f},{y(v):.1f}"]]  # fmt: skip
    top_boards = max(boards, default=0.0) or 1.0
    width = (RIGHT - LEFT) / n * 0.8
    for i, b in enumerate(boards):
        h = b / top_boards * (BOTTOM[1] - BOTTOM[0])
        out.append(f'<rect x="{x(i) - width / 2:.1f}" y="{BOTTOM[1] - h:.1f}" '
                   f'width="{width:.1f}" height="{h:.1f}" fill="{BAR}"/>')  # fmt: skip
    out.append(f'<text x="{LEFT - 4}" y="{BOTTOM[0] + 8}" text-anchor="end">{_label(top_boards)}'
               f'</text><text x="{LEFT - 4}" y="{BOTTOM[1]}" text-anchor="end">0</text>'
               f'<text x="14" y="{sum(BOTTOM) / 2:.1f}" transform="rotate(-90 14 '
               f'{sum(BOTTOM) / 2:.1f})" text-anchor="middle" font-size="8">boards</text>')  # fmt: skip
    step = max(1, math.ceil(len(periods) * 80 / (RIGHT - LEFT)))  # a label is ~75 px wide
    for i in range(0, len(periods), step):
        out.append(f'<text x="{x(i):.1f}" y="{BOTTOM[1] + 12}" text-anchor="middle" '
                   f'font-size="7">{escape(periods[i][:18])}</text>')  # fmt: skip
    out.append("</svg>\n")
    return "\n".join(out)


def rating_chart(player: str, history: Sequence[dict[str, Any]], path: Path) -> Path:
    """Write `player`'s rating chart (`chart_svg`) to `path`."""
    path.write_text(chart_svg(history), encoding="utf-8")
    return path


def rating_charts(jobs: Sequence[tuple[str, list[dict[str, Any]], str]]) -> int:
    """Write many rating charts: (player, history, path) each."""
    for player, history, path in jobs:
        rating_chart(player, history, Path(path))
    return len(jobs)

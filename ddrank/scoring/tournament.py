"""Score a whole field: every table's matchpoints, cross-IMPs, Butler and Bastille, and averages.

Each board arrives as groups of tables that played the same deal (one group unless the board was
fouled). Matchpoints are lifted to the field's top by the chosen fouled-board method; cross-IMPs,
Butler and Bastille are computed within each group, as De Wael recommends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ddrank.scoring.arithmetic import crossimps, matchpoints
from ddrank.scoring.intake.results import TableResult, by_pair_and_player, per_board_row

MpMethod = Literal["neuberg", "mitchell1", "mitchell1_bis", "ascherman"]


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """How a field is scored; the defaults are the seed's recommendations."""

    mp_method: MpMethod = "neuberg"
    cross_imps_divide_by: Literal["results", "comparisons"] = "results"
    drop_count: int = 1  # Butler/Bastille: results dropped at each end ...
    drop_fraction: float | None = None  # ... or this fraction of them (e.g. 0.1), the last in part
    datum_round_to: int = 10


@dataclass(frozen=True, slots=True)
class TableScore:
    """One table's scores on its board, North-South's view (East-West's are the complement)."""

    result: TableResult
    field: int  # results on the board, all groups
    group: int  # results in this table's group
    mp: float  # matchpoints on the field's scale
    mp_pct: float  # North-South's percentage of the field's top
    cross_imps: float
    butler: float
    bastille: float


def score_board(groups: Sequence[Sequence[TableResult]], opts: ScoringOptions) -> list[TableScore]:
    """All scores of one board's tables."""
    points = [[t.ns_score for t in g] for g in groups]
    big_n = sum(len(g) for g in groups)
    mps = matchpoints.lift(points, None, opts.mp_method)
    shift = 1.0 if opts.mp_method == "ascherman" else 0.0  # report Ascherman on its own scale
    mp_values = [[m + shift for m in g] for g in mps]
    out: list[TableScore] = []
    for g, pts, mp_g, mpv_g in zip(groups, points, mps, mp_values, strict=True):
        pct = matchpoints.percentages(mp_g, big_n)
        ci = crossimps.cross_imps(pts, opts.cross_imps_divide_by)
        bu = crossimps.butler(pts, opts.drop_count, opts.drop_fraction, opts.datum_round_to)
        ba = crossimps.bastille(pts, opts.drop_count, opts.drop_fraction)
        for k, t in enumerate(g):
            out.append(TableScore(t, big_n, len(g), mpv_g[k], pct[k], ci[k], bu[k], ba[k]))
    return out


def score_field(
    boards: Mapping[str, Sequence[Sequence[TableResult]]], opts: ScoringOptions | None = None
) -> list[TableScore]:
    """Score every board of a field (see `results.group_boards` for building `boards`)."""
    opts = opts or ScoringOptions()
    out: list[TableScore] = []
    for key in sorted(boards):
        out.extend(score_board(boards[key], opts))
    return out


@dataclass
class _Totals:
    boards: int = 0
    mp_pct: float = 0.0
    cross_imps: float = 0.0
    butler: float = 0.0
    bastille: float = 0.0

    def add(self, s: TableScore, ns: bool) -> None:
        sign = 1.0 if ns else -1.0
        self.boards += 1
        self.mp_pct += s.mp_pct if ns else 100.0 - s.mp_pct
        self.cross_imps += sign * s.cross_imps
        self.butler += sign * s.butler
        self.bastille += sign * s.bastille

    def row(self, label: str) -> dict[str, float | int | str]:
        return per_board_row(label, self.boards, {"mp_pct": self.mp_pct,
                                                  "cross_imps": self.cross_imps,
                                                  "butler": self.butler,
                                                  "bastille": self.bastille})  # fmt: skip


def aggregate_scores(
    scores: Iterable[TableScore],
) -> tuple[list[dict[str, float | int | str]], list[dict[str, float | int | str]]]:
    """Per-pair and per-player averages per board (matchpoint % and IMPs/points per board)."""
    return by_pair_and_player(scores, _Totals)

"""Lehman ratings (OKbridge, 1993/1997): matchpoints adjusted for partner and opponents.

Each board is a pot to which every player antes his rating. North-South expect the share
E = (r_N + r_S) / (r_N + r_S + r_E + r_W) of the matchpoints; they receive their actual share s of
the pot, split between the partners in the ratio of their ratings, so each earns

    earned_N = r_N * s / E          (and East-West likewise with 1 - s and 1 - E).

A player who scores as expected earns back exactly his rating; partners' earned ratings keep
their ratio; the pot is conserved. At the end of each period (a week, a round) every player's
rating becomes the weighted average of his backlog and the period's earned ratings, the backlog
discounted by `history_weight` per period, so the latest period counts most, and new or returning
players (little or discounted backlog) move fastest. The update is recursive: it needs only each
player's current state, never past boards.

The seed leaves every constant open; `LehmanParams` names them with defaults. The seed also says
there is no reliability figure; ddrank adds one from the same recursion: the effective number of
boards behind the rating (Kish) and the standard error of the weighted mean of earned ratings.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from ddrank.scoring.events import ScoredResult
from ddrank.scoring.tournament import TableScore


@dataclass(frozen=True, slots=True)
class LehmanParams:
    """Every constant the seed leaves open, with ddrank's defaults (percent scale)."""

    start_rating: float = 50.0  # a new player is assumed average
    start_weight: float = 10.0  # boards' worth of belief in the start rating: new players move fast
    history_weight: float = 0.9  # backlog discount per period: the latest period weighs more
    max_weight: float | None = 1000.0  # cap on backlog weight, so established players still move
    min_ante: float = 1.0  # floor on a rating used as an ante, so a pot is never empty
    imp_top: float = 12.0  # IMPs per board that map to 100% (and -imp_top to 0%) on the IMP scale

    def __post_init__(self) -> None:
        if not 0.0 < self.history_weight <= 1.0:
            raise ValueError("history_weight must be in (0, 1]")
        if self.start_weight < 0 or self.min_ante <= 0 or self.imp_top <= 0:
            raise ValueError("start_weight >= 0, min_ante > 0 and imp_top > 0 are required")


@dataclass(frozen=True, slots=True)
class RatedBoard:
    """One table result for rating: the two pairs and North-South's share of the board (0..1)."""

    ns: tuple[str, str]
    ew: tuple[str, str]
    ns_share: float


@dataclass(frozen=True, slots=True)
class PlayerState:
    """All the recursion keeps about a player: no board history."""

    rating: float
    weight: float  # weight behind `rating`, backlog and prior included
    boards: int  # boards ever played
    last_period: int  # index of the last period the player played in
    w: float = 0.0  # discounted sum of board weights (prior excluded)
    w2: float = 0.0  # discounted sum of squared board weights
    s1: float = 0.0  # discounted sum of weight * earned
    s2: float = 0.0  # discounted sum of weight * earned^2

    @property
    def effective_boards(self) -> float:
        """Kish's effective sample size of the discounted boards: (sum w)^2 / sum w^2."""
        return self.w * self.w / self.w2 if self.w2 > 0 else 0.0

    @property
    def std_error(self) -> float:
        """Standard error of the weighted mean of earned ratings (NaN below 2 effective boards)."""
        n_eff = self.effective_boards
        if n_eff <= 1.0 or self.w <= 0:
            return math.nan
        mean = self.s1 / self.w
        var = max(self.s2 / self.w - mean * mean, 0.0) * n_eff / (n_eff - 1.0)
        return math.sqrt(var / n_eff)


def imp_share(imps_per_board: float, params: LehmanParams = LehmanParams()) -> float:
    """IMPs won on a board -> a share of the board, linear and symmetric: 0 IMPs = 50%."""
    return min(1.0, max(0.0, 0.5 + imps_per_board / (2.0 * params.imp_top)))


def expected_share(ns: float, ew: float) -> float:
    """North-South's expected share of the board from the pairs' rating sums."""
    return ns / (ns + ew)


def earned_ratings(
    board: RatedBoard, ratings: Mapping[str, float], params: LehmanParams = LehmanParams()
) -> dict[str, float]:
    """Each player's earned rating on one board: his ante times actual / expected share."""
    ante = {
        p: max(ratings.get(p, params.start_rating), params.min_ante) for p in board.ns + board.ew
    }
    ns_sum = ante[board.ns[0]] + ante[board.ns[1]]
    ew_sum = ante[board.ew[0]] + ante[board.ew[1]]
    e_ns = expected_share(ns_sum, ew_sum)
    out: dict[str, float] = {}
    for p in board.ns:
        out[p] = ante[p] * board.ns_share / e_ns
    for p in board.ew:
        out[p] = ante[p] * (1.0 - board.ns_share) / (1.0 - e_ns)
    return out


def new_player(period: int, params: LehmanParams = LehmanParams()) -> PlayerState:
    return PlayerState(params.start_rating, params.start_weight, 0, period)


def update_period(
    states: Mapping[str, PlayerState],
    boards: Iterable[RatedBoard],
    period: int,
    params: LehmanParams = LehmanParams(),
) -> dict[str, PlayerState]:
    """One recursive update: the states after `period`, from the states before it and its boards.

    Earned ratings use the ratings as they stood at the start of the period (all of a week's
    boards are rated against the same field), as OKbridge recalculated once a week.
    """
    out = dict(states)
    out.update(period_states(states, boards, period, params))
    return out


def period_states(
    states: Mapping[str, PlayerState],
    boards: Iterable[RatedBoard],
    period: int,
    params: LehmanParams = LehmanParams(),
) -> dict[str, PlayerState]:
    """The new states of the players who played in `period` (`update_period`'s changes): its
    cost is the period's boards, not every player of the archive (`rate_periods` runs an
    archive's thousands of periods over tens of thousands of players)."""
    boards = list(boards)
    ratings = {p: states[p].rating for b in boards for p in (*b.ns, *b.ew) if p in states}
    earned: dict[str, list[float]] = defaultdict(list)
    for b in boards:
        for p, e in earned_ratings(b, ratings, params).items():
            earned[p].append(e)
    out: dict[str, PlayerState] = {}
    for p, values in earned.items():
        s = states.get(p) or new_player(period, params)
        lam = params.history_weight ** max(period - s.last_period, 0)
        m = len(values)
        total = math.fsum(values)
        backlog = lam * s.weight
        weight = backlog + m
        rating = (backlog * s.rating + total) / weight
        if params.max_weight is not None:
            weight = min(weight, params.max_weight)
        out[p] = replace(
            s,
            rating=rating,
            weight=weight,
            boards=s.boards + m,
            last_period=period,
            w=lam * s.w + m,
            w2=lam * lam * s.w2 + m,
            s1=lam * s.s1 + total,
            s2=lam * s.s2 + math.fsum(v * v for v in values),
        )
    return out


def rate_periods(
    periods: Iterable[tuple[str, list[RatedBoard]]],
    params: LehmanParams = LehmanParams(),
    states: Mapping[str, PlayerState] | None = None,
    first_index: int = 0,
) -> tuple[dict[str, PlayerState], list[dict[str, float | int | str]]]:
    """The one Lehman driver: run the periods in order from `states` (period `first_index` on);
    returns the final states and one history row per player and period played."""
    current: dict[str, PlayerState] = dict(states or {})
    history: list[dict[str, float | int | str]] = []
    for i, (label, boards) in enumerate(periods, start=first_index):
        # only the period's players change, and only they have a history row for it: neither
        # copying nor sorting every player per period (that made an archive's ratings
        # periods x players: quadratic in its size, issue 37)
        played = period_states(current, boards, i, params)
        current.update(played)
        for p in sorted(played):
            s = played[p]
            history.append(
                {
                    "player": p,
                    "rating": s.rating,
                    "boards": s.boards,
                    "std_error": s.std_error,
                    "period": label,
                    "effective_boards": s.effective_boards,
                    # the recursion's state, so a store can resume from this period
                    "period_index": i,
                    "weight": s.weight,
                    "w": s.w,
                    "w2": s.w2,
                    "s1": s.s1,
                    "s2": s.s2,
                }
            )
    return current, history


def boards_by_period(
    scores: Iterable[TableScore],
    scale: Literal["mp", "imps"],
    params: LehmanParams = LehmanParams(),
) -> list[tuple[str, list[RatedBoard]]]:
    """Table scores -> rating periods in order; the share is the MP % or the IMPs mapped to %.

    The IMP rating uses cross-IMPs per comparison (the Lehman "proportional scale" for IMP games):
    the average swing against each other table, so a 2-table match counts a whole swing and the
    scale does not depend on the field's size.
    """
    periods: dict[str, list[RatedBoard]] = defaultdict(list)
    for s in scores:
        per_comparison = s.cross_imps * s.group / (s.group - 1) if s.group > 1 else 0.0
        share = s.mp_pct / 100.0 if scale == "mp" else imp_share(per_comparison, params)
        periods[s.result.period].append(RatedBoard(s.result.ns_pair, s.result.ew_pair, share))
    return sorted(periods.items())


def board_share(s: ScoredResult, params: LehmanParams = LehmanParams()) -> float | None:
    """North-South's share of a scored board: its MP %, or its IMPs per comparison mapped to %.

    Teams IMPs are one swing against the other room; cross-IMPs are averaged per comparison;
    either way one board's IMPs mean the same in a 2-table match and a 30-table field.
    """
    if s.ns_pct is not None:
        return s.ns_pct / 100.0
    if s.imps is not None:
        return imp_share(s.imps, params)
    return None


def rated_boards(
    scored: Iterable[ScoredResult],
    identity: Mapping[str, str] | None = None,
    params: LehmanParams = LehmanParams(),
) -> list[RatedBoard]:
    """Scored table results -> Lehman boards between player identities.

    `identity` maps a seat's raw identity (name, or 'id:<source id>') to the player it is (the
    name-matching result); a table with an unnamed seat (a placeholder, a pair label) is left
    out (nobody to rate), and so is one where one identity holds two seats (two players who
    share a surname-only name: scored, but not told apart).
    """
    ident = identity or {}
    out: list[RatedBoard] = []
    for s in scored:
        share = board_share(s, params)
        p = s.result.players
        if share is None or s.result.phantom or not all(p):
            continue
        n, e, so, w = (ident.get(x, x) for x in p)
        if len({n, e, so, w}) < 4:
            continue
        out.append(RatedBoard((n, so), (e, w), share))
    return out


def sortable_date(text: str) -> str:
    """'2012.03.??' / '2012-03-14' / '09/04/2025' -> '2012-03-00' style, for date order."""
    t = text.strip()
    parts = [x for x in t.replace("/", ".").replace("-", ".").split(".") if x]
    if len(parts) == 3 and len(parts[2]) == 4 and len(parts[0]) <= 2:  # dd/mm/yyyy
        parts = [parts[2], parts[1], parts[0]]
    if not parts or not parts[0].isdigit():
        return "9999-99-99"  # undated events go last, in name order
    cleaned = [(x if x.isdigit() else "00").zfill(2) for x in parts[:3]]
    while len(cleaned) < 3:
        cleaned.append("00")
    return "-".join(cleaned)

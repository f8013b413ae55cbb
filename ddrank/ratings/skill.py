"""ddrank's skill rating: a partnership-aware Gaussian (Kalman) rating with DD evidence.

Every player has four skills, each a Gaussian belief (mean, variance):

* `bidding`: IMPs per board a player's side gains by the contract it reaches, judged by the DD
  result of that contract against the field's DD results (so card play does not blur it);
* `declarer`: tricks per board taken above the DD value as declarer, after the opening lead;
* `defence`: tricks per board a defender holds the declarer below the DD value, after the lead;
* `opening_lead`: tricks per lead the player's opening leads save against the DD cost of the
  average lead (the DD tricks the lead gives away, sign reversed).

A regular partnership has a fifth, `partnership` (IMPs per board beyond its players' bidding).

Each table result is a set of linear Gaussian observations of those skills:

    bid_imps   =  sum(bidding + partnership of NS) - sum(of EW)            + noise   (IMPs)
    play_tricks = declarer's declarer - both defenders' defence            + noise   (tricks)
    lead_cost   = - leader's opening_lead                                   + noise   (tricks)

and, where a source has no DD facts (no deal, no lead), the board's IMPs against the datum are one
observation of the expected skill difference (the same form the prediction uses).

Because every observation is linear and Gaussian, the posterior after a period is exact and in
closed form (a Kalman update in information form). Between periods each skill drifts as a random
walk (variance grows by `drift_sd**2` per period of absence), so old results count less and a
returning player's rating moves faster. Only each entity's marginal (mean, variance) is kept
between periods (assumed-density filtering, as TrueSkill does), so the rating is incremental:
a new period needs the stored states and that period's boards only.

Pure: no I/O. The parameters are chosen on training data by the caller (see `bench/predict.py`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .difficulty import FieldRef, centre, widen
from .skill_fit import FitColumns, fit_params_from

COMPONENTS = ("bidding", "declarer", "defence", "opening_lead")
PARTNERSHIP = "partnership"


@dataclass(frozen=True, slots=True)
class SkillParams:
    """Every constant of the model; `fit_params` sets the noise and offsets from training boards."""

    prior_sd: Mapping[str, float] = field(
        default_factory=lambda: {
            "bidding": 0.5,
            "declarer": 0.15,
            "defence": 0.08,
            "opening_lead": 0.08,
            PARTNERSHIP: 0.3,
        }
    )
    drift_sd: float = 0.02  # per period, as a fraction of each component's prior sd
    imps_per_trick: float = 2.0  # converts trick skills to IMPs in the board prediction
    noise_sd: Mapping[str, float] = field(
        default_factory=lambda: {
            "bid": 5.0,
            "play": 0.8,
            "lead": 0.6,
            "result": 6.0,
            "declarer_cost": 0.5,
            "defence_cost": 0.5,
        }  # fmt: skip
    )
    play_mean: float = 0.0  # average tricks above DD after the lead (removed before rating)
    lead_mean: float = 0.0  # average DD cost of an opening lead in tricks
    declarer_cost_mean: float = 0.0  # average DD tricks a declarer's own cards cost
    defence_cost_mean: float = 0.0  # average DD tricks one defender's cards cost after the lead
    # Variant (ddrank.ratings.difficulty): DD observations centred on the board's field (weight)
    # and widened where the field lost much; 0 and 0 keep v1's observations bit for bit.
    difficulty_centre: float = 0.0
    difficulty_noise: float = 0.0


@dataclass(frozen=True, slots=True)
class SkillBoard:
    """One table result as the skill model sees it (North-South's view of IMPs)."""

    ns: tuple[str, str]
    ew: tuple[str, str]
    result_imps: float  # NS IMPs against the board's datum
    bid_imps: float | None = None  # NS IMPs of the contract's DD result against the DD datum
    declarer: str | None = None  # player name; None when passed out or unknown
    declarer_ns: bool | None = None
    play_tricks: float | None = None  # declarer's tricks minus DD tricks after the lead
    leader: str | None = None
    lead_cost: float | None = None  # DD tricks the opening lead gave the declarer (>= 0)
    # With the play recorded: DD tricks each side's own mistakes cost after the lead, per player.
    declarer_cost: float | None = None
    defence_costs: tuple[tuple[str, float], ...] | None = None
    # The other tables of the same board (ddrank.ratings.difficulty.field_refs); read only when
    # the params' difficulty_centre or difficulty_noise is set.
    field_ref: FieldRef | None = None


@dataclass(frozen=True, slots=True)
class SkillState:
    """One entity's belief on one component: no board history is kept."""

    mean: float
    var: float
    boards: int
    last_period: int

    @property
    def se(self) -> float:
        return math.sqrt(self.var)


Key = tuple[str, str]  # (entity, component); entity is a player or "A & B" for a partnership
States = dict[Key, SkillState]


def pair_entity(pair: Sequence[str]) -> str:
    """A partnership's name, independent of seat order."""
    a, b = sorted(pair)
    return f"{a} & {b}"


def fit_params(boards: Sequence[SkillBoard], params: SkillParams) -> SkillParams:
    """IMPs per trick, trick offsets and noise sds from training boards (sample moments).

    Only the training boards are used, so choosing them never looks at what is predicted. The
    arithmetic is `ddrank.ratings.skill_fit`'s, on the boards' columns (which an archive's
    stage adds a batch at a time)."""
    cols = FitColumns()
    cols.add(boards)
    return fit_params_from(cols, params)


def _tricks_over_dd(b: SkillBoard, params: SkillParams) -> float | None:
    """Declarer's tricks above the DD value before the lead, less the field's average
    (None: no DD facts)."""
    if b.declarer is None or b.declarer_ns is None or b.play_tricks is None:
        return None
    if b.lead_cost is None:
        return b.play_tricks - params.play_mean - params.lead_mean
    return b.play_tricks + b.lead_cost - params.play_mean - params.lead_mean


def _expected_design(
    ns: Sequence[str], ew: Sequence[str], params: SkillParams, with_pairs: bool
) -> dict[Key, float]:
    """NS-minus-EW expected IMPs as a linear form in the skills, before the deal is known.

    Any of the four players may declare (1/4 each); the declarer's left-hand opponent leads.
    """
    g = params.imps_per_trick
    x: dict[Key, float] = {}

    def add(k: Key, v: float) -> None:
        x[k] = x.get(k, 0.0) + v

    for p in ns:
        add((p, "bidding"), 1.0)
    for p in ew:
        add((p, "bidding"), -1.0)
    if with_pairs:
        add((pair_entity(ns), PARTNERSHIP), 1.0)
        add((pair_entity(ew), PARTNERSHIP), -1.0)
    seats = (ns[0], ew[0], ns[1], ew[1])  # N, E, S, W around the table
    for i, declarer in enumerate(seats):
        sign = 1.0 if i % 2 == 0 else -1.0  # NS declares: play skill helps NS
        lho, rho = seats[(i + 1) % 4], seats[(i + 3) % 4]
        add((declarer, "declarer"), sign * g / 4)
        add((lho, "defence"), -sign * g / 4)
        add((rho, "defence"), -sign * g / 4)
        add((lho, "opening_lead"), -sign * g / 4)
    return x


def _observations(
    b: SkillBoard, params: SkillParams, with_pairs: bool
) -> list[tuple[dict[Key, float], float, float]]:
    """(design, value, noise sd) of each observation one table result gives."""
    obs: list[tuple[dict[Key, float], float, float]] = []
    ns_ew = [(p, 1.0) for p in b.ns] + [(p, -1.0) for p in b.ew]
    total = _tricks_over_dd(b, params)
    if total is not None:
        # The board's IMPs less the IMP value of the tricks the play gained over DD: what is
        # left is the contract reached (and luck). Its noise is independent of the play's, so
        # the board result and the trick evidence are both used and nothing is counted twice.
        x = {(p, "bidding"): sgn for p, sgn in ns_ew}
        if with_pairs:
            x[(pair_entity(b.ns), PARTNERSHIP)] = 1.0
            x[(pair_entity(b.ew), PARTNERSHIP)] = -1.0
        sign = 1.0 if b.declarer_ns else -1.0
        z = b.result_imps - sign * params.imps_per_trick * total
        obs.append((x, z, params.noise_sd["bid"]))
    else:
        x = _expected_design(b.ns, b.ew, params, with_pairs)
        obs.append((x, b.result_imps, params.noise_sd["result"]))
    if b.declarer is not None and b.declarer_ns is not None:
        obs += _play_observations(b, params)
    return obs


def _play_observations(
    b: SkillBoard, params: SkillParams
) -> list[tuple[dict[Key, float], float, float]]:
    """The card-play and opening-lead observations of a board with a known declarer."""
    assert b.declarer is not None
    obs: list[tuple[dict[Key, float], float, float]] = []
    sd = params.noise_sd
    ref = b.field_ref if params.difficulty_centre or params.difficulty_noise else None
    lc, ln = params.difficulty_centre, params.difficulty_noise
    defenders = b.ew if b.declarer_ns else b.ns
    if b.declarer_cost is not None and b.defence_costs is not None:
        # The play record says whose cards cost the tricks: one observation per player.
        dec_mean, dec_sd = params.declarer_cost_mean, sd["declarer_cost"]
        def_mean, def_sd = params.defence_cost_mean, sd["defence_cost"]
        if ref is not None:
            dec_mean, dec_sd = (
                centre(dec_mean, ref.declarer_cost, lc),
                widen(dec_sd, ref.declarer_cost, ln),
            )
            def_mean, def_sd = (
                centre(def_mean, ref.defence_cost, lc),
                widen(def_sd, ref.defence_cost, ln),
            )
        obs.append(({(b.declarer, "declarer"): 1.0}, dec_mean - b.declarer_cost, dec_sd))
        for d, cost in b.defence_costs:
            obs.append(({(d, "defence"): 1.0}, def_mean - cost, def_sd))
    elif b.play_tricks is not None:
        x = {(b.declarer, "declarer"): 1.0}
        for d in defenders:
            x[(d, "defence")] = -1.0
        play_mean, play_sd = params.play_mean, sd["play"]
        if ref is not None:
            play_mean, play_sd = centre(play_mean, ref.play, lc), widen(play_sd, ref.play_size, ln)
        obs.append((x, b.play_tricks - play_mean, play_sd))
    if b.leader is not None and b.lead_cost is not None:
        x = {(b.leader, "opening_lead"): -1.0}
        lead_mean, lead_sd = params.lead_mean, sd["lead"]
        if ref is not None:
            lead_mean, lead_sd = centre(lead_mean, ref.lead, lc), widen(lead_sd, ref.lead, ln)
        obs.append((x, b.lead_cost - lead_mean, lead_sd))
    return obs


def _prior(k: Key, states: Mapping[Key, SkillState], period: int, params: SkillParams) -> tuple:
    sd0 = params.prior_sd[k[1]]
    s = states.get(k)
    if s is None:
        return 0.0, sd0 * sd0
    gap = max(period - s.last_period, 0)
    return s.mean, s.var + gap * (params.drift_sd * sd0) ** 2


def _period(
    boards: Iterable[SkillBoard], params: SkillParams
) -> tuple[list[tuple[dict[Key, float], float, float]], dict[Key, int]]:
    """A period's observations, and the skills they touch with how many boards each played."""
    with_pairs = params.prior_sd.get(PARTNERSHIP, 0.0) > 0
    rows: list[tuple[dict[Key, float], float, float]] = []
    touched: dict[Key, int] = {}
    for b in boards:
        for x, y, sd in _observations(b, params, with_pairs):
            rows.append((x, y, sd))
            for k in x:
                touched[k] = touched.get(k, 0)
        for p in (*b.ns, *b.ew):
            for c in COMPONENTS:
                touched[(p, c)] = touched.get((p, c), 0) + 1
        if with_pairs:
            for pair in (b.ns, b.ew):
                k = (pair_entity(pair), PARTNERSHIP)
                touched[k] = touched.get(k, 0) + 1
    return rows, touched


def period_keys(boards: Iterable[SkillBoard], params: SkillParams) -> dict[Key, int]:
    """The skills a period's boards touch, each with how many of those boards it played (a
    skill only observed, never seated, counts 0): the keys `period_states` needs priors of."""
    return _period(boards, params)[1]


def period_states(
    states: Mapping[Key, SkillState],
    boards: Sequence[SkillBoard],
    period: int,
    params: SkillParams,
) -> States:
    """The new states of the skills `period`'s boards touch (only those: `states` needs to hold
    just their priors, `period_keys`), by an exact Gaussian update. An archive's stage keeps
    one dict and updates it with this, so a period costs its own boards, not every state."""
    rows, touched = _period(boards, params)
    if not rows:
        return {}
    keys = sorted(touched)
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    mu0 = np.empty(n)
    var0 = np.empty(n)
    for k, i in index.items():
        mu0[i], var0[i] = _prior(k, states, period, params)
    # X^T R^-1 X and X^T R^-1 y through a sparse design (each row touches at most ~16 skills).
    from scipy import sparse

    r_idx: list[int] = []
    c_idx: list[int] = []
    vals: list[float] = []
    ys = np.empty(len(rows))
    ws = np.empty(len(rows))
    for r, (x, y, sd) in enumerate(rows):
        ys[r], ws[r] = y, 1.0 / (sd * sd)
        for k, v in x.items():
            r_idx.append(r)
            c_idx.append(index[k])
            vals.append(v)
    design = sparse.csr_matrix((vals, (r_idx, c_idx)), shape=(len(rows), n))
    weighted = design.multiply(ws[:, None]).tocsr()
    prec = (design.T @ weighted).toarray() + np.diag(1.0 / var0)
    eta = mu0 / var0 + weighted.T @ ys
    cov = np.linalg.inv(prec)
    mean = cov @ eta
    var = np.diag(cov)
    out: States = {}
    for k, i in index.items():
        old = states.get(k)
        out[k] = SkillState(
            float(mean[i]), float(var[i]), (old.boards if old else 0) + touched[k], period
        )
    return out


def update_period(
    states: Mapping[Key, SkillState],
    boards: Iterable[SkillBoard],
    period: int,
    params: SkillParams,
) -> States:
    """The states after `period`: an exact Gaussian update of the skills the period's boards touch."""
    out = dict(states)
    out.update(period_states(states, list(boards), period, params))
    return out


def rate_periods(
    periods: Iterable[tuple[int, Sequence[SkillBoard]]],
    params: SkillParams,
    states: Mapping[Key, SkillState] | None = None,
) -> States:
    """Run the periods in order from `states` (empty: everyone starts at the prior)."""
    current: States = dict(states or {})
    for period, boards in periods:
        current = update_period(current, boards, period, params)
    return current


def predict(
    states: Mapping[Key, SkillState],
    ns: Sequence[str],
    ew: Sequence[str],
    params: SkillParams,
    period: int | None = None,
) -> tuple[float, float]:
    """Expected NS IMPs against the datum and the variance of that expectation (skills only)."""
    with_pairs = params.prior_sd.get(PARTNERSHIP, 0.0) > 0
    mean = 0.0
    var = 0.0
    for k, v in _expected_design(ns, ew, params, with_pairs).items():
        if period is None:
            s = states.get(k)
            m, s2 = (s.mean, s.var) if s else (0.0, params.prior_sd[k[1]] ** 2)
        else:
            m, s2 = _prior(k, states, period, params)
        mean += v * m
        var += v * v * s2
    return mean, var


def play_costs(
    trace: Sequence[int], seats: Sequence[int], declarer: int
) -> tuple[float, dict[int, float]]:
    """DD tricks lost by the declaring side's own cards, and conceded by each defender's cards
    after the opening lead, from a DD trace (declaring side's tricks before/after each card)."""
    declaring = {declarer, (declarer + 2) % 4}
    decl = 0.0
    defence: dict[int, float] = {(declarer + 1) % 4: 0.0, (declarer + 3) % 4: 0.0}
    for k in range(1, min(len(trace), len(seats) + 1)):
        diff = trace[k] - trace[k - 1]
        seat = seats[k - 1]
        if seat in declaring:
            decl += max(-diff, 0)
        elif k > 1:
            defence[seat] += max(diff, 0)
    return decl, defence


def overall(
    states: Mapping[Key, SkillState], player: str, params: SkillParams, bidding: bool = True
) -> float:
    """A player's expected IMPs per board over an average partner and field: his bidding plus
    the IMP value of his play, weighted by how often he declares (1/4), defends (1/2) and leads
    (1/4). The single number used to rank players; `bidding=False` keeps the card play only."""

    def m(c: str) -> float:
        s = states.get((player, c))
        return s.mean if s else 0.0

    g = params.imps_per_trick
    play = g * (m("declarer") / 4 + m("defence") / 2 + m("opening_lead") / 4)
    return (m("bidding") if bidding else 0.0) + play


def player_rows(states: Mapping[Key, SkillState]) -> list[dict[str, float | int | str]]:
    """One row per (entity, component), as stored in `skill_ratings`."""
    return [
        {
            "player": k[0],
            "component": k[1],
            "rating": s.mean,
            "se": s.se,
            "boards": s.boards,
            "last_period": s.last_period,
        }
        for k, s in sorted(states.items())
    ]

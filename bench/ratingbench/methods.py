"""The rating methods, each run prequentially: one setting of its search space in, and for
every row the predicted NS-over-EW strength computed from the periods before the row's period.

Every method reads the same `Stream` rows; none sees a result of period P before predicting P.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ddrank.ratings import lehman
from ddrank.ratings import skill as sk
from ddrank.ratings.difficulty import field_refs
from ddrank.ratings.field import seed_newcomers

from .data import Row, Stream, by_period, without_dd

Method = Callable[[Stream, dict[str, Any]], np.ndarray]


def _outcome(imps: float) -> float:
    return 1.0 if imps > 0 else 0.0 if imps < 0 else 0.5


def m_noskill(st: Stream, _: dict) -> np.ndarray:
    return np.zeros(len(st.rows))


def m_lehman(st: Stream, s: dict) -> np.ndarray:
    params = lehman.LehmanParams(history_weight=s["history_weight"], imp_top=s["imp_top"])
    states: dict = {}
    d = np.zeros(len(st.rows))
    for period, idx in by_period(st.rows):
        for i in idx:
            r = st.rows[i]
            rt = {p: states[p].rating if p in states else params.start_rating
                  for p in (*r.ns, *r.ew)}  # fmt: skip
            d[i] = lehman.expected_share(rt[r.ns[0]] + rt[r.ns[1]], rt[r.ew[0]] + rt[r.ew[1]]) - 0.5
        boards = [
            lehman.RatedBoard(
                st.rows[i].ns, st.rows[i].ew, lehman.imp_share(st.rows[i].imps, params)
            )
            for i in idx
        ]
        states = lehman.update_period(states, boards, period, params)
    return d


def _elo(st: Stream, s: dict, pairs: bool) -> np.ndarray:
    k, margin = float(s["k"]), bool(s["margin"])
    rating: dict[str, float] = defaultdict(float)
    d = np.zeros(len(st.rows))
    for _, idx in by_period(st.rows):
        ents = []
        for i in idx:
            r = st.rows[i]
            a = [sk.pair_entity(r.ns)] if pairs else list(r.ns)
            b = [sk.pair_entity(r.ew)] if pairs else list(r.ew)
            ents.append((a, b))
            d[i] = np.mean([rating[x] for x in a]) - np.mean([rating[x] for x in b])
        for i, (a, b) in zip(idx, ents, strict=True):  # then play the period's boards
            diff = np.mean([rating[x] for x in a]) - np.mean([rating[x] for x in b])
            e = 1.0 / (1.0 + 10 ** (-diff / 400.0))
            imps = st.rows[i].imps
            y = lehman.imp_share(imps) if margin else _outcome(imps)
            for x in a:
                rating[x] += k * (y - e)
            for x in b:
                rating[x] -= k * (y - e)
    return d


def m_elo_players(st: Stream, s: dict) -> np.ndarray:
    return _elo(st, s, pairs=False)


def m_elo_pairs(st: Stream, s: dict) -> np.ndarray:
    return _elo(st, s, pairs=True)


def m_glicko2(st: Stream, s: dict) -> np.ndarray:
    """Glicko-2 (`glicko2`): a pair's opponent is the average of the two opponents; with
    `margin` the game's score is the IMP share instead of win/draw/loss."""
    import glicko2

    players: dict[str, glicko2.Player] = {}

    def get(p: str) -> glicko2.Player:
        if p not in players:
            players[p] = glicko2.Player(rd=float(s["rd0"]))
        return players[p]

    d = np.zeros(len(st.rows))
    for _, idx in by_period(st.rows):
        games: dict[str, tuple[list, list, list]] = defaultdict(lambda: ([], [], []))
        snap = {}
        for i in idx:
            r = st.rows[i]
            for p in (*r.ns, *r.ew):
                pl = get(p)
                snap[p] = (pl.getRating(), pl.getRd())
            d[i] = np.mean([snap[p][0] for p in r.ns]) - np.mean([snap[p][0] for p in r.ew])
            y = lehman.imp_share(r.imps) if s["margin"] else _outcome(r.imps)
            for mine, theirs, out in ((r.ns, r.ew, y), (r.ew, r.ns, 1.0 - y)):
                opp = float(np.mean([snap[p][0] for p in theirs]))
                opp_rd = float(np.sqrt(np.mean([snap[p][1] ** 2 for p in theirs])))
                for p in mine:
                    g = games[p]
                    g[0].append(opp)
                    g[1].append(opp_rd)
                    g[2].append(out)
        for p, (rs, rds, os_) in games.items():
            players[p].update_player(rs, rds, os_)
    return d


def m_openskill(st: Stream, s: dict) -> np.ndarray:
    """OpenSkill with each partnership a team of two. `datum`: each table is a game NS v EW
    (win/draw/loss against the datum); `ranking`: all NS pairs of a board ranked by their score,
    and all EW pairs likewise (the board's full ranking of tables, ties shared)."""
    from openskill.models import PlackettLuce, ThurstoneMostellerFull

    model = {"PlackettLuce": PlackettLuce, "ThurstoneMostellerFull": ThurstoneMostellerFull}[
        s["model"]
    ]()
    model.beta = model.beta * float(s["beta_scale"])
    ratings: dict = {}

    def get(p: str) -> Any:
        if p not in ratings:
            ratings[p] = model.rating(name=p)
        return ratings[p]

    d = np.zeros(len(st.rows))
    for _, idx in by_period(st.rows):
        for i in idx:
            r = st.rows[i]
            d[i] = sum(get(p).mu for p in r.ns) - sum(get(p).mu for p in r.ew)
        if s["input"] == "datum":
            games = []
            for i in idx:
                r = st.rows[i]
                y = _outcome(r.imps)
                games.append(([r.ns, r.ew], [0, 1] if y == 1.0 else [1, 0] if y == 0.0 else [0, 0]))
        else:
            boards: dict[str, list[Row]] = defaultdict(list)
            for i in idx:
                boards[st.rows[i].board].append(st.rows[i])
            games = []
            for rs in boards.values():
                if len(rs) < 2:
                    continue
                games.append(([r.ns for r in rs], [-r.ns_score for r in rs]))
                games.append(([r.ew for r in rs], [r.ns_score for r in rs]))
        for teams, ranks in games:
            new = model.rate([[get(p) for p in t] for t in teams], ranks=ranks)
            for t, nt in zip(teams, new, strict=True):
                for p, nr in zip(t, nt, strict=True):
                    ratings[p] = nr
    return d


def m_dd_rates(st: Stream, s: dict) -> np.ndarray:
    """The paper's idea as a predictor: each player's DD rates (declarer tricks vs DD, tricks
    conceded in defence, opening-lead DD cost), shrunk by `shrink` boards towards 0, as features;
    OLS of board IMPs on them. A row's features use only periods before the row's period, for
    training rows as for predicted ones (no row sees its own evidence)."""
    shrink = float(s["shrink"])
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])

    def rate(p: str, c: str) -> float:
        v, n = sums.get((p, c), (0.0, 0.0))
        return v / (n + shrink)

    def feats(r: Row) -> list[float]:
        return [sum(rate(p, c) for p in r.ns) - sum(rate(p, c) for p in r.ew)
                for c in ("declarer", "defence", "lead")]  # fmt: skip

    x = np.zeros((len(st.rows), 3))
    y = np.array([r.imps for r in st.rows])
    d = np.zeros(len(st.rows))
    seen: list[int] = []
    for _, idx in by_period(st.rows):
        for i in idx:
            x[i] = feats(st.rows[i])
        if seen:
            beta, *_ = np.linalg.lstsq(x[seen], y[seen], rcond=None)
            d[idx] = x[idx] @ beta
        for i in idx:
            b = st.rows[i].skill
            if b.declarer is None or b.play_tricks is None:
                continue
            for key, v in [((b.declarer, "declarer"), b.play_tricks)] + [
                ((p, "defence"), -b.play_tricks) for p in (b.ew if b.declarer_ns else b.ns)
            ]:
                sums[key][0] += v
                sums[key][1] += 1
            if b.leader is not None and b.lead_cost is not None:
                sums[(b.leader, "lead")][0] -= b.lead_cost
                sums[(b.leader, "lead")][1] += 1
        seen += idx
    return d


def _ddrank_params(base: sk.SkillParams, s: dict) -> sk.SkillParams:
    """The model's constants for one setting; options left out keep v1's values."""
    prior = {c: v * (s["bid_scale"] if c in ("bidding", sk.PARTNERSHIP) else s["play_scale"])
             for c, v in sk.SkillParams().prior_sd.items()}  # fmt: skip
    if not s["pairs"]:
        prior[sk.PARTNERSHIP] = 0.0
    elif s.get("pair_scale", 1.0) != 1.0:
        prior[sk.PARTNERSHIP] *= float(s["pair_scale"])
    params = replace(base, prior_sd=prior, drift_sd=0.05)
    if s.get("g_scale", 1.0) != 1.0:
        params = replace(params, imps_per_trick=params.imps_per_trick * float(s["g_scale"]))
    if s.get("difficulty_centre", 0.0) or s.get("difficulty_noise", 0.0):
        params = replace(params, difficulty_centre=float(s.get("difficulty_centre", 0.0)),
                         difficulty_noise=float(s.get("difficulty_noise", 0.0)))  # fmt: skip
    return params


def m_ddrank(st: Stream, s: dict, first_scored: int) -> np.ndarray:
    """ddrank's skill rating; noise and IMPs per trick from the periods before the first
    scored period of the stream (never a scored one).

    Variant options (bench/variants.toml), each off by default (v1 bit for bit):
    `field_weight` (ddrank.ratings.field), `pair_scale` (partnership prior), `difficulty_centre`
    and `difficulty_noise` (ddrank.ratings.difficulty), `online` (refit the noise, offsets and
    IMPs per trick on all periods before each period) and `g_scale` (x IMPs per trick)."""
    field_weight = float(s.get("field_weight", 0.0))
    online = bool(s.get("online", False))
    warm = [r.skill for r in st.rows if r.period < first_scored]
    params = _ddrank_params(sk.fit_params(warm, sk.SkillParams()), s)
    rows = st.rows
    if params.difficulty_centre or params.difficulty_noise:
        refs = field_refs([r.skill for r in rows], [r.board for r in rows], params.play_mean)
        rows = [replace(r, skill=replace(r.skill, field_ref=f)) for r, f in zip(rows, refs, strict=True)]  # fmt: skip
    states: sk.States = {}
    d = np.zeros(len(rows))
    for period, idx in by_period(rows):
        if online:
            seen = [r.skill for r in rows if r.period < period]
            params = _ddrank_params(sk.fit_params(seen, sk.SkillParams()), s)
        if field_weight:
            roster = [p for i in idx for p in (*rows[i].ns, *rows[i].ew)]
            states = seed_newcomers(states, roster, period, params, field_weight)
        for i in idx:
            r = rows[i]
            d[i] = sk.predict(states, r.ns, r.ew, params, period)[0]
        states = sk.update_period(states, [rows[i].skill for i in idx], period, params)
    return d


def run(name: str, st: Stream, setting: dict, first_scored: int) -> np.ndarray:
    """One method's prequential predictions for one setting."""
    if name == "ddrank":
        return m_ddrank(st, setting, first_scored)
    if name == "ddrank-nodd":
        return m_ddrank(without_dd(st), setting, first_scored)
    if name in DDRANK_VARIANTS:
        return m_ddrank(st, setting, first_scored)
    return METHODS[name](st, setting)


# The registered variants of ddrank (bench/variants.toml): the same model with options.
DDRANK_VARIANTS = ("ddrank-field", "ddrank-pairs", "ddrank-difficulty", "ddrank-tricks",
                   "ddrank-combo")  # fmt: skip


METHODS: dict[str, Method] = {
    "no-skill": m_noskill,
    "lehman": m_lehman,
    "elo-players": m_elo_players,
    "elo-pairs": m_elo_pairs,
    "glicko2": m_glicko2,
    "openskill": m_openskill,
    "dd-rates": m_dd_rates,
}

"""Which rating predicts bridge results best? A held-out, chronological benchmark.

For every dataset the periods (rounds, segments) are taken in date order. For each held-out
period P past a warm-up, every method sees only the periods before P: it rates the players on
them, chooses its hyper-parameters and calibration on them (nested time split: the prequential
predictions it made for earlier periods), and then predicts period P. Nothing of P is used.

Targets, on exactly the same held-out table results for every method:
* log-loss and Brier score of the probability that this table's North-South beat each other
  table's North-South on the same deal (a half for a tie, as matchpoints count it);
* RMSE of the predicted board score (IMPs against the board's Butler datum, NS view);
* Spearman between the predicted and actual ranking of the pairs' totals in each held-out
  period (mean over periods).
Each has a 95% bootstrap interval over boards; the ddrank rating's log-loss difference to every
other method is bootstrapped on the same resamples (`delta_vs`, negative = ddrank better).

    PYTHONPATH=$PWD python bench/predict.py            # table + docs/img/predict_logloss.png
    PYTHONPATH=$PWD python bench/predict.py --json     # machine-readable list of objects
"""

from __future__ import annotations

import os

# One BLAS thread: on a 2-core machine shared by other jobs, threaded BLAS was 8x slower here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass, replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from ddrank.ratings import lehman  # noqa: E402
from ddrank.ratings import skill as sk  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DDRANK = "ddrank"


# ------------------------------------------------------------------------------------ data


@dataclass(frozen=True, slots=True)
class Row:
    """One table result of a dataset, in the form every method reads."""

    period: int  # 1-based, chronological
    board: str  # tables with the same board played the same deal
    ns: tuple[str, str]
    ew: tuple[str, str]
    ns_score: int
    imps: float  # NS IMPs against the board's Butler datum
    skill: sk.SkillBoard


@dataclass
class Dataset:
    name: str
    rows: list[Row]
    warmup: int  # periods always in training; the first held-out period is warmup + 1
    has_dd: bool


def load_valet(name: str, valet_dir: Path, warmup: int) -> Dataset:
    """A Valet directory (Bermuda Bowl / Venice Cup 2013): one period per round."""
    from stages.skill import valet_skill_rows

    rows = [
        Row(int(r.period), r.board, r.result.ns_pair, r.result.ew_pair, r.result.ns_score,
            r.butler, r.skill)
        for r in valet_skill_rows(valet_dir)
    ]  # fmt: skip
    rows.sort(key=lambda r: (r.period, r.board))
    return Dataset(name, rows, warmup, any(r.skill.declarer is not None for r in rows))


_STAGES = ("qual", "rr", "r64", "r32", "r16", "qtrf", "semif", "final")


def _stage_key(stage: str) -> tuple[int, int]:
    """'QtrF:3' -> (5, 3): knock-out stages in playing order, segments by number."""
    kind, _, seg = stage.partition(":")
    k = kind.strip().lower()
    return (_STAGES.index(k) if k in _STAGES else len(_STAGES), int(seg) if seg.isdigit() else 0)


def load_pbn(name: str, path: Path, warmup: int, by_board: bool = False) -> Dataset:
    """A PBN file read and cleaned by ddrank (`parse_pbn`, `clean_record`), results only.

    Periods are the file's segments in date order (date, then stage and segment number), or,
    for a single session (`by_board`), the board numbers in playing order.
    """
    from ddrank.cleaning import clean_record
    from ddrank.parsers.pbn import parse_pbn
    from ddrank.scoring.results import TableResult, group_boards, make_result
    from ddrank.scoring.tournament import score_field
    from stages.skill import skill_rows

    records = parse_pbn(path.read_text(encoding="latin-1"), str(path))
    results = []
    order: dict[tuple, str] = {}
    for rec in records:
        b = clean_record(rec).board
        if b is None:
            continue
        if by_board:
            key: tuple = (int(b.board_no),)
        else:
            key = (rec.date, _stage_key(rec.stage), b.event)
        made = make_result(
            board=f"{b.event}|{rec.stage}|{b.deal_id}",
            deal=b.deal_id,
            table=b.record_id,
            names=(b.northname, b.eastname, b.southname, b.westname),
            contract_text=b.contract,
            declarer_text=b.declarer,
            tricks=b.result,
            ns_vulnerable=b.ns_vulnerable,
            ew_vulnerable=b.ew_vulnerable,
            period=repr(key),
            year=b.year,
        )
        if isinstance(made, TableResult):
            results.append((key, made))
            order[key] = made.period
    index = {order[k]: i + 1 for i, k in enumerate(sorted(order))}
    boards, _ = group_boards(r for _, r in results)
    rows = [
        Row(index[r.period], r.board, r.result.ns_pair, r.result.ew_pair, r.result.ns_score,
            r.butler, r.skill)
        for r in skill_rows(score_field(boards), {})
    ]  # fmt: skip
    rows.sort(key=lambda r: (r.period, r.board))
    return Dataset(name, rows, warmup, False)


DATASETS = ("BB2013", "VC2013", "WC2012", "OQ2021")


def datasets(names: Sequence[str]) -> list[Dataset]:
    out = []
    for n in names:
        if n == "BB2013":
            out.append(load_valet("BB2013", ROOT / "data/valet/2013-world-men", warmup=5))
        elif n == "VC2013":
            out.append(load_valet("VC2013", ROOT / "data/valet/2013-world-women", warmup=5))
        elif n == "WC2012":
            path = ROOT / "data/sample/pbn/worldclass-2012-example3.pbn"
            out.append(load_pbn("WC2012", path, warmup=20))
        elif n == "OQ2021":
            path = ROOT / "data/sample/pbn/online-qualifier-2021-example2.pbn"
            out.append(load_pbn("OQ2021", path, warmup=4, by_board=True))
        else:
            raise SystemExit(f"error: unknown dataset {n!r} (known: {', '.join(DATASETS)})")
    return out


# ------------------------------------------------------------------------------------ methods
#
# A method maps a dataset to {hyper-parameter label: d}, where d[i] is the predicted strength of
# row i's North-South over its East-West, computed only from periods before row i's period.

Predictions = dict[str, np.ndarray]


def _by_period(ds: Dataset) -> list[tuple[int, list[int]]]:
    idx: dict[int, list[int]] = defaultdict(list)
    for i, r in enumerate(ds.rows):
        idx[r.period].append(i)
    return sorted(idx.items())


def m_noskill(ds: Dataset) -> Predictions:
    return {"-": np.zeros(len(ds.rows))}


def m_lehman(ds: Dataset) -> Predictions:
    out: Predictions = {}
    for hw in (0.5, 0.7, 0.9, 1.0):
        for sw in (10.0, 50.0, 200.0):
            params = lehman.LehmanParams(history_weight=hw, start_weight=sw)
            states: dict = {}
            d = np.zeros(len(ds.rows))
            for period, idx in _by_period(ds):
                for i in idx:
                    r = ds.rows[i]
                    rt = {p: states[p].rating if p in states else params.start_rating
                          for p in (*r.ns, *r.ew)}  # fmt: skip
                    ns, ew = rt[r.ns[0]] + rt[r.ns[1]], rt[r.ew[0]] + rt[r.ew[1]]
                    d[i] = lehman.expected_share(ns, ew) - 0.5
                boards = [
                    lehman.RatedBoard(ds.rows[i].ns, ds.rows[i].ew,
                                      lehman.imp_share(ds.rows[i].imps, params))
                    for i in idx
                ]  # fmt: skip
                states = lehman.update_period(states, boards, period, params)
            out[f"history_weight={hw},start_weight={sw:g}"] = d
    return out


def _outcome(imps: float) -> float:
    return 1.0 if imps > 0 else 0.0 if imps < 0 else 0.5


def _elo(ds: Dataset, pairs: bool) -> Predictions:
    out: Predictions = {}
    for k in (2.0, 5.0, 10.0, 20.0):
        for margin in (False, True):
            rating: dict[str, float] = defaultdict(float)
            d = np.zeros(len(ds.rows))
            for _, idx in _by_period(ds):
                ents = []
                for i in idx:
                    r = ds.rows[i]
                    a = [sk.pair_entity(r.ns)] if pairs else list(r.ns)
                    b = [sk.pair_entity(r.ew)] if pairs else list(r.ew)
                    ents.append((a, b))
                    d[i] = np.mean([rating[x] for x in a]) - np.mean([rating[x] for x in b])
                for i, (a, b) in zip(idx, ents, strict=True):  # then play the period's boards
                    diff = np.mean([rating[x] for x in a]) - np.mean([rating[x] for x in b])
                    e = 1.0 / (1.0 + 10 ** (-diff / 400.0))
                    imps = ds.rows[i].imps
                    s = lehman.imp_share(imps) if margin else _outcome(imps)
                    for x in a:
                        rating[x] += k * (s - e)
                    for x in b:
                        rating[x] -= k * (s - e)
            out[f"K={k:g},{'margin' if margin else 'win/draw/loss'}"] = d
    return out


def m_elo_players(ds: Dataset) -> Predictions:
    return _elo(ds, pairs=False)


def m_elo_pairs(ds: Dataset) -> Predictions:
    return _elo(ds, pairs=True)


def m_glicko2(ds: Dataset) -> Predictions:
    """Glicko-2 (the `glicko2` package); a pair's opponent is the average of the two opponents."""
    import glicko2

    out: Predictions = {}
    for tau in (0.2, 0.5):
        for rd0 in (50.0, 350.0):
            players: dict[str, glicko2.Player] = {}

            def get(
                p: str, rd0: float = rd0, tau: float = tau, players: dict = players
            ) -> glicko2.Player:
                if p not in players:
                    players[p] = glicko2.Player(rd=rd0)
                    players[p]._tau = tau
                return players[p]

            d = np.zeros(len(ds.rows))
            for _, idx in _by_period(ds):
                games: dict[str, tuple[list, list, list]] = defaultdict(lambda: ([], [], []))
                snap = {}
                for i in idx:
                    r = ds.rows[i]
                    for p in (*r.ns, *r.ew):
                        pl = get(p)
                        snap[p] = (pl.getRating(), pl.getRd())
                    ns = np.mean([snap[p][0] for p in r.ns])
                    ew = np.mean([snap[p][0] for p in r.ew])
                    d[i] = ns - ew
                    s = _outcome(r.imps)
                    for mine, theirs, out_s in ((r.ns, r.ew, s), (r.ew, r.ns, 1.0 - s)):
                        opp = float(np.mean([snap[p][0] for p in theirs]))
                        opp_rd = float(np.sqrt(np.mean([snap[p][1] ** 2 for p in theirs])))
                        for p in mine:
                            g = games[p]
                            g[0].append(opp)
                            g[1].append(opp_rd)
                            g[2].append(out_s)
                for p, (rs, rds, os_) in games.items():
                    players[p].update_player(rs, rds, os_)
            out[f"tau={tau},rd0={rd0:g}"] = d
    return out


def m_openskill(ds: Dataset) -> Predictions:
    """OpenSkill (Plackett-Luce / Thurstone-Mosteller) with each partnership a team of two."""
    from openskill.models import PlackettLuce, ThurstoneMostellerFull

    out: Predictions = {}
    for model_cls in (PlackettLuce, ThurstoneMostellerFull):
        for beta_scale in (1.0, 5.0):
            model = model_cls()
            model.beta = model.beta * beta_scale
            ratings: dict = {}

            def get(p: str, model=model, ratings: dict = ratings) -> object:
                if p not in ratings:
                    ratings[p] = model.rating(name=p)
                return ratings[p]

            d = np.zeros(len(ds.rows))
            for _, idx in _by_period(ds):
                for i in idx:
                    r = ds.rows[i]
                    d[i] = sum(get(p).mu for p in r.ns) - sum(get(p).mu for p in r.ew)
                for i in idx:
                    r = ds.rows[i]
                    ns = [get(p) for p in r.ns]
                    ew = [get(p) for p in r.ew]
                    s = _outcome(r.imps)
                    ranks = [0, 1] if s == 1.0 else [1, 0] if s == 0.0 else [0, 0]
                    new_ns, new_ew = model.rate([ns, ew], ranks=ranks)
                    for p, nr in zip((*r.ns, *r.ew), (*new_ns, *new_ew), strict=True):
                        ratings[p] = nr
            out[f"{model_cls.__name__},beta*{beta_scale:g}"] = d
    return out


#: TrueSkill Through Time refits per dataset: every round on BB2013 (the headline comparison),
#: at most 8 elsewhere (a refit of thousands of games takes minutes in pure Python).
TTT_FITS = {"BB2013": 20}


def m_ttt(ds: Dataset) -> Predictions:
    """TrueSkill Through Time (`trueskillthroughtime`), refitted on all earlier periods each time."""
    import trueskillthroughtime as ttt

    out: Predictions = {}
    periods = _by_period(ds)
    for sigma in (0.15, 0.5):  # prior skill sd, in units of one board's performance noise
        d = np.zeros(len(ds.rows))
        # Between refits a period is predicted from the last fit, which saw only earlier periods.
        fits = TTT_FITS.get(ds.name, 8)
        step = max(1, math.ceil((len(periods) - 1) / fits))
        for j0 in range(1, len(periods), step):
            j = j0
            train = [i for _, idx in periods[:j] for i in idx]
            comp = [[list(ds.rows[i].ns), list(ds.rows[i].ew)] for i in train]
            res = []
            for i in train:
                s = _outcome(ds.rows[i].imps)
                res.append([s, 1.0 - s])
            times = [ds.rows[i].period for i in train]
            h = ttt.History(comp, res, times, mu=0.0, sigma=sigma, beta=1.0,
                            gamma=0.02 * sigma, p_draw=0.15)  # fmt: skip
            h.convergence(iterations=3, verbose=False)
            last = {p: curve[-1][1].mu for p, curve in h.learning_curves().items()}
            for _, idx in periods[j : j + step]:
                for i in idx:
                    r = ds.rows[i]
                    d[i] = sum(last.get(p, 0.0) for p in r.ns) - sum(last.get(p, 0.0) for p in r.ew)
        out[f"sigma={sigma},gamma={0.02 * sigma:g}"] = d
    return out


def m_dd_rates(ds: Dataset) -> Predictions:
    """The paper's idea as a predictor: each player's DD mistake rates from earlier periods
    (declarer tricks vs DD, tricks conceded in defence, opening-lead DD cost), regressed by OLS
    on the board IMPs of the earlier periods; the fitted line predicts the next period."""
    if not ds.has_dd:
        return {}
    d = np.zeros(len(ds.rows))
    periods = _by_period(ds)
    for j in range(1, len(periods)):
        train = [i for _, idx in periods[:j] for i in idx]
        sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])

        def add(p: str, c: str, v: float, sums: dict = sums) -> None:
            sums[(p, c)][0] += v
            sums[(p, c)][1] += 1

        for i in train:
            b = ds.rows[i].skill
            if b.declarer is None or b.play_tricks is None:
                continue
            add(b.declarer, "declarer", b.play_tricks)
            for p in b.ew if b.declarer_ns else b.ns:
                add(p, "defence", -b.play_tricks)
            if b.leader is not None and b.lead_cost is not None:
                add(b.leader, "lead", -b.lead_cost)

        def rate(p: str, c: str, sums: dict = sums) -> float:
            s, n = sums.get((p, c), (0.0, 0.0))
            return s / (n + 5.0)  # five boards of shrinkage towards the field average

        def feats(r: Row) -> list[float]:
            f = []
            for c in ("declarer", "defence", "lead"):
                f.append(sum(rate(p, c) for p in r.ns) - sum(rate(p, c) for p in r.ew))
            return f

        x = np.array([feats(ds.rows[i]) for i in train])
        y = np.array([ds.rows[i].imps for i in train])
        beta, *_ = np.linalg.lstsq(x, y, rcond=None)
        for i in periods[j][1]:
            d[i] = float(np.dot(feats(ds.rows[i]), beta))
    return {"ols": d}


def m_ddrank(ds: Dataset) -> Predictions:
    """ddrank's skill rating; noise and IMPs-per-trick come from the warm-up periods only."""
    warm = [r.skill for r in ds.rows if r.period <= ds.warmup]
    base = sk.fit_params(warm, sk.SkillParams())
    out: Predictions = {}
    defaults = dict(sk.SkillParams().prior_sd)
    for bid_scale in (0.25, 0.5, 1.0, 2.0):
        # Without DD facts the play components are not identified apart from bidding: one scale.
        for play_scale in (0.5, 1.0, 2.0, 4.0) if ds.has_dd else (1.0,):
            for drift in (0.0, 0.1):
                for pairs in (False, True):
                    prior = {c: v * (bid_scale if c in ("bidding", sk.PARTNERSHIP) else play_scale)
                             for c, v in defaults.items()}  # fmt: skip
                    if not pairs:
                        prior[sk.PARTNERSHIP] = 0.0
                    params = replace(base, prior_sd=prior, drift_sd=drift)
                    states: sk.States = {}
                    d = np.zeros(len(ds.rows))
                    for period, idx in _by_period(ds):
                        for i in idx:
                            r = ds.rows[i]
                            d[i] = sk.predict(states, r.ns, r.ew, params, period)[0]
                        states = sk.update_period(
                            states, [ds.rows[i].skill for i in idx], period, params
                        )
                    label = f"bid*{bid_scale:g},play*{play_scale:g},drift={drift:g},pairs={pairs}"
                    out[label] = d
    return out


METHODS: dict[str, Callable[[Dataset], Predictions]] = {
    "no-skill": m_noskill,
    "lehman": m_lehman,
    "elo-players": m_elo_players,
    "elo-pairs": m_elo_pairs,
    "glicko2": m_glicko2,
    "openskill": m_openskill,
    "ttt": m_ttt,
    "dd-rates": m_dd_rates,
    DDRANK: m_ddrank,
}


# ------------------------------------------------------------------------------------ scoring


@dataclass
class Comparisons:
    """Every pair of tables on the same deal: indices into the rows and the outcome (0, .5, 1)."""

    i: np.ndarray
    j: np.ndarray
    y: np.ndarray
    board: np.ndarray  # board index of each comparison
    period: np.ndarray


def comparisons(ds: Dataset) -> tuple[Comparisons, np.ndarray, list[str]]:
    boards = sorted({r.board for r in ds.rows})
    bidx = {b: k for k, b in enumerate(boards)}
    row_board = np.array([bidx[r.board] for r in ds.rows])
    by: dict[int, list[int]] = defaultdict(list)
    for k in range(len(ds.rows)):
        by[row_board[k]].append(k)
    ii, jj = [], []
    for rows in by.values():
        for a in range(len(rows)):
            for b in range(a + 1, len(rows)):
                ii.append(rows[a])
                jj.append(rows[b])
    i, j = np.array(ii), np.array(jj)
    score = np.array([r.ns_score for r in ds.rows])
    y = np.where(score[i] > score[j], 1.0, np.where(score[i] < score[j], 0.0, 0.5))
    period = np.array([r.period for r in ds.rows])
    return Comparisons(i, j, y, row_board[i], period[i]), row_board, boards


def _logloss(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def _fit_scale(z: np.ndarray, y: np.ndarray) -> float:
    """The a >= 0 minimising the log-loss of sigmoid(a z) (Newton steps on a 1-D convex loss)."""
    if not np.any(z):
        return 0.0
    a = 0.0
    for _ in range(30):
        p = 1 / (1 + np.exp(-a * z))
        g = np.sum((p - y) * z)
        h = np.sum(p * (1 - p) * z * z) + 1e-12
        step = g / h
        a = max(a - step, 0.0)
        if abs(step) < 1e-9 * (1 + abs(a)):
            break
    return a


@dataclass
class Held:
    """A method's held-out predictions: probability per comparison, IMPs per row."""

    prob: np.ndarray
    imps: np.ndarray
    chosen: list[str]


def select_and_predict(
    ds: Dataset, preds: Predictions, comp: Comparisons, test_periods: list[int]
) -> Held:
    """For each held-out period: choose the hyper-parameters and the calibration on the
    prequential predictions of the earlier periods only, then predict that period."""
    prob = np.full(len(comp.y), np.nan)
    imps = np.full(len(ds.rows), np.nan)
    row_period = np.array([r.period for r in ds.rows])
    actual = np.array([r.imps for r in ds.rows])
    chosen = []
    for P in test_periods:
        tr = (comp.period < P) & (comp.period >= 2)
        te = comp.period == P
        rtr = (row_period < P) & (row_period >= 2)
        rte = row_period == P
        best = None
        for label, d in preds.items():
            z = d[comp.i] - d[comp.j]
            a = _fit_scale(z[tr], comp.y[tr])
            loss = _logloss(1 / (1 + np.exp(-a * z[tr])), comp.y[tr]).mean()
            if best is None or loss < best[0]:
                best = (loss, label, a)
        assert best is not None
        _, label, a = best
        chosen.append(label)
        d = preds[label]
        z = d[comp.i] - d[comp.j]
        prob[te] = 1 / (1 + np.exp(-a * z[te]))
        dd = d[rtr]
        b = float(np.dot(dd, actual[rtr]) / np.dot(dd, dd)) if np.any(dd) else 0.0
        imps[rte] = b * d[rte]
    return Held(prob, imps, chosen)


def session_totals(ds: Dataset, values: np.ndarray, rows: np.ndarray) -> dict[str, float]:
    tot: dict[str, float] = defaultdict(float)
    for k in rows:
        r = ds.rows[k]
        tot[sk.pair_entity(r.ns)] += values[k]
        tot[sk.pair_entity(r.ew)] -= values[k]
    return tot


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    from scipy.stats import spearmanr

    if len(a) < 3 or np.all(a == a[0]) or np.all(b == b[0]):
        return 0.0
    return float(spearmanr(a, b).statistic)


def evaluate(
    ds: Dataset, held: dict[str, Held], comp: Comparisons, row_board: np.ndarray,
    test_periods: list[int], n_boot: int, seed: int = 0,
) -> list[dict]:  # fmt: skip
    """Metrics with 95% bootstrap intervals over held-out boards, the same resamples for all."""
    rng = np.random.default_rng(seed)
    te = np.isin(comp.period, test_periods)
    test_boards = np.unique(comp.board[te])
    nb = int(row_board.max()) + 1
    bpos = np.full(nb, -1)
    bpos[test_boards] = np.arange(len(test_boards))
    cb = bpos[comp.board[te]]
    y = comp.y[te]
    row_period = np.array([r.period for r in ds.rows])
    # A board played at one table only has no comparison; its rows are left out everywhere.
    rte = np.isin(row_period, test_periods) & (bpos[row_board] >= 0)
    rb = bpos[row_board[rte]]
    actual = np.array([r.imps for r in ds.rows])
    weights = rng.multinomial(
        len(test_boards), np.full(len(test_boards), 1 / len(test_boards)), size=n_boot
    ).astype(float)
    weights = np.vstack([np.ones(len(test_boards)), weights])  # row 0: the data as observed
    n_comp = np.bincount(cb, minlength=len(test_boards)).astype(float)
    n_rows = np.bincount(rb, minlength=len(test_boards)).astype(float)
    # Session ranking: per held-out period, per pair, contributions of each board.
    sess = []
    for P in test_periods:
        rows = np.where((row_period == P) & (bpos[row_board] >= 0))[0]
        pairs = sorted({sk.pair_entity(ds.rows[k].ns) for k in rows}
                       | {sk.pair_entity(ds.rows[k].ew) for k in rows})  # fmt: skip
        pidx = {p: n for n, p in enumerate(pairs)}
        sess.append((rows, pidx))

    def session_matrix(values: np.ndarray, rows: np.ndarray, pidx: dict) -> np.ndarray:
        m = np.zeros((len(test_boards), len(pidx)))
        for k in rows:
            r = ds.rows[k]
            m[bpos[row_board[k]], pidx[sk.pair_entity(r.ns)]] += values[k]
            m[bpos[row_board[k]], pidx[sk.pair_entity(r.ew)]] -= values[k]
        return m

    actual_sess = [session_matrix(actual, rows, pidx) for rows, pidx in sess]
    sess_boot = rng.integers(0, len(sess), size=(n_boot, len(sess)))
    per_method: dict[str, dict[str, np.ndarray]] = {}
    for name, h in held.items():
        p = h.prob[te]
        ll = np.bincount(cb, weights=_logloss(p, y), minlength=len(test_boards))
        br = np.bincount(cb, weights=(p - y) ** 2, minlength=len(test_boards))
        se = np.bincount(rb, weights=(h.imps[rte] - actual[rte]) ** 2,
                         minlength=len(test_boards))  # fmt: skip
        m = {
            "log_loss": weights @ ll / (weights @ n_comp),
            "brier": weights @ br / (weights @ n_comp),
            "rmse": np.sqrt(weights @ se / (weights @ n_rows)),
        }
        rhos = []
        for (rows, pidx), act in zip(sess, actual_sess, strict=True):
            pred = session_matrix(h.imps, rows, pidx)
            rhos.append(_spearman(pred.sum(axis=0), act.sum(axis=0)))
        # Resampling boards adds noise to every pair's total and biases a rank correlation
        # downwards, so the ranking's interval resamples the held-out sessions instead.
        r = np.asarray(rhos)
        m["spearman"] = np.concatenate([[r.mean()], r[sess_boot].mean(axis=1)])
        per_method[name] = m
    out = []
    for name, m in per_method.items():
        obj: dict = {"dataset": ds.name, "method": name, "n_results": int(rte.sum()),
                     "n_comparisons": int(te.sum()), "n_boards": int(len(test_boards))}  # fmt: skip
        for k, v in m.items():
            obj[k] = float(v[0])
            if k == "log_loss":
                obj["log_loss_lo"], obj["log_loss_hi"] = map(
                    float, np.percentile(v[1:], [2.5, 97.5])
                )
            else:
                obj[f"{k}_lo"], obj[f"{k}_hi"] = map(float, np.percentile(v[1:], [2.5, 97.5]))
        obj["chosen"] = sorted(set(held[name].chosen), key=held[name].chosen.index)
        if name == DDRANK:
            obj["delta_vs"] = {}
            for other, mo in per_method.items():
                if other == DDRANK:
                    continue
                diff = m["log_loss"][1:] - mo["log_loss"][1:]
                obj["delta_vs"][other] = [float(x) for x in np.percentile(diff, [2.5, 97.5])]
                obj.setdefault("delta", {})[other] = float(m["log_loss"][0] - mo["log_loss"][0])
        out.append(obj)
    return out


def run_dataset(ds: Dataset, methods: Sequence[str], n_boot: int, log: Callable) -> list[dict]:
    comp, row_board, _ = comparisons(ds)
    periods = sorted({r.period for r in ds.rows})
    test_periods = [p for p in periods if p > ds.warmup]
    held: dict[str, Held] = {}
    for name in methods:
        t0 = time.perf_counter()
        preds = METHODS[name](ds)
        if not preds:
            log(f"{ds.name}: {name} not applicable (no DD facts)")
            continue
        held[name] = select_and_predict(ds, preds, comp, test_periods)
        log(f"{ds.name}: {name} in {time.perf_counter() - t0:.1f} s")
    return evaluate(ds, held, comp, row_board, test_periods, n_boot)


def table(results: list[dict]) -> str:
    head = (f"{'dataset':8} {'method':12} {'n':>6} {'log-loss [95% CI]':>27} "
            f"{'Brier':>7} {'RMSE':>6} {'Spearman [95% CI]':>22}")  # fmt: skip
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r['dataset']:8} {r['method']:12} {r['n_results']:6d} "
            f"{r['log_loss']:.4f} [{r['log_loss_lo']:.4f}, {r['log_loss_hi']:.4f}] "
            f"{r['brier']:7.4f} {r['rmse']:6.2f} "
            f"{r['spearman']:6.3f} [{r['spearman_lo']:.3f}, {r['spearman_hi']:.3f}]"
        )
    for r in results:
        if "delta_vs" in r:
            lines.append(
                f"\n{r['dataset']}: ddrank log-loss minus other (95% CI; < 0 = ddrank better)"
            )
            for k, (lo, hi) in r["delta_vs"].items():
                mark = "  better" if hi < 0 else "  worse" if lo > 0 else ""
                lines.append(f"  vs {k:12} {r['delta'][k]:+.5f} [{lo:+.5f}, {hi:+.5f}]{mark}")
    return "\n".join(lines)


def markdown(results: list[dict]) -> str:
    """The table as Markdown (for docs/ratings.md), with the ddrank log-loss deltas."""
    lines = ["| dataset | method | held-out results | log-loss [95% CI] | Brier | RMSE (IMPs) | "
             "Spearman [95% CI] | ddrank minus method [95% CI] |",
             "|---|---|---:|---|---:|---:|---|---|"]  # fmt: skip
    deltas = {r["dataset"]: r.get("delta_vs", {}) for r in results if r["method"] == DDRANK}
    points = {r["dataset"]: r.get("delta", {}) for r in results if r["method"] == DDRANK}
    for r in results:
        d = deltas.get(r["dataset"], {}).get(r["method"])
        dtext = (f"{points[r['dataset']][r['method']]:+.5f} [{d[0]:+.5f}, {d[1]:+.5f}]"
                 if d else "")  # fmt: skip
        lines.append(
            f"| {r['dataset']} | {r['method']} | {r['n_results']} | {r['log_loss']:.4f} "
            f"[{r['log_loss_lo']:.4f}, {r['log_loss_hi']:.4f}] | {r['brier']:.4f} | "
            f"{r['rmse']:.2f} | {r['spearman']:.3f} [{r['spearman_lo']:.3f}, "
            f"{r['spearman_hi']:.3f}] | {dtext} |"
        )
    return "\n".join(lines)


def plot(results: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(r["dataset"] for r in results))
    fig, axes = plt.subplots(2, len(names), figsize=(5.2 * len(names), 8.5), squeeze=False)
    for col, dsn in enumerate(names):
        ax = axes[0][col]
        rs = [r for r in results if r["dataset"] == dsn]
        rs.sort(key=lambda r: r["log_loss"])
        y = np.arange(len(rs))
        x = np.array([r["log_loss"] for r in rs])
        err = np.array([[r["log_loss"] - r["log_loss_lo"], r["log_loss_hi"] - r["log_loss"]]
                        for r in rs]).T.clip(min=0)  # fmt: skip
        colors = ["tab:red" if r["method"] == DDRANK else "tab:blue" for r in rs]
        ax.errorbar(x, y, xerr=err, fmt="none", ecolor="grey", capsize=3)
        ax.scatter(x, y, c=colors, zorder=3)
        ax.set_yticks(y, [r["method"] for r in rs])
        ax.invert_yaxis()
        ax.set_title(f"{dsn}: {rs[0]['n_results']} held-out results")
        ax.set_xlabel("held-out log-loss (lower is better)")
        ax.grid(axis="x", alpha=0.3)
        # Paired differences: the intervals above overlap because every method shares the
        # boards' luck; the paired bootstrap of the difference removes it.
        ax = axes[1][col]
        dd = next((r for r in rs if r["method"] == DDRANK), None)
        if dd is None:
            ax.set_axis_off()
            continue
        others = [r["method"] for r in rs if r["method"] != DDRANK]
        y = np.arange(len(others))
        pt = np.array([dd["delta"][m] for m in others])
        lo = np.array([dd["delta_vs"][m][0] for m in others])
        hi = np.array([dd["delta_vs"][m][1] for m in others])
        # A percentile interval need not contain the point estimate: clip the bars at it.
        xerr = [np.maximum(pt - lo, 0), np.maximum(hi - pt, 0)]
        ax.errorbar(pt, y, xerr=xerr, fmt="o", color="tab:red", ecolor="grey",
                    capsize=3)  # fmt: skip
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, [f"vs {m}" for m in others])
        ax.invert_yaxis()
        ax.set_xlabel("ddrank log-loss minus method\n(< 0: ddrank better), paired 95% CI")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Held-out chronological prediction benchmark.")
    ap.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated dataset names")
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated method names")
    ap.add_argument("--boot", type=int, default=1000, help="bootstrap resamples")
    ap.add_argument("--plot", type=Path, default=ROOT / "docs/img/predict_logloss.png")
    args = ap.parse_args(argv)
    methods = [m for m in args.methods.split(",") if m]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        print(f"error: unknown method(s) {unknown}; known: {list(METHODS)}", file=sys.stderr)
        return 2

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    results: list[dict] = []
    for ds in datasets([d for d in args.datasets.split(",") if d]):
        log(f"{ds.name}: {len(ds.rows)} table results, warm-up {ds.warmup} periods")
        results += run_dataset(ds, methods, args.boot, log)
    if args.plot:
        plot(results, args.plot)
    log(f"total {time.perf_counter() - t0:.0f} s")
    print(json.dumps(results, indent=1) if args.json else table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

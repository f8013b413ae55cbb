"""The contract a table reaches, by a single-dummy judgement. No DD solver here.

Each side's true strength is its combined points: high-card points (4-3-2-1) plus one per card
beyond four in each suit, plus one per trump beyond eight in its best fit. Each side perceives
that strength with noise, `(sd(b1) z1 + sd(b2) z2) / sqrt(2)` with z ~ N(0, 1) and
sd(b) = SD_BEST + (SD_WORST - SD_BEST) * (1 - b) points for bidding skill b in [0, 1]. The side
with the higher perceived strength declares. Its strain: a major fit of 8+ cards, else no trumps
when neither hand has a singleton or void, else a minor fit of 8+, else the longest fit; with
probability STRAIN_ERROR * (1 - mean bidding skill of the pair) it picks the alternative (no
trumps instead of the suit, or the longest fit instead of no trumps). Its level is the one with
the best expected score (at its vulnerability) when the tricks are normal around a trick model
of the perceived points (`trick_model`: fitted on the generator's own single-dummy play, never on
DD). When the other side perceives 17+ and has an 8-card fit, a suit contract at the 3 level
or below is pushed to the law of total tricks (the longer of the two fits minus 6, at most 3).
No doubles.
Declarer: the hand with more trumps (no trumps: more high-card points; ties to the first hand).

SD_WORST and STRAIN_ERROR were set, before any rating was computed, so that the bidding skill's
range is worth about as many IMPs as the card-play skill's (`generate.calibrate`).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

import numpy as np

from bench.simulation.play import SUITS, Hand, parse_deal

SD_BEST, SD_WORST = 1.0, 8.0  # points of noise in a player's judgement at skill 1 and 0
STRAIN_ERROR = 0.5  # probability of the alternative strain at bidding skill 0
MODEL_SEED = 7  # the seed of the trick model's own single-dummy play
MAJORS, MINORS = (0, 1), (2, 3)


def hcp(hand: Hand) -> int:
    return sum(max(r - 8, 0) for suit in hand for r in suit)


def points(hand: Hand) -> int:
    return hcp(hand) + sum(max(len(suit) - 4, 0) for suit in hand)


def judgement_sd(skill: float) -> float:
    return SD_BEST + (SD_WORST - SD_BEST) * (1.0 - skill)


def _fits(a: Hand, b: Hand) -> list[int]:
    return [len(a[s]) + len(b[s]) for s in range(4)]


def _strain(a: Hand, b: Hand, err: float, rng: random.Random) -> int | None:
    """Suit index, or None for no trumps."""
    fits = _fits(a, b)
    longest = max(range(4), key=lambda s: (fits[s], -s))
    majors = [s for s in MAJORS if fits[s] >= 8]
    balanced = min(len(x) for x in a) >= 2 and min(len(x) for x in b) >= 2
    if majors:
        choice: int | None = max(majors, key=lambda s: (fits[s], -s))
    elif balanced:
        choice = None
    elif any(fits[s] >= 8 for s in MINORS):
        choice = max(MINORS, key=lambda s: (fits[s], -s))
    else:
        choice = longest
    if rng.random() < err:
        choice = longest if choice is None else None
    return choice


@functools.lru_cache(maxsize=1)
def trick_model() -> dict[bool, tuple[float, float, float, float]]:
    """Tricks an average declarer takes against average defenders, by strain kind (no trumps or
    a suit): OLS of tricks on the side's points and fit length, with the residual sd, fitted on
    the generator's own single-dummy play (skill 0.5 at every seat) of every bundled deal. This
    is how a bidder judges the odds of a contract: it is never a DD number."""
    from bench.simulation.generate import load_deals
    from bench.simulation.play import play_board

    rng = random.Random(MODEL_SEED)
    rows: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    for deal in load_deals():
        hands = parse_deal(deal.pbn)
        for a, b in ((0, 2), (1, 3)):
            fits = _fits(hands[a], hands[b])
            p = points(hands[a]) + points(hands[b]) + max(max(fits) - 8, 0)
            strain = _strain(hands[a], hands[b], 0.0, rng)
            decl = _declarer(hands, a, b, strain)
            letter = "N" if strain is None else SUITS[strain]
            _, tricks = play_board(deal.pbn, letter, "NESW"[decl], [0.5] * 4, rng)
            fit = 0 if strain is None else fits[strain]
            rows[strain is None].append((p, fit, tricks))
    out = {}
    for nt, data in rows.items():
        arr = np.array(data, dtype=float)
        x = np.column_stack([np.ones(len(arr)), arr[:, 0], arr[:, 1]])
        if nt:
            x = x[:, :2]
        beta, *_ = np.linalg.lstsq(x, arr[:, 2], rcond=None)
        sd = float(np.std(arr[:, 2] - x @ beta, ddof=x.shape[1]))
        out[nt] = (float(beta[0]), float(beta[1]), float(beta[2]) if not nt else 0.0, sd)
    return out


@functools.cache
def _score(level: int, strain: int | None, tricks: int, vul: bool) -> int:
    from ddrank.scoring.arithmetic.duplicate import duplicate_score
    from ddrank.types.contract import Contract

    return duplicate_score(Contract.parse(f"{level}{'N' if strain is None else SUITS[strain]}"),
                           tricks, vul)  # fmt: skip


def _level(strain: int | None, p: float, fit: int, vul: bool) -> int:
    """The level with the best expected score when the side's points are judged to be p."""
    c0, c1, c2, sd = trick_model()[strain is None]
    mean = c0 + c1 * p + c2 * fit
    cdf = [0.5 * (1.0 + math.erf((t + 0.5 - mean) / (sd * math.sqrt(2.0)))) for t in range(14)]
    prob = [cdf[0]] + [cdf[t] - cdf[t - 1] for t in range(1, 13)] + [1.0 - cdf[12]]
    best = max(range(1, 8), key=lambda lv: sum(q * _score(lv, strain, t, vul)
                                              for t, q in enumerate(prob)))  # fmt: skip
    return best


def _declarer(hands: Sequence[Hand], a: int, b: int, strain: int | None) -> int:
    if strain is None:
        return a if hcp(hands[a]) >= hcp(hands[b]) else b
    return a if len(hands[a][strain]) >= len(hands[b][strain]) else b


def auction(hands: Sequence[Hand], skill: Sequence[float], vul: tuple[bool, bool],
            rng: random.Random) -> tuple[str, str]:  # fmt: skip
    """The contract ('4S', '3N') and declarer letter a table reaches; `skill` by seat N, E, S, W,
    `vul` the vulnerability of NS and EW."""
    perceived = []
    for a, b in ((0, 2), (1, 3)):
        fits = _fits(hands[a], hands[b])
        true = points(hands[a]) + points(hands[b]) + max(max(fits) - 8, 0)
        z1, z2 = rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0)
        noise = (judgement_sd(skill[a]) * z1 + judgement_sd(skill[b]) * z2) / math.sqrt(2.0)
        perceived.append(true + noise)
    side = 0 if perceived[0] >= perceived[1] else 1
    a, b = (0, 2) if side == 0 else (1, 3)
    err = STRAIN_ERROR * (1.0 - (skill[a] + skill[b]) / 2.0)
    strain = _strain(hands[a], hands[b], err, rng)
    p = perceived[side]
    fits = _fits(hands[a], hands[b])
    level = _level(strain, p, fits[strain] if strain is not None else 0, vul[side])
    opp = _fits(hands[1 - side], hands[3 - side])
    if strain is not None and level <= 3 and perceived[1 - side] >= 17 and max(opp) >= 8:
        level = max(level, min(3, max(fits[strain], max(opp)) - 6))
    declarer = _declarer(hands, a, b, strain)
    letter = "N" if strain is None else SUITS[strain]
    return f"{level}{letter}", "NESW"[declarer]

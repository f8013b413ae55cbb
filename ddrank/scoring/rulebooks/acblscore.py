"""ACBLscore, the ACBL's club scoring program (game files): its rulebook and its arithmetic.

Read off the numbers ACBLscore stores in its game files and checked against all of them in 49
real club files (`tests/test_acblscore.py`: 15,982 matchpoints, 1,310 pair totals, percentages
and places):

* **Each direction on its own scores.** North-South results are compared with North-South
  results, East-West with East-West: 1 matchpoint per result beaten, 1/2 per tie. (They mirror
  each other, except where a director split a result and each side got its own score.)
* **Factoring.** A board with n comparable results in a field whose fullest board has N is
  lifted to the field's top, N - 1: (mp + 1/2) * N/n - 1/2, per direction (Neuberg).
* **Artificial scores** are their percentage of the top: average-plus 60%, average 50%,
  average-minus 40%; they are not compared with the others. A result left with nothing to
  compare with (n = 1) gets 60% of the top.
* **Rounding.** Each board's matchpoints are rounded to 0.01 (half up), as published.
* **Pair totals.** A pair's session score is the sum of its rounded board matchpoints, factored
  from the b boards it played to the B boards a full pair played, scaled to the event's maximum
  score where its field's top is lower (a section matchpointed apart from a bigger field, a
  session after a bigger one), rounded to 0.01; its percentage is that score over the maximum
  score, B times the event's top. Pairs rank on it; equal scores share a place.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ddrank.scoring.model import EventResult, PairLine, ScoredResult, parse_number
from ddrank.scoring.rulebooks import RANGE, Rulebook

HALF = Fraction(1, 2)
LONE_RESULT_PCT = 60  # a result with no other to compare with


def round2(x: Fraction) -> Fraction:
    """To the hundredth, half up (ACBLscore stores hundredths)."""
    return Fraction(math.floor(x * 100 + HALF), 100)


def _hundredths(x: float) -> Fraction:
    """A sum of values published to 0.01, exactly (float sums drift in the last bits)."""
    return Fraction(round(x * 100), 100)


def side_values(r: EventResult) -> tuple[tuple[str, float], tuple[str, float]]:
    """Each side's own result: ('score', points from its side) or ('pct', its artificial %)."""
    if r.ns_score is not None:
        ns: tuple[str, float] = ("score", float(r.ns_score))
    else:
        ns = ("pct", r.adjusted[0] if r.adjusted else 50.0)
    if r.ew_score is not None:
        ew: tuple[str, float] = ("score", float(r.ew_score))
    elif r.adjusted is not None:
        ew = ("pct", r.adjusted[1])
    else:
        ew = ("score", -float(r.ns_score or 0))
    return ns, ew


def side_matchpoints(values: Sequence[tuple[str, float]], field: int) -> list[Fraction]:
    """One direction's matchpoints on a board of `field` results (the field's fullest board)."""
    scores = [v for kind, v in values if kind == "score"]
    n, top = len(scores), Fraction(max(field, 1) - 1)
    out = []
    for kind, v in values:
        if kind == "pct":
            out.append(top * Fraction(v) / 100)
        elif n == 1:
            out.append(top * LONE_RESULT_PCT / 100)
        else:
            beaten = sum(1 for o in scores if v > o) + Fraction(
                sum(1 for o in scores if v == o) - 1, 2
            )
            out.append((beaten + HALF) * Fraction(max(field, n), n) - HALF)
    return [round2(m) for m in out]


def score_board(
    results: Sequence[EventResult], field_size: int | None = None
) -> list[ScoredResult]:
    """One board's field, each direction matchpointed on its own scores (phantoms left out)."""
    real = [r for r in results if r.is_result]
    if not real:
        return []
    n_field = max(field_size or 0, len(real))
    sides = [side_values(r) for r in real]
    ns = side_matchpoints([s[0] for s in sides], n_field)
    ew = side_matchpoints([s[1] for s in sides], n_field)
    top = float(n_field - 1)
    out = []
    for r, a, b in zip(real, ns, ew, strict=True):
        pct = lambda m: 100.0 * float(m) / top if top else 50.0  # noqa: E731
        out.append(ScoredResult(r, n_field, len(real), float(a), float(b), pct(a), pct(b), top=top))
    return sorted(out, key=lambda s: s.result.order)


PairInput = tuple[str, str, str, str, float, bool]


def pair_inputs(standings: Iterable[Mapping[str, Any]]) -> tuple[PairInput, ...]:
    """What a director applied to pairs' session totals, from an event's published standings:
    (session, section, direction, pair, adjustment, eligible); () when nothing. (A carry-over
    from earlier sessions is not one: ACBLscore places a pair in the session on the session.)"""
    out = []
    for st in standings:
        if st.get("strat") or st.get("opponent"):
            continue
        adj = parse_number(st.get("adjustment"))
        eligible = st.get("eligible") is not False
        if adj or not eligible:
            out.append((str(st.get("session") or ""), str(st.get("section") or ""),
                        str(st.get("direction") or ""), str(st.get("pair") or ""),
                        adj or 0.0, eligible))  # fmt: skip
    return tuple(sorted(out))


def _inputs_of(line: PairLine, inputs: Sequence[PairInput]) -> PairInput | None:
    """A line's pair input: by section and number, or by the 'A11' label of joined sections."""
    for inp in inputs:
        session, section, direction, pair = inp[:4]
        if (session, direction) != (line.session, line.direction):
            continue
        if (section, pair) == (line.section, line.pair) or f"{section}{pair}" == line.pair:
            return inp
    return None


def factor_totals(lines: Sequence[PairLine], max_score: float | None = None,
                  inputs: Sequence[PairInput] = ()) -> None:  # fmt: skip
    """Session lines to ACBLscore's session scores: factored to the boards a full pair played,
    scaled to the event's maximum score, rounded to 0.01 (`line.top` becomes that maximum), the
    director's adjustment added and eligibility set for the ranking (`inputs`).

    `line.mp` is the sum of the pair's rounded board matchpoints and `line.top` the sum of its
    boards' tops; lines of one (event, session) share the full number of boards B."""
    full: dict[tuple[str, str], int] = defaultdict(int)
    for line in lines:
        if line.session and line.top:
            full[(line.event, line.session)] = max(full[(line.event, line.session)], line.boards)
    for line in lines:
        b = line.boards
        if not (line.session and line.top and b):
            continue
        big_b = full[(line.event, line.session)]
        own_top = _hundredths(line.top) / b  # this field's top per board
        event_max = _hundredths(max_score) if max_score else own_top * big_b
        scale = event_max / (own_top * big_b)
        score = round2(_hundredths(line.mp) * big_b / b * scale)
        line.mp, line.top = float(score), float(event_max)
        line.factor = big_b / b * scale  # what the board matchpoints were multiplied by
        given = _inputs_of(line, inputs) if inputs else None
        if given is not None:
            line.mp = float(_hundredths(line.mp) + _hundredths(given[4]))
            line.eligible = given[5]


RULEBOOK = Rulebook(
    name="ACBLscore",
    declares=("acblscore",),
    # Its own arithmetic (method `acbl`, below): matchpoints 1 per result beaten,
    # session totals factored to the boards a full pair played, stored in hundredths, halves up
    # (133.5 / 240 = 55.625 -> 55.63).
    method="acbl",
    top=1.0,
    federation="ACBL",  # its federation's scoring: 1 matchpoint per result beaten
    total_decimals=2,
    pct_decimals=2,
    rounding="half up",
    ties=RANGE,  # two pairs sharing 4th print "4/5"
    tiebreak="a published place decides (places within a tie as the file prints them)",
    awards="strat places (A/B/C, section and overall) and masterpoints",
    about="events/acblscore-game: 49 game files, 15,982 matchpoints, 1,310 pair totals",
    score_board=score_board,
    method_help="each direction on its own scores, boards rounded to 0.01, totals factored to the "
    "full number of boards",
    factor_totals=factor_totals,
    pair_inputs=pair_inputs,
)

"""Duplicate score and IMP table against the law book (Marriner 2024 Tables A1-A7) and known values."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddrank.scoring.arithmetic.duplicate import contract_points, duplicate_score, imps, penalty
from ddrank.types import Contract, DomainError, Strain


def c(text: str) -> Contract:
    return Contract.parse(text)


ALL_RESULTS = [
    (Contract(level, Strain(s), d), t)
    for level in range(1, 8)
    for s in range(5)
    for d in range(3)
    for t in range(14)
]


def test_result_space_size() -> None:
    # Cammarata (2015) Def. 2 counts 5881 results: 35 bids x 4 declarers x 3 doublings x 14 trick
    # counts, plus the all-pass. The declarer seat only decides the sign and the vulnerability, so
    # the score itself has 35 x 3 x 14 = 1470 inputs per vulnerability.
    assert 35 * 4 * 3 * 14 + 1 == 5881
    assert len(ALL_RESULTS) == 1470
    scores = {
        (con, t, v, y): duplicate_score(con, t, v, y)
        for con, t in ALL_RESULTS
        for v in (False, True)
        for y in (0, 1987)
    }
    assert len(scores) == 4 * 1470
    changed = [k for k in scores if k[3] == 1987 and scores[k] != scores[(*k[:3], 0)]]
    # Only NV doubled/redoubled contracts 4 or more down differ before 1988.
    expected = sum(1 for con, t in ALL_RESULTS if con.doubled and con.tricks_needed - t >= 4)
    assert len(changed) == expected > 0
    assert all(not k[2] and k[0].doubled and k[0].tricks_needed - k[1] >= 4 for k in changed)


# Table A1: contract points per odd trick.
@pytest.mark.parametrize(
    ("strain", "first", "later"),
    [
        (Strain.N, 40, 30),
        (Strain.S, 30, 30),
        (Strain.H, 30, 30),
        (Strain.D, 20, 20),
        (Strain.C, 20, 20),
    ],
)
@pytest.mark.parametrize("doubled", [0, 1, 2])
def test_table_a1_contract_points(strain: Strain, first: int, later: int, doubled: int) -> None:
    mult = (1, 2, 4)[doubled]
    assert contract_points(1, strain, doubled) == first * mult
    for level in range(2, 8):
        step = contract_points(level, strain, doubled) - contract_points(level - 1, strain, doubled)
        assert step == later * mult


def test_table_a2_partscore_and_game_bonus() -> None:
    # 2S= : 60 contract points -> part-score 50 either vulnerability.
    assert duplicate_score(c("2S"), 8, False) == 60 + 50
    assert duplicate_score(c("2S"), 8, True) == 60 + 50
    # 4S= : 120 -> game 300 NV / 500 V.  3NT: exactly 100 -> game.
    assert duplicate_score(c("4S"), 10, False) == 120 + 300
    assert duplicate_score(c("4S"), 10, True) == 120 + 500
    assert duplicate_score(c("3N"), 9, False) == 100 + 300
    # 4C= : 80 -> part-score; 2NT= : 70 -> part-score.
    assert duplicate_score(c("4C"), 10, True) == 80 + 50
    assert duplicate_score(c("2N"), 8, True) == 70 + 50


def test_table_a3_doubled_overtricks() -> None:
    for vul, x_over, r_over in ((False, 100, 200), (True, 200, 400)):
        for con in ("1C", "2H", "3N", "5D"):
            base = c(con)
            for d, per in ((1, x_over), (2, r_over)):
                made = duplicate_score(base.with_doubling(d), base.tricks_needed, vul)
                for over in range(1, 14 - base.tricks_needed):
                    got = duplicate_score(base.with_doubling(d), base.tricks_needed + over, vul)
                    assert got - made == over * per
    # undoubled overtricks are trick value; NT overtricks 30, not 40
    assert duplicate_score(c("1N"), 8, False) - duplicate_score(c("1N"), 7, False) == 30
    assert duplicate_score(c("1C"), 8, False) - duplicate_score(c("1C"), 7, False) == 20


def test_table_a4_slam_bonuses() -> None:
    assert duplicate_score(c("6S"), 12, False) == 180 + 300 + 500
    assert duplicate_score(c("6S"), 12, True) == 180 + 500 + 750
    assert duplicate_score(c("7N"), 13, False) == 220 + 300 + 1000
    assert duplicate_score(c("7N"), 13, True) == 220 + 500 + 1500
    # a slam bonus needs the slam bid: 4S+2 gets none, 6S+1 gets small slam only
    assert duplicate_score(c("4S"), 12, False) == 480
    assert duplicate_score(c("6S"), 13, False) == 1010


def test_table_a5_insult() -> None:
    # 1C doubled =: 40 + 50 part-score + 50 insult; redoubled: 80 + 50 + 100.
    assert duplicate_score(c("1CX"), 7, False) == 40 + 50 + 50
    assert duplicate_score(c("1CR"), 7, False) == 80 + 50 + 100


TABLE_A6 = {  # undertrick k -> (NV: U, X, R), (V: U, X, R) ; rows 2nd,3rd and 4th+ repeat
    1: ((50, 100, 200), (100, 200, 400)),
    2: ((50, 200, 400), (100, 300, 600)),
    3: ((50, 200, 400), (100, 300, 600)),
    4: ((50, 300, 600), (100, 300, 600)),
}
TABLE_A7 = dict(TABLE_A6)
TABLE_A7[4] = ((50, 200, 400), (100, 300, 600))


@pytest.mark.parametrize(
    ("table", "year"),
    [(TABLE_A6, 0), (TABLE_A6, 1988), (TABLE_A6, 2013), (TABLE_A7, 1987), (TABLE_A7, 1)],
)
def test_tables_a6_a7_penalties(table: dict, year: int) -> None:
    for vul, d in itertools.product((False, True), range(3)):
        total = 0
        for k in range(1, 14):
            total += table[min(k, 4)][vul][d]
            assert penalty(k, d, vul, year) == total
            assert duplicate_score(c("7N").with_doubling(d), 13 - k, vul, year) == -total


# Standard values as printed in published duplicate score tables (ACBL/WBF scoring tables).
KNOWN = [
    ("4S", 10, False, 420),
    ("4S", 10, True, 620),
    ("3N", 10, True, 630),
    ("3N", 9, False, 400),
    ("1N", 7, False, 90),
    ("1NX", 7, False, 180),
    ("1NX", 8, True, 380),
    ("1NR", 8, True, 1160),
    ("2HX", 8, True, 670),
    ("2SX", 8, False, 470),
    ("2SX", 9, False, 570),
    ("3CX", 9, False, 470),
    ("5CX", 11, False, 550),
    ("5DX", 11, True, 750),
    ("1C", 13, False, 190),
    ("6S", 12, True, 1430),
    ("6N", 12, False, 990),
    ("7N", 13, True, 2220),
    ("7NX", 13, True, 2490),
    ("7NR", 13, True, 2980),
    ("4HX", 9, True, -200),
    ("4HX", 7, False, -500),
    ("4HX", 6, False, -800),
    ("3NX", 6, True, -800),
    ("6N", 0, False, -600),  # 6NT-12 (6NT-13 cannot happen: 12 tricks needed)
    ("6NX", 0, False, -3200),
    ("7NX", 0, False, -3500),
    ("7NR", 0, True, -7600),
]


@pytest.mark.parametrize(("con", "tricks", "vul", "score"), KNOWN)
def test_published_scores(con: str, tricks: int, vul: bool, score: int) -> None:
    assert duplicate_score(c(con), tricks, vul) == score


def test_pre_1988_known_values() -> None:
    assert duplicate_score(c("4HX"), 6, False, 1987) == -700
    assert duplicate_score(c("4HX"), 6, False, 1988) == -800
    assert duplicate_score(c("7NX"), 0, False, 1987) == -2500
    assert duplicate_score(c("7NR"), 0, False, 1987) == -5000
    assert duplicate_score(c("7NX"), 0, True, 1987) == -3800  # vulnerable unchanged


def test_impossible_tricks_rejected() -> None:
    with pytest.raises(DomainError):
        duplicate_score(c("4S"), 14, False)
    with pytest.raises(DomainError):
        duplicate_score(c("4S"), -1, False)


WBF_IMP_ROWS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11),
    (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16),
    (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21),
    (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


def test_wbf_imp_table() -> None:
    for lo, hi, n in WBF_IMP_ROWS:
        for diff in range(lo, hi + 1, 10):
            assert imps(diff) == n
            assert imps(-diff) == -n


contracts = st.builds(
    Contract,
    level=st.integers(1, 7),
    strain=st.sampled_from(list(Strain)),
    doubled=st.integers(0, 2),
)


@given(contracts, st.integers(0, 12), st.booleans(), st.sampled_from([0, 1987, 2013]))
def test_score_strictly_increases_with_tricks(con: Contract, t: int, vul: bool, year: int) -> None:
    assert duplicate_score(con, t + 1, vul, year) > duplicate_score(con, t, vul, year)


@given(contracts, st.integers(0, 13), st.booleans(), st.sampled_from([0, 1987]))
def test_doubling_relations(con: Contract, t: int, vul: bool, year: int) -> None:
    u = duplicate_score(con.with_doubling(0), t, vul, year)
    x = duplicate_score(con.with_doubling(1), t, vul, year)
    r = duplicate_score(con.with_doubling(2), t, vul, year)
    if t < con.tricks_needed:
        assert r == 2 * x  # redoubled undertricks cost twice the doubled ones
        assert x < u < 0
    else:
        assert u < x < r  # making a doubled contract always scores more
        assert x - u >= 50  # at least the insult


@given(contracts, st.integers(0, 13))
def test_vulnerability_never_helps_when_down(con: Contract, t: int) -> None:
    nv, v = duplicate_score(con, t, False), duplicate_score(con, t, True)
    if t < con.tricks_needed:
        assert v < nv
    else:
        assert v >= nv


@given(st.integers(-8000, 8000), st.integers(-8000, 8000))
def test_imps_monotone_and_antisymmetric(a: int, b: int) -> None:
    assert imps(-a) == -imps(a)
    if a <= b:
        assert imps(a) <= imps(b)

"""Matchpoints and the fouled-board methods, against every number in dewael-fouled-boards.txt."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddrank.scoring.arithmetic.matchpoints import (
    ascherman,
    matchpoints,
    mitchell1,
    mitchell1_bis,
    neuberg,
    neuberg_percent,
    percentages,
)

# The seed's first example: one board, 4 tables played one version, 7 another.
# NS scores (an EW entry is the negative): rows as printed in the seed.
GROUP_4 = [620, 80, -90, -100]
GROUP_7 = [110, 90, -50, 0, 90, -90, 80]
FOULED = [GROUP_4, GROUP_7]

# The seed's 15-table "special example": 4H made by 60%, 5 tables played a different deal.
SPECIAL = [[620, 620, 620, -100, -100], [620] * 6 + [-100] * 4]


def rounded(groups: list[list[float]], digits: int) -> list[list[float]]:
    return [[round(x, digits) for x in g] for g in groups]


def test_matchpoints_within_groups() -> None:
    # the seed's "MP/g" column
    assert matchpoints(GROUP_4) == [6, 4, 2, 0]
    assert matchpoints(GROUP_7) == [12, 9, 2, 4, 9, 0, 6]
    assert [matchpoints(g) for g in SPECIAL] == [[6, 6, 6, 1, 1], [13] * 6 + [3] * 4]


def test_mitchell1_column() -> None:
    got = mitchell1(FOULED)
    assert got == [[13, 11, 9, 7], [16, 13, 6, 8, 13, 4, 10]]
    assert sum(map(sum, got)) == 110  # "the total is the correct 110"
    assert [sum(g) / len(g) for g in got] == [10, 10]  # "the average within both groups is 10"


def test_mitchell1_bis_column() -> None:
    got = rounded(mitchell1_bis(FOULED), 1)
    assert got == [[20, 13.3, 6.7, 0], [20, 15, 3.3, 6.7, 15, 0, 10]]


def test_neuberg_column_incl_18_25_and_19_43() -> None:
    got = neuberg(FOULED)
    assert got[0][0] == 18.25  # (6+1)/4*11 - 1
    assert rounded(got, 2) == [
        [18.25, 12.75, 7.25, 1.75],
        [19.43, 14.71, 3.71, 6.86, 14.71, 0.57, 10],
    ]
    assert neuberg_percent(FOULED)[0][0] == pytest.approx(91.25)  # "(91.25%)"
    assert sum(map(sum, got)) == pytest.approx(110)


def test_ascherman_column() -> None:
    got = ascherman(FOULED)
    assert rounded(got, 2) == [
        [19.25, 13.75, 8.25, 2.75],
        [20.43, 15.71, 4.71, 7.86, 15.71, 1.57, 11],
    ]
    assert sum(map(sum, got)) == pytest.approx(121)
    # "the Ascherman scores are of course 1 MP higher than ... Mitchell-Neuberg"
    for a, n in zip(sum(got, []), sum(neuberg(FOULED), []), strict=True):
        assert a - n == pytest.approx(1)


def test_special_example_all_columns() -> None:
    assert mitchell1(SPECIAL) == [[16, 16, 16, 11, 11], [18] * 6 + [8] * 4]
    # The seed's mpM' column (18, 3, 19.5, 4.5) is the count-ratio rescaling N/n; its own
    # definition of 1 bis (ratio of tops) would print 21, 3.5, 20.2, 4.7 here (see methodology).
    assert mitchell1_bis(SPECIAL, basis="results") == [[18, 18, 18, 3, 3], [19.5] * 6 + [4.5] * 4]
    assert rounded(mitchell1_bis(SPECIAL), 1) == [[21, 21, 21, 3.5, 3.5], [20.2] * 6 + [4.7] * 4]
    # "Only when using the Neuberg formula are the results in both groups the same."
    assert neuberg(SPECIAL) == [[20, 20, 20, 5, 5], [20] * 6 + [5] * 4]
    # "the two groups ... produce the same results when using the Ascherman scoring (21 and 6 MP)"
    assert ascherman(SPECIAL) == [[21, 21, 21, 6, 6], [21] * 6 + [6] * 4]


def test_unfouled_board_is_plain_matchpoints() -> None:
    g = [GROUP_4 + GROUP_7]
    plain = matchpoints(GROUP_4 + GROUP_7)
    for method in (mitchell1, mitchell1_bis, neuberg):
        assert method(g)[0] == pytest.approx(plain)
    assert ascherman(g)[0] == pytest.approx([m + 1 for m in plain])


def test_missing_results_use_the_field_size() -> None:
    # 11 tables in the field but only the 4-table group reported: Neuberg lifts to the top of 11.
    assert neuberg([GROUP_4], total=11)[0][0] == 18.25
    with pytest.raises(ValueError):
        neuberg(FOULED, total=10)


scores = st.lists(
    st.sampled_from([-800, -100, -50, 0, 90, 110, 140, 420, 620]), min_size=1, max_size=15
)


@given(scores)
def test_matchpoints_total_and_percent(board: list[int]) -> None:
    n = len(board)
    mps = matchpoints(board)
    assert sum(mps) == n * (n - 1)  # every comparison hands out 2 matchpoints
    pct = percentages(mps, n)
    assert sum(pct) == pytest.approx(50.0 * n)
    assert all(0 <= p <= 100 for p in pct)


@given(st.lists(scores, min_size=1, max_size=4))
def test_neuberg_keeps_average_at_average(groups: list[list[int]]) -> None:
    big_n = sum(map(len, groups))
    for g in neuberg(groups):
        assert sum(g) / len(g) == pytest.approx(big_n - 1)
    for g in mitchell1(groups):
        assert sum(g) / len(g) == pytest.approx(big_n - 1)

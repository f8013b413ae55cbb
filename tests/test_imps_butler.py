"""Cross-IMPs, Butler and Bastille against the numbers of dewael-fouled-boards.txt."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddrank.scoring.arithmetic.crossimps import (
    bastille,
    bastille_datum,
    butler,
    butler_datum,
    cross_imp_totals,
    cross_imps,
    drop_weights,
    round_datum,
    trimmed_mean,
)

# The 15-table special example: 5 tables played one version of the board, 10 another.
SMALL = [620, 620, 620, -100, -100]
BIG = [620] * 6 + [-100] * 4


def test_cross_imp_totals_column() -> None:
    assert cross_imp_totals(SMALL) == [24, 24, 24, -36, -36]
    assert cross_imp_totals(BIG) == [48] * 6 + [-72] * 4


def test_cross_imps_a_divides_by_comparisons() -> None:
    assert cross_imps(SMALL, "comparisons") == [6, 6, 6, -9, -9]
    big = cross_imps(BIG, "comparisons")
    assert big[6:] == [-8] * 4
    # The seed prints +5.4 for 48/9; the exact value is 5.33 (a rounding slip in the seed, see
    # docs/methodology.md (scoring section)). Everything else in the column is exact.
    assert big[:6] == [pytest.approx(48 / 9)] * 6
    assert abs(big[0] - 5.4) < 0.07


def test_cross_imps_b_divides_by_results() -> None:
    assert cross_imps(SMALL) == [pytest.approx(4.8)] * 3 + [pytest.approx(-7.2)] * 2
    assert cross_imps(BIG) == [pytest.approx(4.8)] * 6 + [pytest.approx(-7.2)] * 4


def test_bastille_fixed_drop_one_each_side() -> None:
    # small group: (2x620 - 1x100)/3 = 380; large group: (5x620 - 3x100)/8 = 350
    assert bastille_datum(SMALL) == 380
    assert bastille_datum(BIG) == 350
    # Unfouled, the seed writes (9x620 - 4x100)/13 = 398.5: that is the datum of 10 makes and 5
    # downs. The special example's own 15 results are 9 makes and 6 downs, whose datum is
    # (8x620 - 5x100)/13 = 343.1 (an inconsistency in the seed, documented in methodology).
    assert round(bastille_datum([620] * 10 + [-100] * 5), 1) == 398.5
    assert bastille_datum(SMALL + BIG) == pytest.approx((8 * 620 - 5 * 100) / 13)


def test_bastille_fractional_rule_10_percent() -> None:
    # big group (10 results): one each side, as normal: 350
    assert bastille_datum(BIG, drop_fraction=0.1) == 350
    # small group: (620x50% + 620x2 - 100 - 100x50%)/4 = 350
    assert bastille_datum(SMALL, drop_fraction=0.1) == 350
    # unfouled: (7.5x620 - 4.5x100)/12 = 350
    assert bastille_datum(SMALL + BIG, drop_fraction=0.1) == 350
    assert drop_weights(15, 1.5)[:3] == [0.0, 0.5, 1.0]
    # 20 results: two dropped either side
    assert drop_weights(20, 2.0) == [0, 0] + [1.0] * 16 + [0, 0]


def test_bastille_scores_against_datum() -> None:
    assert bastille(SMALL) == [240, 240, 240, -480, -480]
    assert bastille(SMALL, drop_fraction=0.1) == [270, 270, 270, -450, -450]


def test_butler_datum_and_imps() -> None:
    # 380 and 350 are already multiples of 10; 343.1 rounds to 340
    assert butler(SMALL) == [6, 6, 6, -10, -10]  # 620-380=240 -> 6; -480 -> 10
    assert butler(BIG) == [7, 7, 7, 7, 7, 7, -10, -10, -10, -10]  # 270 -> 7; -450 -> 10
    assert butler_datum(SMALL + BIG) == 340
    assert butler_datum(SMALL, drop_fraction=0.1) == 350
    assert round_datum(345) == 350 and round_datum(-345) == -350 and round_datum(344.9) == 340


def test_fixed_drop_never_empties_a_small_field() -> None:
    assert trimmed_mean([620, -100]) == 260  # nothing dropped from 2 results
    assert trimmed_mean([620, -100, 0]) == 0
    assert trimmed_mean([420], drop_count=2) == 420
    with pytest.raises(ValueError):
        trimmed_mean([])


board_scores = st.lists(st.integers(-40, 40).map(lambda k: 10 * k * 5), min_size=2, max_size=24)


@given(board_scores)
def test_cross_imps_are_zero_sum(board: list[int]) -> None:
    assert sum(cross_imp_totals(board)) == 0
    assert sum(cross_imps(board)) == pytest.approx(0)


@given(board_scores, st.sampled_from([0.1, 0.2, 0.25]))
def test_fractional_rule_is_scale_free(board: list[int], frac: float) -> None:
    """Results with the same relative frequency give the same datum: the seed's stated aim."""
    assert trimmed_mean(board * 2, drop_fraction=frac) == pytest.approx(
        trimmed_mean(board, drop_fraction=frac)
    )
    assert sum(drop_weights(len(board), frac * len(board))) == pytest.approx(
        len(board) * (1 - 2 * frac)
    )

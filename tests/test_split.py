"""Cammarata split: Theorem 1 on both Bermuda Bowl 2013 fields, checked against a scalar reference."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from ddrank.scoring.arithmetic.crossimps import cross_imps
from ddrank.scoring.arithmetic.duplicate import duplicate_score, imps
from ddrank.scoring.intake.results import TableResult
from ddrank.split import aggregate_splits, split_board, split_field
from stages.field import read_valet_dir

VALET = Path(__file__).resolve().parent.parent / "data" / "valet"
DATASETS = ["2013-world-men", "2013-world-women"]


@cache
def boards(dataset: str) -> tuple[tuple[TableResult, ...], ...]:
    loaded = read_valet_dir(VALET / dataset)
    assert not loaded.errors
    return tuple(tuple(g) for gs in loaded.boards.values() for g in gs)


@pytest.mark.parametrize("dataset", DATASETS)
def test_theorem1_every_pair_of_tables_every_board(dataset: str) -> None:
    all_boards = boards(dataset)
    assert len(all_boards) == 21 * 16  # 21 rounds of 16 boards, every board at ~22 tables
    pairs = 0
    worst = 0.0
    for tables in all_boards:
        b = split_board(tables)
        n = len(tables)
        pairs += n * (n - 1)
        resid = b.butler - b.bid - b.play_j - b.play_k
        np.fill_diagonal(resid, 0)
        worst = max(worst, float(np.abs(resid).max()))
        # Theorem 1's closed forms agree with the derivation (5)/(6) the code computes:
        r_e = _bilinear_cross(b)  # IMP(r_j, e_k) - IMP(e_j, r_k)
        assert np.allclose(b.play_j, 0.5 * (b.butler - b.bid + r_e), atol=1e-9)
        assert np.allclose(b.play_k, 0.5 * (b.butler - b.bid - r_e), atol=1e-9)
        # antisymmetry: j's view of k's play is minus k's view of its own play
        assert np.allclose(b.play_k, -b.play_j.T, atol=1e-9)
        assert np.allclose(b.bid, -b.bid.T, atol=1e-9)
    assert worst < 1e-9
    assert pairs > 300 * 400  # every ordered pair of tables was checked


def _bilinear_cross(b) -> np.ndarray:
    n = len(b.tables)
    r = np.zeros((n, len(b.scores)))
    idx = {int(s): i for i, s in enumerate(b.scores)}
    for j, t in enumerate(b.tables):
        r[j, idx[t.ns_score]] = 1
    diff = b.scores[:, None] - b.scores[None, :]
    m = np.vectorize(imps)(diff)
    return r @ m @ b.expected.T - b.expected @ m @ r.T


def _reference_expected(tables: tuple[TableResult, ...], j: int) -> dict[int, Fraction]:
    """Definition 6 written out with exact fractions: j's contract with its family's tricks."""
    t = tables[j]
    if t.contract is None:
        return {0: Fraction(1)}
    fam = [
        u for u in tables if u.contract is not None and u.contract.strain == t.contract.strain
        and u.declarer == t.declarer
    ]  # fmt: skip
    ns = t.declarer is not None and t.declarer.is_ns
    vul = t.ns_vulnerable if ns else t.ew_vulnerable
    out: dict[int, Fraction] = {}
    for u in fam:
        s = duplicate_score(t.contract, u.tricks, vul)
        s = s if ns else -s
        out[s] = out.get(s, Fraction(0)) + Fraction(1, len(fam))
    return out


def _imp(u: dict[int, Fraction], v: dict[int, Fraction]) -> Fraction:
    return sum((a * b * imps(x - y) for x, a in u.items() for y, b in v.items()), Fraction(0))


def _sub(u: dict[int, Fraction], v: dict[int, Fraction]) -> dict[int, Fraction]:
    out = dict(u)
    for k, w in v.items():
        out[k] = out.get(k, Fraction(0)) - w
    return out


@pytest.mark.parametrize("dataset", DATASETS)
def test_matches_exact_scalar_reference_on_first_round(dataset: str) -> None:
    """An independent exact-fraction implementation of eqs. (5), (6) on every board of round 1."""
    for tables in [b for b in boards(dataset) if b[0].period == "01"][:4]:
        b = split_board(tables)
        e = [_reference_expected(tables, j) for j in range(len(tables))]
        r = [{t.ns_score: Fraction(1)} for t in tables]
        for j in range(len(tables)):
            assert sum(e[j].values()) == 1
            for k in range(len(tables)):
                if j == k:
                    continue
                bid = _imp(e[j], e[k])
                pj = _imp(_sub(r[j], e[j]), e[k]) / 2 + _imp(_sub(r[j], e[j]), r[k]) / 2
                pk = _imp(r[j], _sub(r[k], e[k])) / 2 + _imp(e[j], _sub(r[k], e[k])) / 2
                assert b.bid[j, k] == pytest.approx(float(bid), abs=1e-12)
                assert b.play_j[j, k] == pytest.approx(float(pj), abs=1e-12)
                assert b.play_k[j, k] == pytest.approx(float(pk), abs=1e-12)
                butler = imps(tables[j].ns_score - tables[k].ns_score)
                assert b.butler[j, k] == butler
                assert bid + pj + pk == butler  # Theorem 1, exactly, in rationals


@pytest.mark.parametrize("dataset", DATASETS)
def test_per_table_and_per_player_tables(dataset: str) -> None:
    all_boards = boards(dataset)
    splits, worst = split_field(all_boards)
    assert worst < 1e-9
    assert len(splits) == sum(len(b) for b in all_boards)
    # per table: butler = bid + play + luck, and butler is the cross-IMP average (A)
    by_board: dict[str, list] = {}
    for s in splits:
        assert s.butler == pytest.approx(s.bid + s.play + s.luck, abs=1e-9)
        by_board.setdefault(s.result.board, []).append(s)
    for tables in all_boards[:20]:
        ci = cross_imps([t.ns_score for t in tables], "comparisons")
        got = {s.result.table: s.butler for s in by_board[tables[0].board]}
        assert [got[t.table] for t in tables] == pytest.approx(ci)
    pairs, players = aggregate_splits(splits)
    assert len(players) >= 120 and len(pairs) >= 60
    for row in pairs + players:
        parts = row["bid"] + row["play"] + row["defence"] + row["luck"]
        assert row["butler"] == pytest.approx(parts, abs=1e-9)
        assert set(row) == {"players", "boards", "butler", "bid", "play", "defence", "luck"}
    assert all(" - " in str(p["players"]) for p in pairs)
    # zero-sum field: the boards-weighted butler of all pairs sums to 0
    assert sum(float(p["butler"]) * int(p["boards"]) for p in pairs) == pytest.approx(0, abs=1e-6)


def test_exact_play_gives_zero_play_score() -> None:
    """A table whose family all took the same tricks has r = e: no play score, only bid."""
    for tables in boards("2013-world-men")[:40]:
        b = split_board(tables)
        for j, t in enumerate(tables):
            fam = [u.tricks for u in tables if u.contract and t.contract and u.declarer == t.declarer
                   and u.contract.strain == t.contract.strain]  # fmt: skip
            if t.contract is None or len(set(fam)) == 1:
                assert np.allclose(b.play_j[j], 0)

"""Lehman ratings: every arithmetic property of the seed's "Mathematical assumptions", and real data."""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddrank.ratings.lehman import (
    LehmanParams,
    PlayerState,
    RatedBoard,
    boards_by_period,
    earned_ratings,
    imp_share,
    rate_periods,
    update_period,
)
from ddrank.scoring.tournament import score_field
from ddrank.valet import parse_hands, parse_names, parse_scores, round_of_hands_file
from stages.field import read_valet_dir

VALET = Path(__file__).resolve().parent.parent / "data" / "valet"
rating = st.floats(5.0, 95.0)
share = st.floats(0.0, 1.0)


def states(**ratings: float) -> dict[str, PlayerState]:
    return {p: PlayerState(r, 100.0, 100, 0) for p, r in ratings.items()}


def test_seed_pot_example_47_4_percent() -> None:
    # "If N-S contribute 90 points together, and E-W contribute 100, N-S expect 90/190 = 47.4%"
    board = RatedBoard(("N", "S"), ("E", "W"), 90 / 190)
    earned = earned_ratings(board, {"N": 40, "S": 50, "E": 45, "W": 55})
    assert earned == pytest.approx(
        {"N": 40, "S": 50, "E": 45, "W": 55}
    )  # everyone takes back his ante


@given(rating, rating, rating, rating)
def test_expected_result_met_means_no_change(n: float, s: float, e: float, w: float) -> None:
    """Assumption 4: achieving the expected score leaves every rating where it was."""
    before = states(N=n, S=s, E=e, W=w)
    expected = (n + s) / (n + s + e + w)
    after = update_period(before, [RatedBoard(("N", "S"), ("E", "W"), expected)] * 3, 1)
    for p in "NSEW":
        assert after[p].rating == pytest.approx(before[p].rating, rel=1e-12)


@given(rating, share)
def test_equal_rated_tables_leave_ratings_unchanged(r: float, s: float) -> None:
    """Assumption 4: four 55% (or 40%) players at one table do not drift towards 50%.

    Each pair's boards average 50% between them (a board and its mirror), so nobody did better or
    worse than an equal table should: ratings stay put (scratch scoring would move them to 50).
    """
    before = states(N=r, S=r, E=r, W=r)
    boards = [RatedBoard(("N", "S"), ("E", "W"), s), RatedBoard(("N", "S"), ("E", "W"), 1 - s)]
    after = update_period(before, boards, 1)
    for p in "NSEW":
        assert after[p].rating == pytest.approx(r, rel=1e-12)


@given(rating, rating, rating, rating, share)
def test_partners_ratio_constant_on_a_board(
    n: float, s: float, e: float, w: float, x: float
) -> None:
    """Assumption 3a: both partners get back the same fraction of their own ratings."""
    earned = earned_ratings(RatedBoard(("N", "S"), ("E", "W"), x), {"N": n, "S": s, "E": e, "W": w})
    assert earned["N"] / n == pytest.approx(earned["S"] / s, rel=1e-12)
    assert earned["E"] / e == pytest.approx(earned["W"] / w, rel=1e-12)
    # Assumption 5: the adjustments balance, the pot is handed back whole.
    assert sum(earned.values()) == pytest.approx(n + s + e + w, rel=1e-12)


def test_a_top_is_worth_more_against_good_opponents() -> None:
    """Assumption 1."""
    ratings = {"N": 50, "S": 50, "E": 60, "W": 60, "e": 40, "w": 40}
    strong = earned_ratings(RatedBoard(("N", "S"), ("E", "W"), 1.0), ratings)
    weak = earned_ratings(RatedBoard(("N", "S"), ("e", "w"), 1.0), ratings)
    assert strong["N"] > weak["N"]


def test_weaker_pair_can_win_more_than_it_can_lose() -> None:
    """Assumption 11: swings favour the weaker pair."""
    ratings = {"N": 40, "S": 40, "E": 60, "W": 60}
    top = earned_ratings(RatedBoard(("N", "S"), ("E", "W"), 1.0), ratings)["N"] - 40
    bottom = 40 - earned_ratings(RatedBoard(("N", "S"), ("E", "W"), 0.0), ratings)["N"]
    assert top > bottom


def test_update_is_recursive_and_needs_no_reanalysis() -> None:
    """Assumption 7: one pass; the state alone carries everything the next period needs."""
    p1 = [RatedBoard(("A", "B"), ("C", "D"), 0.7), RatedBoard(("A", "C"), ("B", "D"), 0.4)]
    p2 = [RatedBoard(("A", "D"), ("B", "C"), 0.55), RatedBoard(("A", "B"), ("C", "D"), 0.3)]
    p3 = [RatedBoard(("B", "D"), ("A", "C"), 0.62)]
    all_at_once, _ = rate_periods([("1", p1), ("2", p2), ("3", p3)])
    mid, _ = rate_periods([("1", p1), ("2", p2)])
    # Only the numbers of the state survive; period 1 and 2 boards are not passed again.
    saved = {p: PlayerState(**asdict(s)) for p, s in mid.items()}
    resumed, _ = rate_periods([("3", p3)], states=saved, first_index=2)
    for p in "ABCD":
        assert asdict(resumed[p]) == pytest.approx(asdict(all_at_once[p]))


def test_latest_period_weighs_more() -> None:
    """Assumption 6: after a good period then a bad one, the rating sits nearer the bad one."""
    params = LehmanParams(start_weight=0.0, history_weight=0.5, max_weight=None)
    opp = {"C": PlayerState(50, 1e9, 0, 0), "D": PlayerState(50, 1e9, 0, 0)}
    good = [RatedBoard(("A", "B"), ("C", "D"), 0.7)] * 10
    bad = [RatedBoard(("A", "B"), ("C", "D"), 0.3)] * 10
    # Hold the opponents fixed at 50 by their huge backlog; A and B start at 50.
    after, _ = rate_periods([("1", good), ("2", bad)], params, states=opp)
    assert after["A"].rating < 50.0
    # without the discount both periods count alike and the good one (earned 70) dominates
    flat = LehmanParams(start_weight=0.0, history_weight=1.0, max_weight=None)
    even, _ = rate_periods([("1", good), ("2", bad)], flat, states=opp)
    assert even["A"].rating > 50.0


def test_new_and_returning_players_move_faster() -> None:
    params = LehmanParams()
    board = [RatedBoard(("A", "B"), ("C", "D"), 0.7)] * 5
    veteran = {p: PlayerState(50, 500, 500, 0) for p in "ABCD"}
    after = update_period(veteran, board, 1, params)
    new = update_period({}, board, 1, params)
    away = update_period(veteran, board, 30, params)  # back after 29 periods away
    moved = {k: s["A"].rating - 50 for k, s in (("veteran", after), ("new", new), ("away", away))}
    assert moved["new"] > moved["away"] > moved["veteran"] > 0


def test_reliability_figures() -> None:
    boards = [RatedBoard(("A", "B"), ("C", "D"), x) for x in (0.2, 0.8, 0.5, 0.6, 0.4, 0.7)]
    after, history = rate_periods([("1", boards)])
    a = after["A"]
    assert a.boards == 6 and a.effective_boards == pytest.approx(6)
    earned = [50 * x / 0.5 for x in (0.2, 0.8, 0.5, 0.6, 0.4, 0.7)]  # ratings all 50 at the start
    mean = sum(earned) / 6
    sd = math.sqrt(sum((e - mean) ** 2 for e in earned) / 5)
    assert a.std_error == pytest.approx(sd / math.sqrt(6))
    assert {r["player"] for r in history} == set("ABCD")
    # discounted old boards count less: effective boards drop below the boards played
    later, _ = rate_periods([("2", boards)], states=after, first_index=5)
    assert later["A"].boards == 12 and later["A"].effective_boards < 12


def test_imp_scale_is_symmetric_and_bounded() -> None:
    p = LehmanParams(imp_top=12)
    assert imp_share(0, p) == 0.5 and imp_share(6, p) == 0.75 and imp_share(-6, p) == 0.25
    assert imp_share(30, p) == 1.0 and imp_share(-30, p) == 0.0


def _valet(name: str):
    loaded = read_valet_dir(VALET / name)
    assert not loaded.errors
    return score_field(loaded.boards)


@pytest.mark.parametrize("dataset", ["2013-world-men", "2013-world-women"])
def test_bermuda_bowl_ratings_over_the_rounds(dataset: str) -> None:
    scores = _valet(dataset)
    for scale in ("mp", "imps"):
        periods = boards_by_period(scores, scale)
        assert [p for p, _ in periods] == [f"{r:02d}" for r in range(1, 22)]
        final, history = rate_periods(periods)
        assert {r["period"] for r in history} == {p for p, _ in periods}
        assert len(final) >= 120
        ratings = [s.rating for s in final.values()]
        # The field's rating mass is conserved board by board; only the prior pulls towards 50.
        assert 45 < sum(ratings) / len(ratings) < 55
        assert max(ratings) - min(ratings) > 5
        regulars = [s for s in final.values() if s.boards >= 100]
        assert regulars and all(0 < s.std_error < 10 for s in regulars)


@pytest.mark.flow
def test_ratings_flow_over_the_db_boards_table(tmp_path: Path) -> None:
    """The Prefect flow `ratings` over a DuckDB store holding the men's 2013 boards (plus bad rows)."""
    import os

    import polars as pl

    from store.store import open_connection as connect

    os.environ.setdefault("DO_NOT_TRACK", "1")
    d = VALET / "2013-world-men"
    names, _ = parse_names((d / "names.txt").read_text())
    scores, _ = parse_scores((d / "scores.txt").read_text(), "scores.txt")
    hands = {}
    for f in (d / "hands").glob("round*.pbn"):
        for h in parse_hands(f.read_text(), round_of_hands_file(f.name) or 0, f.name)[0]:
            hands[(h.round, h.board)] = h
    rows = []
    for s in scores:
        if s.round > 3:  # three rounds keep the flow test short
            continue
        hand = hands[(s.round, s.board)]
        n, e, so, w = (names[i] for i in s.player_ids)
        rows.append({
            "record_id": f"men:{s.line}", "deal_id": hand.deal.deal_id, "partition_id": 0,
            "event": f"BB2013 R{s.round:02d}", "year": 2013, "board_no": str(s.board),
            "northname": n, "eastname": e, "southname": so, "westname": w,
            "ns_vulnerable": hand.ns_vulnerable, "ew_vulnerable": hand.ew_vulnerable,
            "deal": hand.deal.to_pbn(), "contract": s.contract if s.contract != "P" else "P",
            "declarer": s.declarer if s.contract != "P" else None, "result": int(s.tricks),
        })  # fmt: skip
    good = len(rows)
    bad = [dict(rows[0], record_id="bad:contract", contract="8S"),
           dict(rows[1], record_id="bad:result", result=None),
           dict(rows[2], record_id="bad:duplicate")]  # fmt: skip
    frame = pl.DataFrame(rows + bad)
    db = tmp_path / "store.duckdb"
    con = connect(db)
    con.register("frame", frame)
    con.execute(f"insert into boards ({', '.join(frame.columns)}) select * from frame")
    con.close()

    from flows.field_measures import field_measures

    out = tmp_path / "out"
    summary = field_measures(db_path=str(db), out_dir=str(out), min_boards=10)
    assert summary["split"]["max_residual"] < 1e-9
    assert summary["score"]["tables"] == good
    assert summary["lehman"]["periods"] == 3
    errors = (out / "errors.csv").read_text()
    assert "bad:contract" in errors and "impossible contract '8S'" in errors
    assert "bad:result" in errors and "missing result" in errors
    assert "bad:duplicate" in errors and "duplicate table" in errors
    header = (out / "ratings.csv").read_text().splitlines()[0]
    assert header.startswith("player,rating,boards,std_error,period")
    assert (
        (out / "players.csv").read_text().startswith("players,boards,butler,bid,play,defence,luck")
    )
    report = (out / "split_report.md").read_text()
    assert report.count("## Top 20") == 10

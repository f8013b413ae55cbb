"""Scoring on the event model: worked examples derived by hand, and the rules they exercise.

The two events below are the one place where invented data is right: each is a worked example
whose every expected number is derived by hand in the docstring, independently of the code.
"""

from __future__ import annotations

import pytest

from ddrank.scoring.arithmetic.boards import score_mp_board
from ddrank.scoring.arithmetic.teams import wbf_vp
from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    infer_movement,
    pair_rankings,
    parse_adjusted,
    score_event,
    score_teams_event,
)

PLAYERS = {
    "1": "Ann - Bob", "2": "Cat - Dan", "3": "Eve - Fay",
    "4": "Gus - Hal", "5": "Ivy - Jon", "6": "Kim - Lou",
}  # fmt: skip


def howell(
    session: str, board: str, deal: str, ns: str, ew: str, score: int, k: int
) -> EventResult:
    return EventResult(
        record_id=f"{session}-{board}-{ns}", event="Two-session pairs", session=session,
        board=board, played=deal, ns_pair=ns, ew_pair=ew, ns_players=PLAYERS[ns],
        ew_players=PLAYERS[ew], ns_score=score, order=k,
    )  # fmt: skip


def two_session_event() -> list[EventResult]:
    rows = [
        # session 1: boards 1 and 2; session 2 plays other deals under the same numbers
        ("1", "1", "s1b1", "1", "2", 420), ("1", "1", "s1b1", "3", "4", 450),
        ("1", "1", "s1b1", "5", "6", -50),
        ("1", "2", "s1b2", "2", "3", 100), ("1", "2", "s1b2", "4", "5", 100),
        ("1", "2", "s1b2", "6", "1", 200),
        ("2", "1", "s2b1", "1", "6", 600), ("2", "1", "s2b1", "2", "5", 600),
        ("2", "1", "s2b1", "3", "4", 170),
        ("2", "2", "s2b2", "4", "1", -100), ("2", "2", "s2b2", "6", "3", -200),
        ("2", "2", "s2b2", "5", "2", -100),
    ]  # fmt: skip
    return [howell(*r, k=k) for k, r in enumerate(rows)]


def test_two_session_howell_by_hand() -> None:
    """Six pairs, a Howell, two sessions of two boards, three tables; EBU top 2 per result beaten.

    N = 3 results per board, so the board's top is 2 * (3 - 1) = 4 and a session's top is 8.

    Session 1, board 1: NS 420 (1v2), 450 (3v4), -50 (5v6). 450 beats both: 4; 420 beats -50: 2;
    -50: 0. East-West get 4 - NS: pair 2: 2, pair 4: 0, pair 6: 4.
    Board 2: NS 100 (2v3), 100 (4v5), 200 (6v1). 200: 4; each 100 ties the other: 1.
    EW: pair 3: 3, pair 5: 3, pair 1: 0.
    Session 1 totals of 8: P1 2+0 = 2 (25%), P2 2+1 = 3 (37.5%), P3 4+3 = 7 (87.5%),
    P4 0+1 = 1 (12.5%), P5 0+3 = 3 (37.5%), P6 4+4 = 8 (100%).
    Places: P6 1, P3 2, P2 and P5 3= (both 3), P1 5, P4 6.

    Session 2 has other deals under board numbers 1 and 2; they must not meet session 1's.
    Board 1: NS 600 (1v6), 600 (2v5), 170 (3v4): 600s beat 170 and tie: 3 each; 170: 0.
    EW: P6 1, P5 1, P4 4. Board 2: NS -100 (4v1), -200 (6v3), -100 (5v2): -100s: 3; -200: 0.
    EW: P1 1, P3 4, P2 1.
    Session 2 totals: P1 3+1 = 4 (50%), P2 3+1 = 4 (50%), P3 0+4 = 4 (50%), P4 4+3 = 7 (87.5%),
    P5 1+3 = 4 (50%), P6 1+0 = 1 (12.5%).

    Event (top 16): P1 6 (37.5%), P2 7 (43.75%), P3 11 (68.75%), P4 8 (50%), P5 7 (43.75%),
    P6 9 (56.25%). Places: P3 1, P6 2, P4 3, P2 and P5 4=, P1 6.
    """
    results = two_session_event()
    assert infer_movement(results) == "howell"
    scores = score_event(results, EventInfo("Two-session pairs", scoring="MP"))
    ns_mp = {s.result.record_id: s.ns_mp for s in scores.results}
    assert ns_mp == {
        "1-1-1": 2, "1-1-3": 4, "1-1-5": 0, "1-2-2": 1, "1-2-4": 1, "1-2-6": 4,
        "2-1-1": 3, "2-1-2": 3, "2-1-3": 0, "2-2-4": 3, "2-2-6": 0, "2-2-5": 3,
    }  # fmt: skip
    lines = {(x.session, x.pair): x for x in scores.rankings}
    assert all(x.direction == "" for x in scores.rankings)  # a Howell has one ranking
    s1 = {p: (lines[("1", p)].mp, lines[("1", p)].pct, lines[("1", p)].rank) for p in PLAYERS}
    assert s1 == {"1": (2, 25.0, 5), "2": (3, 37.5, 3), "3": (7, 87.5, 2),
                  "4": (1, 12.5, 6), "5": (3, 37.5, 3), "6": (8, 100.0, 1)}  # fmt: skip
    s2 = {p: (lines[("2", p)].mp, lines[("2", p)].pct) for p in PLAYERS}
    assert s2 == {"1": (4, 50.0), "2": (4, 50.0), "3": (4, 50.0), "4": (7, 87.5),
                  "5": (4, 50.0), "6": (1, 12.5)}  # fmt: skip
    total = {x.players: (x.mp, x.pct, x.rank) for x in scores.rankings if x.session == ""}
    assert total == {
        PLAYERS["1"]: (6, 37.5, 6), PLAYERS["2"]: (7, 43.75, 4), PLAYERS["3"]: (11, 68.75, 1),
        PLAYERS["4"]: (8, 50.0, 3), PLAYERS["5"]: (7, 43.75, 4), PLAYERS["6"]: (9, 56.25, 2),
    }  # fmt: skip


def mitchell(section: str, board: str, ns: str, ew: str, score: int | None, k: int,
             adjusted: tuple[float, float] | None = None) -> EventResult:  # fmt: skip
    return EventResult(
        record_id=f"{section}{ns}-{board}", event="Three-section Mitchell", session="1",
        section=section, board=board, played=f"b{board}", ns_pair=ns, ew_pair=ew,
        ns_players=f"{section}NS{ns}", ew_players=f"{section}EW{ew}", ns_score=score,
        adjusted=adjusted, order=k,
    )  # fmt: skip


def three_section_mitchell() -> list[EventResult]:
    rows = [
        ("A", "1", "1", "1", 420), ("A", "1", "2", "2", 450),
        ("B", "1", "1", "1", 420), ("B", "1", "2", "2", -50),
        ("C", "1", "2", "2", 400),
        ("A", "2", "1", "1", 140), ("A", "2", "2", "2", 110),
        ("B", "2", "1", "1", 140), ("B", "2", "2", "2", -100),
        ("C", "2", "1", "1", 170),  # C NS2 v EW2 did not play board 2
    ]  # fmt: skip
    out = [mitchell(*r, k=k) for k, r in enumerate(rows)]
    out.append(mitchell("C", "1", "1", "1", None, 99, adjusted=(60.0, 40.0)))  # A+ / A-
    return out


def test_three_section_mitchell_across_the_field_by_hand() -> None:
    """Three sections of two tables, scored across the field, ACBL top 1 per result beaten.

    The field is all six tables (N = 6), so a board's top is 1 * (6 - 1) = 5.

    Board 1: C NS1 v EW1 got an adjusted score A+/A- (60%/40%): NS 0.6 * 5 = 3.0, EW 2.0.
    The other five NS scores 450, 420, 420, 400, -50 are matchpointed among themselves (2 per
    result beaten): 450: 8; each 420 beats 400 and -50 and ties once: 5; 400: 2; -50: 0.
    Neuberg lifts a group of n = 5 to N = 6: (MP + 1) * 6 / 5 - 1 gives 9.8, 6.2, 6.2, 2.6, 0.2,
    halved to the top-1 scale: 450 4.9, 420 3.1, 420 3.1, 400 1.3, -50 0.1 (98, 62, 62, 26, 2%).
    EW get 5 - NS: 0.1, 1.9, 1.9, 3.7, 4.9.

    Board 2 was played only five times (C NS2 v EW2 did not play it): 170, 140, 140, 110, -100
    have the same order as board 1's five scores, so the same lifted matchpoints: 170 4.9,
    140 3.1, 140 3.1, 110 1.3, -100 0.1.

    Pair totals (a pair's top is 5 per board it played):
    NS: A1 3.1 + 3.1 = 6.2 (62%), A2 4.9 + 1.3 = 6.2 (62%), B1 3.1 + 3.1 = 6.2 (62%),
    B2 0.1 + 0.1 = 0.2 (2%), C1 3.0 + 4.9 = 7.9 (79%), C2 1.3 of 5 (26%, one board).
    EW: A1 1.9 + 1.9 = 3.8 (38%), A2 0.1 + 3.7 = 3.8 (38%), B1 3.8 (38%), B2 4.9 + 4.9 = 9.8 (98%),
    C1 2.0 + 0.1 = 2.1 (21%), C2 3.7 of 5 (74%).
    One ranking per direction across the field: NS C1 1, A1/A2/B1 2=, C2 5, B2 6;
    EW B2 1, C2 2, A1/A2/B1 3=, C1 6.
    """
    results = three_section_mitchell()
    assert infer_movement(r for r in results if r.section == "A") == "mitchell"  # NS1 meets EW1
    info = EventInfo("Three-section Mitchell", scoring="MP", across_field=True, mp_top=1.0)
    scores = score_event(results, info)
    got = {s.result.record_id: (s.ns_mp, s.ew_mp, s.ns_pct) for s in scores.results}
    expected = {
        "A1-1": (3.1, 1.9, 62), "A2-1": (4.9, 0.1, 98), "B1-1": (3.1, 1.9, 62),
        "B2-1": (0.1, 4.9, 2), "C2-1": (1.3, 3.7, 26), "C1-1": (3.0, 2.0, 60),
        "A1-2": (3.1, 1.9, 62), "A2-2": (1.3, 3.7, 26), "B1-2": (3.1, 1.9, 62),
        "B2-2": (0.1, 4.9, 2), "C1-2": (4.9, 0.1, 98),
    }  # fmt: skip
    assert got.keys() == expected.keys()
    for k, v in expected.items():
        assert got[k] == pytest.approx(v), k
    ranks = {(x.direction, x.pair): (round(x.pct, 6), x.rank, x.boards) for x in scores.rankings}
    assert ranks == {
        ("NS", "A1"): (62, 2, 2), ("NS", "A2"): (62, 2, 2), ("NS", "B1"): (62, 2, 2),
        ("NS", "B2"): (2, 6, 2), ("NS", "C1"): (79, 1, 2), ("NS", "C2"): (26, 5, 1),
        ("EW", "A1"): (38, 3, 2), ("EW", "A2"): (38, 3, 2), ("EW", "B1"): (38, 3, 2),
        ("EW", "B2"): (98, 1, 2), ("EW", "C1"): (21, 6, 2), ("EW", "C2"): (74, 2, 1),
    }  # fmt: skip


def test_sections_are_separate_fields_unless_across() -> None:
    """Without across-the-field scoring, section A's two tables are their own field (top 1)."""
    results = [r for r in three_section_mitchell() if r.section == "A"]
    scores = score_event(results, EventInfo("x", scoring="MP", mp_top=1.0))
    assert {s.result.record_id: s.ns_mp for s in scores.results} == {
        "A1-1": 0.0,
        "A2-1": 1.0,
        "A1-2": 1.0,
        "A2-2": 0.0,
    }


def test_fouled_board_by_dealer_or_vulnerability() -> None:
    """Same cards with another dealer is another board: two groups, each lifted to N = 4."""
    rs = [
        EventResult("a", "e", "1", played="cards|N|None", ns_score=420, order=0),
        EventResult("b", "e", "1", played="cards|N|None", ns_score=400, order=1),
        EventResult("c", "e", "1", played="cards|E|None", ns_score=-50, order=2),
        EventResult("d", "e", "1", played="cards|E|None", ns_score=-100, order=3),
    ]
    mp = [s.ns_mp for s in score_mp_board(rs)]
    # groups of 2: MPs 2 and 0 -> Neuberg (MP + 1) * 4/2 - 1 = 5 and 1, on the top of 6
    assert mp == [5, 1, 5, 1]


def test_phantom_table_is_not_a_result() -> None:
    """A sit-out table scores nothing and leaves the board played fewer times (lifted)."""
    rs = [
        EventResult("a", "e", "1", ns_score=420, ns_pair="1", ew_pair="1", order=0),
        EventResult("b", "e", "1", ns_score=400, ns_pair="2", ew_pair="2", order=1),
        EventResult("c", "e", "1", ns_score=0, ns_pair="3", ew_pair="3", phantom="EW", order=2),
    ]
    scored = score_mp_board(rs, field_size=3)
    assert [s.result.record_id for s in scored] == ["a", "b"]
    assert [s.ns_mp for s in scored] == [pytest.approx(3.5), pytest.approx(0.5)]  # (2+1)*3/2-1
    lines = pair_rankings(scored, EventInfo("e", movement="mitchell"))
    assert {(x.direction, x.pair) for x in lines} == {("NS", "1"), ("NS", "2"), ("EW", "1"),
                                                      ("EW", "2")}  # fmt: skip


def test_adjusted_codes() -> None:
    assert parse_adjusted("60/40") == (60.0, 40.0)
    assert parse_adjusted("A+/A-") == (60.0, 40.0)
    assert parse_adjusted("A") == (50.0, 50.0)
    assert parse_adjusted("A-") == (40.0, 60.0)
    assert parse_adjusted("50/40") == (50.0, 40.0)


def test_teams_imps_against_the_other_room_and_vps() -> None:
    """Two rooms: 620 NS at the home table, 170 NS at the other: 450 -> 10 IMPs to the home team."""
    rs = [
        EventResult("o", "t", "1", session="1", ns_score=620, home_team="H", visit_team="V",
                    room="Open", played="d", order=0),
        EventResult("c", "t", "1", session="1", ns_score=170, home_team="H", visit_team="V",
                    room="Closed", played="d", order=1),
    ]  # fmt: skip
    scored, matches = score_teams_event(rs)
    assert [s.imps for s in scored] == [10, -10]
    home = next(m for m in matches if m.team == "H")
    assert (home.imps_for, home.imps_against, home.boards) == (10, 0, 1)
    assert home.vp == wbf_vp(10, 1)


def test_wbf_vp_scale_shape() -> None:
    """The WBF continuous scale: 10-10 draw, VPs sum to 20, blitz at 15 sqrt(N), concave."""
    assert wbf_vp(0, 16) == 10.0
    assert wbf_vp(60, 16) == 20.0 and wbf_vp(100, 16) == 20.0  # blitz 15 * 4 = 60
    for m in range(0, 70):
        assert wbf_vp(m, 16) + wbf_vp(-m, 16) == pytest.approx(20.0)
    steps = [wbf_vp(m + 1, 16) - wbf_vp(m, 16) for m in range(59)]
    assert all(a >= b - 0.011 for a, b in zip(steps, steps[1:], strict=False))  # 2-decimal rounding

"""Teams scored as the scorer did: the VP scale a file's published matches define, point-a-board,
and every published value of the EBU's teams samples reproduced (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.scoring.arithmetic.teams import board_points, scale_vp, wbf_vp
from ddrank.scoring.choice.method import PAB_RULE
from ddrank.scoring.verification.published import compare_published
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
SAMPLES = SHARED / "usebio" / "ebu-samples"
SAMPLE_2012 = REPO / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="../shared/data/events is absent; the EBU USEBIO samples may not be bundled "
    "(no licence stated, SOURCES.md)",
)


def scored(path: Path):  # type: ignore[no-untyped-def]
    loaded = load_files([path])
    scores = score_events(loaded)
    checks = {c.what: (c.compared, c.agree) for c in compare_published(scores, loaded.standings)}
    (sc,) = scores.values()
    return sc, checks


@needs_shared
def test_multiple_teams_reproduces_published_match_vps_totals_and_places() -> None:
    sc, checks = scored(SAMPLES / "multiple-teams.usebio.xml")
    assert checks == {"IMPs per line": (240, 240), "place": (10, 10), "team total": (10, 10),
                      "match VPs": (80, 80)}  # fmt: skip
    assert sc.method == "file scale"
    # the file prints whole VPs: a WBF continuous value agrees when it rounds to one (34 do)
    assert sc.method_reason.startswith("the file's scale read from its 40 published matches "
                                       "(3 boards: 0:10 1:11 2:12 3-4:13 5-6:14 7-8:15 9-10:16 "
                                       "11-13:17 14-16:18 19:19 21-34:20) is consistent and "
                                       "reproduces 80 of 80 match VPs, WBF continuous 34")  # fmt: skip
    assert (sc.published_compared, sc.published_agree) == (340, 340)
    top = min(sc.rankings, key=lambda x: x.rank)
    assert (top.pair, top.mp, top.rank) == ("10", 119.0, 1)  # TOTAL_SCORE 119, PLACE 1


@needs_shared
def test_point_a_board_reproduces_board_points_match_scores_and_places() -> None:
    sc, checks = scored(SAMPLES / "point-a-board.usebio.xml")
    # 'IMPs per line' here are the file's NS_CROSS_IMP_POINTS: cross-IMPs of each board's whole
    # field (per comparison), which we reproduce; the teams are scored on board points only
    assert checks == {"board points per line": (336, 336), "IMPs per line": (336, 336),
                      "place": (8, 8), "team total": (8, 8), "match points": (56, 56)}  # fmt: skip
    assert sc.info.scoring == "BAM"
    assert (sc.method, sc.method_reason) == ("point-a-board", PAB_RULE)
    team1 = next(x for x in sc.rankings if x.pair == "1")
    assert (team1.mp, team1.rank) == (35.0, 7)  # TOTAL_SCORE 35, PLACE 7


def test_point_a_board_rule_on_real_boards() -> None:
    """Boards of the EBU point-a-board sample (round 1, team 1 v 8): the net of team 1's two
    tables decides; 47 boards of the file net 0 and score 1-1, 5 net 10 and score 2-0."""
    assert board_points(-590 - 150) == 0.0  # board 1: -590 and 150 the other way: 0-2
    assert board_points(100 - 100) == 1.0  # board 2: both 3NT one off: 1-1
    assert board_points(-620 - -50) == 0.0  # board 3: 0-2
    # any difference wins, even 10 points: round 1, team 2 v 7, board 4: -660 and -650 the other
    # way, team 2 (North-South in the open room) 0, team 7 2; round 5, team 3 v 8, board 25
    assert board_points(-660 - -650) == 0.0 and board_points(-650 - -660) == 2.0
    assert board_points(130 - 140) == 0.0


def test_file_scale_steps_and_wbf_fallback() -> None:
    scale = ((3, 0, 10.0), (3, 2, 12.0), (3, 3, 13.0), (3, 21, 20.0))
    assert scale_vp(scale, 2, 3) == 12.0 and scale_vp(scale, -2, 3) == 8.0
    assert scale_vp(scale, 4, 3) == 13.0  # the step at or below the margin
    assert scale_vp(scale, 30, 3) == 20.0
    assert scale_vp(scale, 5, 8) == wbf_vp(5, 8)  # no step for 8 boards
    assert scale_vp((), 7, 3) == wbf_vp(7, 3)


def test_teams_without_published_match_vps_stay_on_wbf_continuous() -> None:
    """The 2012 sample publishes no match VPs: its round robin (the World Championship's
    qualifying) is on WBF continuous; its knockouts are matches without VPs
    (tests/test_knockouts.py)."""
    loaded = load_files([SAMPLE_2012])
    scores = score_events(loaded)
    teams = [sc for sc in scores.values() if sc.info.scoring == "TEAMS" and sc.method != "knockout"]
    assert teams
    for sc in teams:
        assert sc.method == "wbf continuous"
        assert sc.method_reason == "WBF continuous 20-VP scale: the source published no match VPs"
        assert sc.info.vp_scale == ()
        assert all(m.vp == wbf_vp(m.imps_for - m.imps_against, m.boards) for m in sc.matches
                   if m.vp is not None)  # fmt: skip
        assert any(m.vp is not None for m in sc.matches)

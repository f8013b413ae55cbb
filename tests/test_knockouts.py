"""Teams events as matches: knockouts are shown as matches won on IMPs, never a VP round robin,
on the real files the product bundles (the 2012 world-class PBN's Spingold, U.S. Championship,
Vanderbilt and World Championship; the USBF semi-final LIN); and a Ruter teams file published as
its matches only is scored from their IMPs on the WBF scale (issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.scoring.arithmetic.knockout import knockout_stages, split_segment
from ddrank.scoring.verification.published import compare_published
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "ddrank" / "data" / "sample"
WORLDCLASS = SAMPLE / "pbn" / "worldclass-2012-example3.pbn"
USBF_LIN = SAMPLE / "lin" / "usbf-2010-sf-14502.lin"
TEAM_PBN = REPO.parent / "shared" / "data" / "events" / "ruter-pbn" / "team.pbn"


def test_a_session_label_is_a_stage_and_a_segment() -> None:
    assert split_segment("QtrF:1") == ("QtrF", 1, None)
    assert split_segment("Segment 4 of 8") == ("", 4, 8)
    assert split_segment("Final:7") == ("Final", 7, None)
    assert split_segment("R16") == ("R16", None, None)
    assert split_segment("") == ("", None, None)


@pytest.fixture(scope="module")
def worldclass():  # type: ignore[no-untyped-def]
    return {ev.split(" (")[0]: sc for ev, sc in score_events(load_files([WORLDCLASS])).items()}


def test_knockout_events_are_matches_not_a_vp_ranking(worldclass) -> None:  # type: ignore[no-untyped-def]
    """Spingold, U.S. Championship and Vanderbilt are knockouts all through ([Stage "R32:1"] ..
    "Final:4": each team meets one opponent per stage, over several segments): no VP ranking,
    each segment's IMPs kept without VPs, one line per team per match."""
    for name in ("Spingold", "U.S. Championship", "Vanderbilt"):
        sc = worldclass[name]
        assert sc.method == "knockout", name
        assert sc.matches and all(m.vp is None for m in sc.matches), name
        assert {x.kind for x in sc.rankings} == {"knockout"}, name
        by_match: dict[tuple[str, str], list] = {}
        for x in sc.rankings:
            by_match.setdefault((x.session, x.section), []).append(x)
        assert all(len(v) == 2 for v in by_match.values()), name
    final = [x for x in worldclass["Spingold"].rankings if x.section == "Final: Monaco v Nickell"]
    # the four segments' IMPs, as the boards of both rooms give them
    segments = [m for m in worldclass["Spingold"].matches if m.session.startswith("Final:")]
    assert {m.session for m in segments} == {"Final:1", "Final:2", "Final:3", "Final:4"}
    monaco = sum(m.imps_for for m in segments if m.team == "Monaco")
    nickell = sum(m.imps_for for m in segments if m.team == "Nickell")
    assert [(x.pair, x.mp, x.rank) for x in final] == [
        ("Monaco", monaco, 1),
        ("Nickell", nickell, 2),
    ]
    assert monaco > nickell


def test_a_round_robin_stage_keeps_its_vps_beside_the_knockout_matches(worldclass) -> None:  # type: ignore[no-untyped-def]
    """The World Championship's qualifying round robin ("Qual:1" ..: each team meets many
    opponents) is ranked on VPs; its play-off, round of 16 .. final stages are matches."""
    sc = worldclass["World Championship"]
    assert knockout_stages(sc.matches) == {(sc.info.event, s) for s in
                                           ("Poff", "R16", "QtrF", "SemiF", "Final")}  # fmt: skip
    robin = [x for x in sc.rankings if not x.kind]
    assert robin and all(x.session in ("", *{m.session for m in sc.matches
                                             if m.session.startswith("Qual")}) for x in robin)  # fmt: skip
    assert all(m.vp is not None for m in sc.matches if m.session.startswith("Qual:"))
    assert all(m.vp is None for m in sc.matches if not m.session.startswith("Qual:"))
    assert any(x.section == "Final: Poland v Sweden" for x in sc.rankings)


def test_the_2021_round_robin_round_stays_on_vps() -> None:
    """One round of a round robin (each team one opponent, one segment) is no knockout."""
    (sc,) = score_events(
        load_files([SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn"])
    ).values()
    assert sc.method == "wbf continuous"
    assert not any(x.kind for x in sc.rankings) and all(m.vp is not None for m in sc.matches)


def test_the_lin_declares_its_segment_and_is_a_knockout_match(tmp_path: Path) -> None:
    """BBO's `vg|2010 USBF SF A,Segment 4 of 8,I,..,Nickell,..,Fleisher,..`: a match in 8
    segments, of which the file holds one, through the store as `ddrank run` scores it."""
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from stages.scoring import load_store
    from store import Store

    with Store(str(tmp_path / "store.duckdb")) as store:
        ingest_paths(store, [USBF_LIN])
        clean_pending(store, 1)
        (sc,) = score_events(load_store(store)).values()
    assert sc.method == "knockout"
    assert [(m.session, m.team, m.vp) for m in sorted(sc.matches, key=lambda m: m.team)] == [
        ("Segment 4 of 8", "Fleisher", None),
        ("Segment 4 of 8", "Nickell", None),
    ]
    lines = [(x.section, x.pair, x.mp, x.rank) for x in sc.rankings]
    assert lines == [("Fleisher v Nickell (1 of 8 segments)", "Fleisher", 41.0, 1),
                     ("Fleisher v Nickell (1 of 8 segments)", "Nickell", 30.0, 2)]  # fmt: skip


@pytest.mark.skipif(not TEAM_PBN.is_file(), reason="../shared/data/events is absent; Ruter's "
                    "team.pbn may not be bundled (no licence stated, SOURCES.md)")  # fmt: skip
def test_ruter_teams_match_list_scores_its_published_vps_totals_and_places() -> None:
    """Ruter's teams file holds no board, only each round's matches ("200,25,8": 25 to 8 IMPs,
    15.75 to 4.25 VPs) and the VP ranking. The board count is read off the published VPs (8
    boards a match reproduces all 60), then every match's VPs, total and place agree."""
    loaded = load_files([TEAM_PBN])
    scores = score_events(loaded)
    (sc,) = scores.values()
    checks = {c.what: (c.compared, c.agree) for c in compare_published(scores, loaded.standings)}
    assert checks == {"match VPs": (60, 60), "team total": (10, 10), "place": (10, 10)}
    assert not loaded.errors and not loaded.results
    assert sc.method_reason.startswith("WBF continuous 20-VP scale over 8 boards a match")
    first = min(sc.rankings, key=lambda x: (x.session != "", x.rank))
    assert (first.pair, first.players, round(first.mp, 2)) == ("5", "URI", 75.23)
    m = next(m for m in sc.matches if (m.session, m.team) == ("1", "1"))
    assert (m.opponent, m.imps_for, m.imps_against, m.vp) == ("2", 25.0, 8.0, 15.75)

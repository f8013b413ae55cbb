"""A director's results, as the scorer published them (issue 22).

With default options every real event file that carries published values reproduces them, read
straight from the file (`ddrank score FILE`) and through the store the pipeline uses (`ddrank
run`, `ddrank results`: ingest → clean → the scoring stage); the ACBL Bridgemate games score 1 per
result beaten; club players keep their names; files of different events stay apart.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ddrank.scoring.verification.published import compare_published
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="../shared/data/events is absent; these files may not be bundled: no licence allows it "
    "(SOURCES.md)",
)
WELWYN = SHARED / "usebio" / "welwyn-2025-04-09.usebio.xml"
REALBRIDGE = SHARED / "usebio" / "realbridge-club-2025-04-07.usebio.xml"
BRIDGEMATE = [SHARED / "bridgemate-acbl" / "LBC-2026-01-26.bws",
              SHARED / "bridgemate-acbl" / "club-2026-01-19.bws"]  # fmt: skip
EBU = SHARED / "usebio" / "ebu-samples"
RANKINGS_CSV = REPO / "ddrank" / "data" / "rankings" / "wbf-open-rankings.csv"

#: Every file with published values, and what it publishes: (compared, agree) per kind.
PUBLISHED = {
    "welwyn": (WELWYN, {"matchpoints per line": (144, 144), "final percentage": (13, 13),
                        "place": (13, 13)}),
    "realbridge": (REALBRIDGE, {"matchpoints per line": (168, 168),
                                "percentage per line": (168, 168), "final percentage": (16, 16),
                                "place": (16, 16)}),
    # the EBU's USEBIO samples (their scorers' own output)
    "ebu-mp-pairs": (EBU / "mp-pairs.usebio.xml",
                     {"matchpoints per line": (242, 242), "final percentage": (22, 22),
                      "place": (22, 22)}),
    # two sections scored as one field, ranked per direction across them: our pair "A11";
    # EBUScore sums its printed (2-decimal) lines: A2's 40.27% is 219.85 of 546 (exact 40.26),
    # and A5, A15 are published 0.01 above what their printed lines give (explained)
    "ebu-multi-section": (EBU / "public.multi-section-pairs.xml",
                          {"matchpoints per line": (335, 335), "final percentage": (32, 30),
                           "place": (32, 32)}),
    # a Howell whose three sit-out pairs are factored up (x 24/16, the sum rounded to 2 decimals
    # first) and whose stationary pairs are published with a direction; the totals of pairs 16
    # and 17 are not what the file's own lines give (explained, ddrank.scoring.verification.impchecks)
    "ebu-cross-imp": (EBU / "cross-imp-pairs.usebio.xml",
                      {"IMPs per line": (192, 192), "total IMPs": (17, 15), "place": (17, 17)}),
}  # fmt: skip


@needs_shared
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_default_options_reproduce_every_published_value_from_the_file(name: str) -> None:
    path, expected = PUBLISHED[name]
    loaded = load_files([path])
    scores = score_events(loaded)  # the defaults: as the scorer did
    checks = compare_published(scores, loaded.standings, prove=True)
    got = {c.what: (c.compared, c.agree) for c in checks}
    assert got == expected
    assert all(len(c.explained) == c.compared - c.agree and not c.disagree for c in checks)
    (sc,) = scores.values()
    assert (sc.published_compared, sc.published_agree) == (
        sum(v[0] for v in expected.values()),
        sum(v[1] for v in expected.values()),
    )


def _store(tmp_path: Path, paths: list[Path]):
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from store import Store

    store = Store(str(tmp_path / "store.duckdb"))
    store.__enter__()
    ingest_paths(store, paths)
    clean_pending(store, 1)
    return store


@needs_shared
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_default_options_reproduce_every_published_value_through_the_store(
    tmp_path: Path, name: str
) -> None:
    """The pipeline's path (`ddrank run`, `ddrank results`): the store's checks and the method
    kept with the event's scores (scored_events, what the site shows)."""
    from stages.rankings import ranking_summary
    from stages.scoring_stage import score_store

    path, expected = PUBLISHED[name]
    store = _store(tmp_path, [path])
    try:
        summary = score_store(store, str(tmp_path / "out"))
        got = {c["what"]: (c["compared"], c["agree"]) for c in summary["published"]}
        assert got == expected
        (ev,) = ranking_summary(store)
        assert (ev["published_compared"], ev["published_agree"]) == (
            sum(v[0] for v in expected.values()),
            sum(v[1] for v in expected.values()),
        )
        assert {c["what"]: (c["compared"], c["agree"]) for c in ev["checks"]} == expected
        if name == "ebu-cross-imp":
            assert ev["mp_method"] == "cross-imps average"
            assert ev["method_reason"].startswith(
                "cross-IMPs averaged per comparison; a pair's sum "
                "rounded to 2 decimals before it is factored"
            )
        else:
            assert ev["mp_method"] == ("none" if name == "welwyn" else "neuberg")
            assert ev["method_reason"].startswith("reproduces the published values")
    finally:
        store.__exit__(None, None, None)


@needs_shared
def test_welwyn_is_scored_as_brian_does_and_an_option_overrides() -> None:
    loaded = load_files([WELWYN])
    (sc,) = score_events(loaded).values()
    assert sc.method == "none" and sc.info.mp_top == 2.0
    assert "scorer BriAn" in sc.method_reason
    (forced,) = score_events(loaded, "neuberg").values()
    assert forced.method == "neuberg" and forced.method_reason.startswith("as the options say")
    assert forced.published_agree < forced.published_compared  # Neuberg is not what BriAn did


@needs_shared
@pytest.mark.parametrize("path", BRIDGEMATE, ids=lambda p: p.stem)
def test_acbl_bridgemate_games_score_one_per_result_beaten(path: Path) -> None:
    """No published values: the ACBL member numbers say ACBL, whose top is 1 per result beaten
    (a board of 9 results has a top of 8, not 16)."""
    loaded = load_files([path])
    (sc,) = score_events(loaded).values()
    assert sc.info.federation == "ACBL" and sc.info.mp_top == 1.0
    assert "ACBL scores 1 per result beaten" in sc.method_reason
    for s in sc.results:
        assert s.top == s.field_size - 1
        assert s.ns_mp + s.ew_mp == pytest.approx(s.top)
    if path.stem == "LBC-2026-01-26":
        ew = [x for x in sc.rankings if x.direction == "EW" and x.rank == 1]
        assert [(x.pair, round(x.mp, 2), round(x.pct, 2)) for x in ew] == [("2", 141.78, 58.34)]


@needs_shared
def test_club_players_keep_their_names(tmp_path: Path) -> None:
    """Welwyn and both Bridgemate games: the WBF list does not cover them, so nobody is renamed
    ("Jenny Zhou" stays, though the list holds a "J. Zhou"); with `scope="all"` she would be."""
    from ddrank.names import parse_rankings
    from stages.names import match_board_names

    entries = parse_rankings(RANKINGS_CSV.read_text(encoding="utf-8"))
    store = _store(tmp_path, [WELWYN, *BRIDGEMATE])
    try:
        decisions = match_board_names(store, entries)
        assert decisions and not [d for d in decisions if d.matched]
        seats = store.tuples(sql="select raw_name, player, renamed from board_players "
                                 "where coalesce(raw_name, '') <> ''")  # fmt: skip
        assert seats and all(player == raw and not renamed for raw, player, renamed in seats)
        assert ("Jenny Zhou", "Jenny Zhou", False) in seats
        everywhere = match_board_names(store, entries, scope="all")
        assert any(d.matched for d in everywhere if d.raw_name == "Jenny Zhou")
        renamed = store.tuples(sql="select distinct raw_name, player from board_players "
                                   "where renamed")  # fmt: skip
        assert ("Jenny Zhou", "Jenny Zhou") not in renamed and renamed  # flagged where it happens
    finally:
        store.__exit__(None, None, None)


@needs_shared
def test_the_49_lin_files_are_six_events_not_one() -> None:
    """44 hand records of one club session (their folder is dated) are one event; the 5 others,
    in an undated folder, are one event each. None is "(unnamed event)"."""
    from store.inputs.read import read_parsed

    files = sorted((SHARED / "bbo-lin").rglob("*.lin"))
    assert len(files) == 49
    events = Counter((r.event, r.date) for f in files for r in read_parsed(f)[0].records)
    assert events[("skyclub", "2013.08.10")] == 44
    assert len(events) == 6 and all(name for name, _ in events)


def test_a_vugraph_closed_table_repeating_the_open_rooms_names_takes_the_header_eight() -> None:
    from ddrank.parsers.lin import parse_lin

    deal = "4SJ5H9DAT862CQ8752,SKQT94HAK73DQ4C93,S872HQT5DJ97CAT64,SA63HJ8642DK53CKJ"
    text = ("vg|Test Teams,Final,I,1,2,Alpha,0,Beta,0|\nrs|4HE=,4HE=|\n"
            "pn|Anna,Bob,Cara,Dan,Eve,Finn,Gus,Hal|pg||\n"
            f"qx|o1|pn|Anna,Bob,Cara,Dan|md|{deal}|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n"
            f"qx|c1|pn|Anna,Bob,Cara,Dan|md|{deal}|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n")  # fmt: skip
    seats = [(r.room, r.southname, r.westname, r.northname, r.eastname)
             for r in parse_lin(text, "vg.lin")]  # fmt: skip
    assert seats == [
        ("Open", "Anna", "Bob", "Cara", "Dan"),
        ("Closed", "Eve", "Finn", "Gus", "Hal"),
    ]


@needs_shared
def test_score_db_after_ingest_scores_without_a_clean(tmp_path: Path) -> None:
    from stages.ingest import ingest_paths
    from stages.scoring_stage import score_store
    from store import Store

    with Store(str(tmp_path / "s.duckdb")) as store:
        ingest_paths(store, [WELWYN])
        summary = score_store(store, str(tmp_path / "out"))
    assert summary["cleaned_first"] == 144 and summary["results"] == 144

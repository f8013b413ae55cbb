"""Who sits at a table (issue 29): a table is left out as "one player at two seats" only on
evidence, never for a pair label, a seat label or a shared surname; placeholders are not players.

Real files: JFR Pary PBNs (PbnTools writes each seat as its pair label, `Para-11` at North and
South; `N1`/`S1` seat labels), BridgeComposer's Palo Alto sessions (married couples who share a
surname: "Wu-Tsai" against "Fang-Wu"), and the bundled 2021 qualifier (an absent team's seats
named "Dummy 1#" .. "Dummy 4#").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.scoring.intake.identity import seat_identities, side_label, two_seats
from ddrank.scoring.intake.records import results_from_rows
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="../shared/data/events is absent; these files may not be bundled: their licence is "
    "GPL-3.0 or none is stated (SOURCES.md)",
)
JFR = SHARED / "jfr-pbn"
PALO_ALTO = SHARED / "bridgecomposer-pairs"
QUALIFIER = REPO / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"


def _row(names: tuple[str, str, str, str], ids: tuple[str, str, str, str] = ("",) * 4,
         line: int = 1, **kw: str) -> dict[str, object]:  # fmt: skip
    seats = ("north", "east", "south", "west")
    return {"source_file": "club.pbn", "source_line": line, "event": "Club", "board_no": "1",
            "contract": "4S", "declarer": "N", "result": "10", "vulnerable": "None",
            **{f"{s}name": n for s, n in zip(seats, names, strict=True)},
            **{f"{s}_id": i for s, i in zip(seats, ids, strict=True)}, **kw}  # fmt: skip


def test_no_evidence_no_exclusion_labels_surnames_and_a_shared_guest_number() -> None:
    assert two_seats(["Para-11", "Para-16", "Para-11", "Para-16"], [""] * 4) == ""
    assert two_seats(["N1", "E1", "S1", "W1"], [""] * 4) == ""
    assert two_seats(["Wu", "Fang", "Tsai", "Wu"], [""] * 4) == ""  # a surname only
    assert two_seats(["Hirsch", "Rubin", "Hirsch", "Gibson"], [""] * 4) == ""
    # one number, two different people: a guest number, not one player
    assert two_seats(["Ann Lee", "Bob Ray", "Cid Moe", "Dee Fox"], ["9", "", "9", ""]) == ""
    assert two_seats(["Ann Lee", "Bob Ray", "Cid Moe", "Dee Fox"], ["0", "0", "", ""]) == ""
    assert side_label("Para-11", "Para-11") == "Para-11"
    assert side_label("Smith & Jones", "Smith & Jones") == "Smith & Jones"
    assert side_label("Hirsch", "Hirsch") == ""  # two people sharing a surname


def test_evidence_the_same_number_or_full_name_at_two_seats() -> None:
    assert two_seats(["Ann Lee", "", "Cid Moe", "Dee Fox"], ["", "123", "", "123"]) == (
        "player number 123 at East and West"
    )
    assert two_seats(["Ann Lee", "Bob Ray", "ann  lee", "Dee Fox"], [""] * 4) == (
        "Ann Lee at North and South"
    )


def test_a_real_duplicate_is_left_out_with_its_reason_file_and_place() -> None:
    rows = [
        _row(("Ann Lee", "Bob Ray", "Cid Moe", "Dee Fox"), line=10, table_no="1", round="1"),
        _row(
            ("Eve Kim#77", "Fay Orr", "Gus Day", "Eve Kim#77"),
            line=20,
            table_no="2",
            round="1",
            section="A",
        ),  # fmt: skip
        _row(
            ("Wu", "Fang", "Tsai", "Wu"),
            line=30,
            table_no="3",
            round="1",
            ns_pair="4",
            ew_pair="11",
        ),  # fmt: skip
    ]
    kept, errors = results_from_rows(rows)
    assert [r.line for r in kept] == [10, 30]
    (e,) = errors
    assert (e.source, e.line, e.section, e.round, e.table, e.board, e.kind) == (
        "club.pbn",
        20,
        "A",
        "1",
        "2",
        "1",
        "left out",
    )
    assert e.message == "one player at two seats of this table: player number 77 at North and West"
    assert str(e) == ("club.pbn:20: section A, round 1, table 2, board 1: one player at two seats "
                      "of this table: player number 77 at North and West")  # fmt: skip


def test_labels_and_placeholders_are_nobody_and_matching_never_merges_two_seats() -> None:
    assert seat_identities(["Para-11", "Para-16", "Para-11", "Para-16"], [""] * 4) == ("",) * 4
    assert seat_identities(["N1", "E1", "S1", "W1"], [""] * 4) == ("",) * 4
    assert seat_identities(["Dummy 2", "Lanfranco Vecchi", "~~M59370", "Ann Lee"],
                           ["", "40892", "", ""]) == ("", "id:40892", "", "Ann Lee")  # fmt: skip
    # name matching sent two seats to one ranking entry: the seats keep their own names
    assert seat_identities(["J Wu", "Fang", "Tsai", "Jo Wu"], [""] * 4,
                           ["Jane Wu", "", "", "Jane Wu"]) == ("J Wu", "Fang", "Tsai", "Jo Wu")  # fmt: skip


@needs_shared
@pytest.mark.parametrize(("name", "tables", "missing"),
                         [("131108szczyrk.pbn", 1205, 1), ("PCH1003.pbn", 570, 0)])  # fmt: skip
def test_jfr_files_score_every_table(name: str, tables: int, missing: int) -> None:
    """Every table scored. PCH1003's seats are seat labels (`N22`: the traveller's 22nd line, not
    a pair), so its boards 7 and 8 (21 lines where the others have 22) name no meeting missing;
    the Pary file's pair labels do (board 24 of Para-87 v Para-52, `test_jfr.py`)."""
    loaded = load_files([JFR / name])
    assert len(loaded.results) == tables
    assert [e for e in loaded.errors if e.kind == "left out"] == []
    assert len([e for e in loaded.errors if e.kind == "missing"]) == missing
    (sc,) = score_events(loaded).values()
    assert len(sc.results) == tables
    assert not any("Para" in x.players and " - " in x.players for x in sc.rankings)


@needs_shared
@pytest.mark.parametrize(("name", "tables"), [("PABC_2025-12-30_D251230M.pbn", 405),
                                              ("PABC_2025-12-23_D251223M.pbn", 333)])  # fmt: skip
def test_palo_alto_couples_who_share_a_surname_keep_every_table(name: str, tables: int) -> None:
    """63 of 405 results were left out as "seats Wu twice"; Fang-Wu was ranked on 9 boards."""
    loaded = load_files([PALO_ALTO / name])
    assert len(loaded.results) == tables
    assert [e for e in loaded.errors if e.kind == "left out"] == []
    if "1230" in name:
        (sc,) = score_events(loaded).values()
        lines = {(x.section, x.direction, x.pair): x for x in sc.rankings if x.session == ""}
        assert lines[("B", "EW", "11")].players == "Fang - Wu"
        assert lines[("B", "EW", "11")].boards == 21
        assert lines[("B", "NS", "6")].players == "Hirsch - Hirsch"


def test_the_qualifier_placeholders_get_no_player_page(tmp_path: Path) -> None:
    """'Dummy 1#' .. 'Dummy 4#' are no players: no identity, no player page; their opponents
    keep theirs. The unplayed match is listed, not silently dropped."""
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from stages.scoring_stage import score_store
    from stages.site import build_site, read_who
    from store import Store

    db = str(tmp_path / "s.duckdb")
    with Store(db) as store:
        ingest_paths(store, [QUALIFIER])
        clean_pending(store)
        shown = read_who(store)
        summary = score_store(store, str(tmp_path / "score"))
    assert not [name for name in shown.values() if "Dummy" in name]
    assert "Lanfranco Vecchi" in shown.values()  # his opponents were placeholders: he is not
    assert summary["results"] == 279 and summary["errors"] == 20
    build_site(db, tmp_path / "out", fill_par=False)
    players = list((tmp_path / "out" / "site").rglob("players/*.html"))
    assert len(players) > 100
    titles = [p.read_text().split("<title>")[1].split("<")[0] for p in players]
    assert not [t for t in titles if "Dummy" in t]
    assert any("Lanfranco Vecchi" in t for t in titles)


def test_every_passed_out_table_is_scored_and_two_pass_outs_are_0_imps() -> None:
    """The bundled 2012 sample's four teams events: each of its 20 passed-out tables is a scored
    result (0 of 20 dropped, unlike the qualifier's unplayed match: placeholders who recorded no
    call); where both rooms of a match passed a board out (6 boards), that board is 0 IMPs. The
    qualifier's one passed-out table (AUSTRIA v DENMARK board 11, the other room -150) is +4 IMPs,
    as the file publishes."""
    loaded = load_files([REPO / "ddrank" / "data" / "sample" / "pbn" /
                         "worldclass-2012-example3.pbn"])  # fmt: skip
    passed = {r.record_id for r in loaded.results if r.contract == "P"}
    scored = [s for sc in score_events(loaded).values() for s in sc.results]
    assert len(passed) == 20 and len({s.result.record_id for s in scored} & passed) == 20
    rooms: dict[tuple[str, str, str, str], list] = {}
    for s in scored:
        r = s.result
        rooms.setdefault((r.event, r.session, r.section, r.board), []).append(s)
    both = [ss for ss in rooms.values()
            if len(ss) == 2 and all(s.result.record_id in passed for s in ss)]  # fmt: skip
    assert len(both) == 6
    assert all(s.imps == 0 for ss in both for s in ss)
    (sc,) = score_events(load_files([QUALIFIER])).values()
    (out,) = [s for s in sc.results if s.result.contract == "P"]
    assert (out.result.section, out.result.board) == ("AUSTRIA v DENMARK", "11")
    assert out.imps == out.result.published_imps == 4.0

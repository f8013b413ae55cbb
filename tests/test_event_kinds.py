"""Event kinds scored as their scorers did, on real files, against the numbers they published
(issue 29): IMP pairs by cross-IMPs (summed, Ruter; averaged, Compscore) and by Butler with the
scorer's datum (Ruter/Magic Contest, Compscore), and individual events ranking players (Ruter's
per-seat matchpoints; a USEBIO individual, constructed from the same real event).

Teams on VPs and point-a-board are in tests/test_teams_published.py; knockout matches and the
Ruter teams match in tests/test_knockouts.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from usebio_constructed import usebio_individual

from ddrank.parsers.pbn_tables import parse_spec, split_cells
from ddrank.scoring.arithmetic.precision import agrees_printed
from ddrank.scoring.verification.published import compare_published
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
RUTER = SHARED / "ruter-pbn"
COMPSCORE = SHARED / "compscore-usebio"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="../shared/data/events is absent; the Ruter and Compscore files may not be bundled "
    "(no licence stated / GPL repository, SOURCES.md)",
)


def scored(*paths: Path):  # type: ignore[no-untyped-def]
    loaded = load_files(list(paths))
    scores = score_events(loaded)
    checks = compare_published(scores, loaded.standings)
    (sc,) = scores.values()
    return sc, {c.what: (c.compared, c.agree) for c in checks}, loaded


def line(sc, pair: str):  # type: ignore[no-untyped-def]
    return next(x for x in sc.rankings if x.pair.endswith(pair) and x.session == "")


@needs_shared
def test_ruter_butler_datum_lines_sitouts_totals_and_places() -> None:
    """Magic Contest's `[Scoring "IMP;Butler-2;Mean"]`: 3 real tables a board, the datum their
    middle result (never all dropped); a pair sitting out a round gets its average per board
    played (the Bye rows), and its total is factored up to the session's 28 boards."""
    sc, checks, loaded = scored(RUTER / "butler.pbn")
    assert checks == {"IMPs per line": (84, 84), "Butler datum": (28, 28),
                      "sit-out IMPs": (28, 28), "total IMPs": (7, 7), "place": (7, 7)}  # fmt: skip
    assert not loaded.errors  # the games that only carry their tables are no records
    assert sc.info.scoring == "BUTLER" and sc.method == "butler"
    assert sc.method_reason.startswith("Butler: datum the mean after dropping 2 results at each "
                                       "end, rounded to 10")  # fmt: skip
    # board 2: 600, 300, -100 -> datum 300 (published ButlerDatum 300); 600 is +7 IMPs
    b2 = sorted((s.result.ns_score, s.datum, s.imps) for s in sc.results if s.result.board == "2")
    assert b2 == [(-100, 300.0, -9.0), (300, 300.0, 0.0), (600, 300.0, 7.0)]
    # pair 6: 21 IMPs in 24 boards -> 24.5 over 28 (published 24.5, rank 2)
    assert (round(line(sc, "6").mp, 2), line(sc, "6").rank) == (24.5, 2)
    assert agrees_printed(line(sc, "2").mp, "22.2")  # 19 x 28/24 = 22.17


@needs_shared
def test_ruter_cross_imps_are_summed_across_sections() -> None:
    """Ruter's `IMP;Cross`: every result against the other 39 of the board in all three sections,
    summed (not averaged); the one A+/A+ line is 58.5 = 1.5 x 39 comparisons each side."""
    sc, checks, _ = scored(RUTER / "impcross.pbn")
    assert checks == {"IMPs per line": (1680, 1680), "total IMPs": (80, 80), "place": (80, 80)}
    rule = sc.info.imp_rule
    assert (rule.kind, rule.cross, rule.across, rule.adjusted_rate) == ("cross", "sum", True, 0.15)
    a_plus = next(s for s in sc.results if s.result.adjusted is not None)
    assert (a_plus.imps, a_plus.ew_imps) == (58.5, 58.5)
    first = min(sc.rankings, key=lambda x: x.rank)
    assert (first.pair, first.mp, first.players) == (
        "N523",
        2261.0,
        "Aron Thorfinsson - Gumundur Snorrason",
    )


@needs_shared
def test_compscore_butler_datum_is_the_trimmed_mean_rounded_to_ten() -> None:
    """Compscore3 (`BUTLER_PAIRS`): 4 tables, the top and bottom dropped, the mean of the other two
    rounded to 10, halves away from zero: board 2's -460/-430 -> -445 -> -450 (BOARD_AVERAGE)."""
    sc, checks, _ = scored(COMPSCORE / "butler_howell.xml")
    assert checks == {"IMPs per line": (140, 140), "Butler datum": (35, 35), "total IMPs": (8, 8),
                      "place": (8, 8)}  # fmt: skip
    assert {s.datum for s in sc.results if s.result.board == "2"} == {-450.0}
    assert (line(sc, "4").mp, line(sc, "4").rank) == (34.0, 1)  # TOTAL_SCORE 34.00, PLACE 1


@needs_shared
def test_compscore_cross_imps_are_averaged_per_comparison() -> None:
    sc, checks, _ = scored(COMPSCORE / "cross_imp_howell.xml")
    assert checks == {"IMPs per line": (108, 108), "total IMPs": (9, 9), "place": (9, 9)}
    assert sc.method == "cross-imps average"
    assert agrees_printed(line(sc, "2").mp, "30.33") and line(sc, "2").rank == 1


def _seat_mps(path: Path) -> list[tuple[str, tuple[str, ...], dict[str, str]]]:
    """(board, the four players' numbers N E S W, {seat: published MP text}) of every
    ScoreTable row, read from the file's text."""
    out, board, columns = [], "", []
    seats = ("north", "east", "south", "west")
    for raw in path.read_text(encoding="latin-1").splitlines():
        if raw.startswith("[Board "):
            board = raw.split('"')[1]
        if raw.startswith("[ScoreTable "):
            columns = [c.casefold() for c in parse_spec(raw.split('"')[1], 0)[0]]
        elif raw.startswith("[") or not raw.strip():
            columns = []
        elif columns:
            row = dict(zip(columns, split_cells(raw), strict=True))
            out.append((board, tuple(row[f"playerid_{s}"] for s in seats),
                        {s: row[f"mp_{s}"] for s in seats}))  # fmt: skip
    return out


@needs_shared
def test_individual_ranks_players_with_their_per_seat_matchpoints() -> None:
    """Ruter's individual (Competition "Individuals"): 48 players, each seat's published MPs
    (`MP_North` .. `MP_West`, one decimal) agree with the score each player takes from the board,
    and the ranking is of players: their totals, percentages and places as published."""
    path = RUTER / "indi.pbn"
    sc, checks, _ = scored(path)
    assert sc.info.individual
    assert checks["final percentage"] == (48, 48) and checks["place"] == (48, 48)
    assert {x.session for x in sc.rankings} == {""} and len(sc.rankings) == 48
    tables = {(s.result.board, s.result.player_numbers): s for s in sc.results}
    seats = _seat_mps(path)
    assert len(seats) == len(tables) == 744
    agree = sum(
        all(agrees_printed(tables[(board, numbers)].ns_mp if seat in ("north", "south")
                           else tables[(board, numbers)].ew_mp, mp) for seat, mp in mps.items())
        for board, numbers, mps in seats
    )  # fmt: skip
    assert agree == 744
    top = min(sc.rankings, key=lambda x: x.rank)
    assert (top.pair, top.players, round(top.pct, 2), top.boards) == (
        "27",
        "Lars-Göran Niklasson",
        59.9,
        62,
    )
    # each player takes the side's score: North and South the same, East and West the other
    s = tables[("1", ("7", "44", "27", "11"))]
    assert (s.ns_mp, s.ew_mp) == (22.0, 0.0)  # 3NT by West just made, -400: NS's best


@needs_shared
def test_usebio_individual_constructed_from_the_real_event_ranks_players(tmp_path: Path) -> None:
    """CONSTRUCTED file (tests/usebio_constructed.py): indi.pbn's real results and ranking in the
    USEBIO individual structure (PLAYER participants, traveller lines naming the four players by
    seat). It is read as an individual and reproduces the published ranking."""
    path = usebio_individual(RUTER / "indi.pbn", tmp_path / "indi.usebio.xml")
    sc, checks, loaded = scored(path)
    assert not loaded.errors and sc.info.individual
    assert checks["final percentage"] == (48, 48) and checks["place"] == (48, 48)
    assert checks["matchpoints per line"][0] == 744
    top = min(sc.rankings, key=lambda x: x.rank)
    assert (top.pair, top.players, round(top.pct, 2)) == ("27", "Lars-Göran Niklasson", 59.9)
    last = max(sc.rankings, key=lambda x: x.rank)
    assert (last.pair, last.players, round(last.pct, 2)) == ("10", "Kjell Holmgren", 42.41)


@needs_shared
def test_datums_no_rule_reproduces_are_taken_as_published() -> None:
    """CONSTRUCTED from a real file: Compscore's Butler session with every odd board's published
    datum moved by 10 points (and its published IMPs recomputed against it), so no datum rule
    reproduces them. The chooser then scores on the file's own datums, says so, and does not
    count those datums as agreeing."""
    from dataclasses import replace

    from ddrank.scoring.arithmetic.duplicate import imps

    loaded = load_files([COMPSCORE / "butler_howell.xml"])

    def moved(r):  # type: ignore[no-untyped-def]
        if int(r.board) % 2 == 0 or r.ns_score is None:
            return r
        datum = r.published_datum + 10
        return replace(r, published_datum=datum, published_imps=float(imps(r.ns_score - datum)))

    loaded.results = [moved(r) for r in loaded.results]
    scores = score_events(loaded)
    (sc,) = scores.values()
    assert sc.info.imp_rule.datum_published
    assert "no reading of ours reproduces its datums" in sc.method_reason
    checks = {c.what: (c.compared, c.agree) for c in sc.checks}
    assert "Butler datum" not in checks and checks["IMPs per line"] == (140, 140)

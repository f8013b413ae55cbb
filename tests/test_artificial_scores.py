"""Artificial scores and unplayed boards in every notation (issue 29): `A+`/`A-`/`A=`,
`A6040`/`A5050`/`A6060`, `Ave`/`Ave+`/`Ave-`, percentages, `Not Played`, `Late Play`, and `Bye` rows
in either column. The scoring effects are shown on the real Welwyn file (BriAn, USEBIO) with one
line's score replaced, as a director's scoring program would write it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.parsers.adjusted import adjusted_split, not_played, sits_out
from ddrank.scoring.intake.records import result_from_row
from stages.scoring import load_files, score_events

WELWYN = (Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "events" / "usebio"
          / "welwyn-2025-04-09.usebio.xml")  # fmt: skip
needs_welwyn = pytest.mark.skipif(
    not WELWYN.is_file(), reason="../shared/data/events is absent; Welwyn may not be bundled"
)


@pytest.mark.parametrize(("text", "split"), [
    ("A+", "60/40"), ("A-", "40/60"), ("A=", "50/50"), ("A6040", "60/40"), ("A5050", "50/50"),
    ("A6060", "60/60"), ("Ave", "50/50"), ("Ave+", "60/40"), ("Ave-", "40/60"),
    ("AVE=", "50/50"), ("60%", "60/40"), ("60%-40%", "60/40"), ("60/60", "60/60")])  # fmt: skip
def test_every_artificial_notation(text: str, split: str) -> None:
    assert adjusted_split(text) == split


@pytest.mark.parametrize("text", ["Not Played", "NP", "Late Play", "LP", "late-play", "np"])
def test_unplayed_marks(text: str) -> None:
    assert not_played(text) and not adjusted_split(text)


def _row(**cells: str) -> dict[str, str]:
    return {"board_no": "1", "event": "E", "vulnerable": "None", "ns_pair": "3", "ew_pair": "4",
            **cells}  # fmt: skip


@pytest.mark.parametrize("cell", ["contract", "ns_score", "result"])
def test_an_unplayed_line_is_no_result_and_no_error(cell: str) -> None:
    r = result_from_row(_row(**{cell: "Not Played"}))
    assert not isinstance(r, Exception) and not r.is_result and not r.phantom  # type: ignore[union-attr]


@pytest.mark.parametrize(("pairs", "side"), [({"ns_pair": ""}, "NS"), ({"ew_pair": ""}, "EW")])
def test_a_bye_in_either_column_sits_the_side_without_a_number_out(pairs: dict, side: str) -> None:
    assert sits_out("Bye")
    r = result_from_row(_row(ns_score="Bye", **pairs))
    assert r.phantom == side and not r.is_result  # type: ignore[union-attr]


def _welwyn_with(tmp_path: Path, score: str) -> Path:
    """Welwyn with board 1's first line (pair 1 v 8, -50) scored as `score`."""
    text = WELWYN.read_text(encoding="latin-1")
    first = text.index("<SCORE>-50</SCORE>")
    out = tmp_path / "welwyn.usebio.xml"
    out.write_text(text[:first] + f"<SCORE>{score}</SCORE>" + text[first + 18:],
                   encoding="latin-1")  # fmt: skip
    return out


@needs_welwyn
@pytest.mark.parametrize(("score", "ns_pct"), [("A6040", 60.0), ("Ave-", 40.0), ("A5050", 50.0),
                                               ("60%", 60.0)])  # fmt: skip
def test_an_artificial_score_gives_its_percentage(
    tmp_path: Path, score: str, ns_pct: float
) -> None:
    (sc,) = score_events(load_files([_welwyn_with(tmp_path, score)])).values()
    line = next(s for s in sc.results if s.result.board == "1" and s.result.ns_pair == "1")
    assert (line.ns_pct, line.result.adjusted) == (ns_pct, (ns_pct, 100 - ns_pct))


@needs_welwyn
@pytest.mark.parametrize("score", ["NP", "Not Played", "Late Play"])
def test_an_unplayed_board_counts_once_fewer(tmp_path: Path, score: str) -> None:
    """Board 1 then has 5 results, not 6; pairs 1 and 8 play one board fewer (20 of their 21),
    the others as many as before, and nothing is left out."""
    loaded = load_files([_welwyn_with(tmp_path, score)])
    (sc,) = score_events(loaded).values()
    assert not loaded.errors
    board1 = [s for s in sc.results if s.result.board == "1"]
    assert len(board1) == 5 and {s.top for s in board1} == {8.0}  # own top (BriAn): 2 x 4
    boards = {x.pair: x.boards for x in sc.rankings}
    (before,) = score_events(load_files([WELWYN])).values()
    was = {x.pair: x.boards for x in before.rankings}
    assert (boards["1"], boards["8"], was["1"], was["8"]) == (20, 20, 21, 21)
    assert {p: n for p, n in boards.items() if p not in ("1", "8")} == {
        p: n for p, n in was.items() if p not in ("1", "8")}  # fmt: skip

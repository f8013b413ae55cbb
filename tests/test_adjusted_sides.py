"""A ScoreTable's Score_NS and Score_EW each carry their own side's adjusted mark (issue 22).

`A+` in both cells means neither side was at fault: 60% each, not 60/40. The pair totals and
places must include it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.parsers.adjusted import sides_split
from stages.scoring import load_files, score_events

HEADER = """[Event "Adjusted club pairs"]
[Site "Club"]
[Date "2025.05.01"]
[Board "{board}"]
[Dealer "{dealer}"]
[Vulnerable "{vul}"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ 5432.5432.JT9.JT T98.T98.8765.876 76.J76.432.95432"]
[West ""]
[North ""]
[East ""]
[South ""]
[Scoring "MP"]
[Declarer ""]
[Contract ""]
[Result ""]
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\6R;Score_EW\\6R"]
"""


def _cell(text: str) -> str:
    """A percentage is written as a PBN string: '%' outside quotes starts a comment."""
    return f'"{text}"' if "%" in text else text


def _pbn(first_ns: str, first_ew: str) -> str:
    board1 = HEADER.format(board=1, dealer="N", vul="None") + (
        f" 1  1 -    - -  {_cell(first_ns):>6} {_cell(first_ew):>6}\n"
        " 2  2 4S   N 10    420      -\n"
        " 3  3 4S   N  9      -     50\n"
    )
    board2 = HEADER.format(board=2, dealer="E", vul="NS") + (
        " 1  1 3NT  N  9    600      -\n"
        " 2  2 3NT  N  8      -    100\n"
        " 3  3 3NT  N 10    630      -\n"
    )
    return board1 + "\n" + board2


@pytest.mark.parametrize(
    ("ns", "ew", "split"),
    [
        ("A+", "A+", "60/60"),
        ("A+", "A", "60/50"),
        ("A-", "A-", "40/40"),
        ("60%", "50%", "60/50"),
        ("A", "A+", "50/60"),
        ("A+", "", "60/40"),
        ("", "A+", "40/60"),
        ("50%", "", "50/50"),
    ],
)
def test_each_side_reads_its_own_cell(ns: str, ew: str, split: str) -> None:
    assert sides_split(ns, ew) == split


@pytest.mark.parametrize("cells", [("420", ""), ("", "50"), ("60", "40"), ("", "")])
def test_scores_are_not_marks(cells: tuple[str, str]) -> None:
    assert sides_split(*cells) == ""


@pytest.mark.parametrize(
    ("ns", "ew", "ns_pct", "ew_pct"),
    [
        ("A+", "A+", 60.0, 60.0),
        ("A+", "A", 60.0, 50.0),
        ("A-", "A-", 40.0, 40.0),
        ("60%", "50%", 60.0, 50.0),
        ("A", "60%", 50.0, 60.0),
    ],
)
def test_score_table_row_gives_each_side_its_mark_and_the_totals_include_it(
    tmp_path: Path, ns: str, ew: str, ns_pct: float, ew_pct: float
) -> None:
    """Board 1, table 1 is adjusted; 3 results on each board, a top of 4 (2 per result beaten).

    Board 1: NS1 and EW1 get ns_pct and ew_pct of 4; board 2: NS1 +600 beats -100 and loses to
    +630 (2 of 4), EW1 the same. So NS1 = (4 * ns_pct / 100 + 2) / 8 and EW1 likewise."""
    path = tmp_path / "adjusted.pbn"
    path.write_text(_pbn(ns, ew))
    loaded = load_files([path])
    assert not loaded.errors
    (sc,) = score_events(loaded).values()
    (adj,) = [s for s in sc.results if s.result.adjusted is not None]
    assert (adj.ns_pct, adj.ew_pct) == (ns_pct, ew_pct)
    assert (adj.ns_mp, adj.ew_mp) == pytest.approx((4 * ns_pct / 100, 4 * ew_pct / 100))
    lines = {(x.direction, x.pair): x for x in sc.rankings}
    ns1, ew1 = lines[("NS", "1")], lines[("EW", "1")]
    assert ns1.boards == ew1.boards == 2
    assert ns1.pct == pytest.approx(100 * (4 * ns_pct / 100 + 2) / 8)
    assert ew1.pct == pytest.approx(100 * (4 * ew_pct / 100 + 2) / 8)

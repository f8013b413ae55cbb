"""JFR Pary (issue 29): the PBN PbnTools converts from a JFR IMP pairs event, against the pages
JFR itself published for it (`131108szczyrk-pages/`: the travellers `impyNNN.txt` and the ranking
`W-impy.html`, read by `ddrank.parsers.jfr_html`).

The PBN names each seat by its pair label (`North "Para-11"`, `South "Para-11"`): before the
identity rule, every one of its 1,205 tables was left out as "seats Para-11 twice".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from ddrank.parsers.jfr_html import JfrLine, parse_datum, parse_ranking, parse_traveller
from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
JFR = REPO.parent / "shared" / "data" / "events" / "jfr-pbn"
PBN = JFR / "131108szczyrk.pbn"
PAGES = JFR / "131108szczyrk-pages"
pytestmark = pytest.mark.skipif(
    not JFR.is_dir(),
    reason="../shared/data/events/jfr-pbn is absent; these files may not be bundled: their "
    "repository is GPL-3.0 (SOURCES.md)",
)


@pytest.fixture(scope="module")
def published() -> dict[tuple[str, str, str], JfrLine]:
    """(board, NS pair, EW pair) -> the traveller line JFR published."""
    lines = [line for f in sorted(PAGES.glob("impy[0-9][0-9][0-9].txt"))
             for line in parse_traveller(f.read_text(encoding="utf-8"), str(int(f.stem[4:])))]  # fmt: skip
    assert len(lines) == 1260 and Counter(x.board for x in lines) == {
        str(b): 42 for b in range(1, 31)
    }
    return {(x.board, x.ns_pair, x.ew_pair): x for x in lines}


@pytest.fixture(scope="module")
def loaded():  # noqa: ANN201
    return load_files([PBN])


def _number(label: str) -> str:
    """'Para-11' -> '11': the label JFR's pair number is written in."""
    return label.rsplit("-", 1)[-1]


def test_every_table_is_scored_and_is_a_published_line_with_its_score(loaded, published) -> None:  # noqa: ANN001
    assert len(loaded.results) == 1205
    assert [e for e in loaded.errors if e.kind == "left out"] == []
    for r in loaded.results:
        line = published[(r.board, _number(r.ns_pair), _number(r.ew_pair))]
        assert (r.contract, r.declarer, r.ns_score) == (line.contract, line.declarer, line.ns_score)


def test_the_published_lines_the_pbn_lacks_are_director_scores_and_one_is_reported(
    loaded,
    published,  # noqa: ANN001
) -> None:
    """PbnTools drops JFR's 'TD' lines (director's scores). 54 of the 55 are whole meetings that
    left no line at all; the one inside a round the pairs otherwise played (board 24 of NS 87 v
    EW 52, who played board 23) is the one the movement check reports missing."""
    ours = {(r.board, _number(r.ns_pair), _number(r.ew_pair)) for r in loaded.results}
    lacking = [line for key, line in published.items() if key not in ours]
    assert len(lacking) == 55 and {x.contract for x in lacking} == {"TD"}
    (missing,) = [e for e in loaded.errors if e.kind == "missing"]
    assert (missing.board, missing.source) == ("24", str(PBN))
    assert missing.message.startswith("no traveller line of board 24 for NS Para-87 v EW Para-52")
    td = published[("24", "87", "52")]
    assert (td.contract, td.ns_imps) == ("TD", -1.2)


def test_the_ranking_holds_the_published_pairs() -> None:
    """One ranking (pairs change direction: a Howell), the 83 pairs of W-impy.html, by label."""
    ranking = parse_ranking((PAGES / "W-impy.html").read_text(encoding="utf-8"))
    assert len(ranking) == 83
    assert (ranking[0].pair, ranking[0].players, ranking[0].result) == (
        "90", ("Paweł Kaleta", "Rafał Parkitny"), 76.0)  # fmt: skip
    assert (ranking[8].place, ranking[8].pair) == ("8=", "73")  # tied with 62
    (sc,) = score_events(load_files([PBN])).values()
    finals = [x for x in sc.rankings if x.session == ""]
    assert {x.direction for x in finals} == {""}
    assert {_number(x.pair) for x in finals} == {s.pair for s in ranking}


@pytest.fixture(scope="module")
def with_published(loaded, published):  # noqa: ANN001, ANN201
    """The PBN's results with JFR's published per-line IMPs and each board's datum ("średnia
    rozdania", printed on its page) attached, as a reader of both would give them."""
    datums = {str(int(f.stem[4:])): parse_datum(f.read_text(encoding="utf-8"))
              for f in PAGES.glob("impy[0-9][0-9][0-9].txt")}  # fmt: skip
    assert len(datums) == 30 and (datums["1"], datums["6"], datums["17"]) == (50, -80, 0)
    results = [replace(r, published_imps=published[(r.board, _number(r.ns_pair),
                                                     _number(r.ew_pair))].ns_imps,
                       published_datum=datums[r.board]) for r in loaded.results]  # fmt: skip
    (sc,) = score_events(replace(loaded, results=results)).values()
    return sc


def test_published_imps_per_line_agree_on_the_published_datums(with_published) -> None:  # noqa: ANN001
    """No datum rule of ours reproduces JFR's (a trimmed mean, the median, a zero-sum datum: at
    most 28 of 30 boards), so the event is scored on the datums it publishes, and says so; every
    published line's IMPs then agree."""
    sc = with_published
    assert "as the file publishes it" in sc.method_reason, sc.method_reason
    lines = next(c for c in sc.checks if c.what == "IMPs per line")
    assert (lines.compared, lines.agree) == (1205, 1205)


def test_published_totals_agree_or_are_proven_from_the_pages(with_published, published) -> None:  # noqa: ANN001
    """W-impy.html's totals against ours. 23 of the 83 pairs have a total that is the sum of their
    own published lines and no director's score ('TD'): ours equals each. The other 60 are proven
    from JFR's own numbers: 50 totals are not the sum of the pair's own published lines (pair 90:
    its lines sum to 82.0, its total is 76.0: another stage or a penalty these pages do not
    hold), and 10 add a director's score the PBN does not carry (so ours lacks that board)."""
    own = Counter[str]()
    director = set()
    for line in published.values():
        own[line.ns_pair] += line.ns_imps or 0
        own[line.ew_pair] += line.ew_imps or 0
        if line.contract == "TD":
            director |= {line.ns_pair, line.ew_pair}
    ours = {_number(x.pair): x.mp for x in with_published.rankings if x.session == ""}
    kinds = Counter[str]()
    for s in parse_ranking((PAGES / "W-impy.html").read_text(encoding="utf-8")):
        if own[s.pair] != pytest.approx(s.result, abs=0.005):
            kinds["not the sum of its own lines"] += 1
        elif s.pair in director:
            kinds["a director's score the PBN lacks"] += 1
        else:
            assert ours[s.pair] == pytest.approx(s.result, abs=0.005), s.pair
            kinds["agrees"] += 1
    assert own["90"] == pytest.approx(82.0) and ours["90"] != pytest.approx(76.0)
    assert kinds == {"agrees": 23, "not the sum of its own lines": 50,
                     "a director's score the PBN lacks": 10}  # fmt: skip

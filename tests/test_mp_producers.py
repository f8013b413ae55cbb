"""Matchpoint pairs as each producer publishes them, on its own real files (issue 29): the
producer's declared arithmetic (its rulebook, ddrank.scoring.rulebooks), values compared at their printed precision
(ddrank.scoring.arithmetic.precision), and where a file contradicts itself, the proof from its own numbers
(ddrank.scoring.verification.proofs). Every count below is the file's own published values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.scoring.arithmetic.precision import agrees, agrees_printed, column_decimals, decimals
from ddrank.scoring.rulebooks import (
    by_name,
    federation_top,
    own_arithmetic,
    own_methods,
    rulebook_for,
    rulebooks,
)
from stages.scoring import load_files, score_events

EVENTS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "events"
needs_shared = pytest.mark.skipif(
    not EVENTS.is_dir(),
    reason="../shared/data/events is absent; these files may not be bundled (SOURCES.md)",
)


def _scored(path: Path):
    loaded = load_files([path])
    (sc,) = score_events(loaded).values()
    return sc, {c.what: (c.compared, c.agree, len(c.explained), c.disagree) for c in sc.checks}


def test_published_precision() -> None:
    """A value printed with k decimals agrees when ours rounds to it; an integer percentage too;
    at most 7 significant digits are meaningful (BriAn prints float32: 53.846153 for 7/13)."""
    assert decimals("28.3") == 1 and decimals("95") == 0 and decimals("61.13%") == 2
    assert agrees(28.3333, 28.3, 1) and not agrees(28.36, 28.3, 1)
    assert agrees(95.4545, 95.0, 0) and not agrees(95.6, 95.0, 0)
    assert agrees(33.65, 33.6, 1)  # exactly half: scorers round halves either way
    assert agrees_printed(100 * 7 / 13, "53.846153") and agrees_printed(48.5576923, "48.557693")
    assert not agrees_printed(40.2649, "40.27")
    assert column_decimals([40.0, 2.0, 28.3, None]) == 1 and column_decimals([95.0, 5.0]) == 0


def test_producer_rules_are_read_from_what_the_file_declares() -> None:
    """A producer is recognised by the program name its files declare, and its rulebook holds
    its arithmetic, method, top, decimals and ties in one place."""
    assert rulebook_for("Magic Contest France").mp.round_lines  # type: ignore[union-attr]
    assert rulebook_for("Ruter").method == "neuberg"  # type: ignore[union-attr]
    compscore = rulebook_for("Compscore3")
    assert compscore is not None and compscore.mp.own_top_lines and compscore.mp.factor_boards
    assert rulebook_for("BriAn").method == "none"  # type: ignore[union-attr]
    assert rulebook_for("Bridgemate") is None
    acbl = rulebook_for("ACBLscore")
    assert acbl is not None and acbl.method == "acbl" and acbl.top == 1.0
    assert acbl.place_text(4, 2) == "4/5" and by_name("Ruter").place_text(4, 2) == "4="
    assert by_name("no such program").place_text(3, 1) == "3"


def test_each_rulebook_is_one_file_and_no_other_scoring_code_names_a_producer() -> None:
    """Adding a producer is adding one file to ddrank/scoring/rulebooks: each module there is
    one producer's `RULEBOOK`, and outside the rulebooks neither ddrank/scoring nor the stages
    and the command line name a producer, its own method or its federation (the options list
    the rulebooks' methods; the generated cli/run_flags.py holds their values)."""
    import re

    repo = Path(__file__).resolve().parent.parent
    root = repo / "ddrank" / "scoring"
    modules = sorted(p.stem for p in (root / "rulebooks").glob("*.py") if p.stem != "__init__")
    assert len(rulebooks()) == len(modules) >= 6
    words = [d for b in rulebooks() for d in (*b.declares, b.name, b.federation) if d]
    words += list(own_methods())
    named = re.compile("|".join(rf"\b{re.escape(w)}" for w in words), re.IGNORECASE)
    reads = re.compile(r"rulebooks(\.\w+| import \w+)")  # reading a rulebook is allowed
    files = [p for d in (root, repo / "stages", repo / "cli") for p in d.rglob("*.py")
             if "rulebooks" not in p.parts and p.name != "run_flags.py"]  # fmt: skip
    found = [f"{p.relative_to(repo)}:{n}" for p in files
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if named.search(reads.sub("", line))]  # fmt: skip
    assert found == []


def test_a_producers_own_arithmetic_is_reached_through_its_rulebook() -> None:
    """ACBLscore's arithmetic (method `acbl`: each direction on its own scores, totals factored)
    is its rulebook's: the event engine, the choice and the options find it by the method's
    name, and its federation's top (1 per result beaten) by the federation's; a method of the
    board arithmetic has no rulebook."""
    book = own_arithmetic("acbl")
    assert book is not None and book.name == "ACBLscore" and book is rulebook_for("ACBLscore")
    assert book.score_board is not None and book.factor_totals is not None
    assert book.pair_inputs is not None and own_methods() == ("acbl",)
    assert own_arithmetic("neuberg") is None and own_arithmetic("none") is None
    assert federation_top("ACBL") == 1.0 and federation_top("acbl ") == 1.0
    assert federation_top("EBU") is None and federation_top("") is None


@needs_shared
def test_magic_contest_ffb_session_is_matchpoints_and_agrees_on_every_published_value() -> None:
    """FFB DN1 final, session 5: [Scoring "MatchPoints;MP1"], 22 tables, 28 boards. The
    session's total is the sum of the one-decimal board matchpoints (718.9 = 61.13% of 28 x 42);
    `SessionPercentage` and `SessionRank` are this session's, `TotalPercentage` is cumulative over
    144 boards of five sessions; board 1's annotated game is not a 617th result."""
    sc, got = _scored(EVENTS / "magic-contest-pbn" / "ffb-national-pairs-final-session5.pbn")
    assert sc.info.scoring == "MP" and sc.info.scorer == "Magic Contest France"
    assert sc.method == "neuberg" and sc.info.mp_rule.round_lines  # type: ignore[union-attr]
    assert len(sc.results) == 616
    assert {k: v[:3] for k, v in got.items()} == {
        "matchpoints per line": (616, 616, 0), "percentage per line": (616, 616, 0),
        "total matchpoints": (44, 44, 0), "final percentage": (44, 44, 0), "place": (44, 44, 0)}  # fmt: skip
    first = min(sc.rankings, key=lambda x: x.rank)
    assert (first.pair, round(first.mp, 1), round(first.pct, 2)) == ("44", 718.9, 61.13)  # type: ignore[arg-type]


@needs_shared
def test_ruter_championship_session_percentages_are_the_sessions() -> None:
    """Ruter (Finland), SM pairs session 2 of 2: 18 tables, 39 boards, integer board matchpoints,
    the session's percentages and ranks in the `Session*` columns, `Ö-V` for East-West."""
    sc, got = _scored(EVENTS / "ruter-pbn" / "sm2.pbn")
    assert {k: v[:3] for k, v in got.items()} == {
        "matchpoints per line": (702, 702, 0), "percentage per line": (702, 702, 0),
        "total matchpoints": (36, 36, 0), "final percentage": (36, 36, 0), "place": (36, 36, 0)}  # fmt: skip
    top = {x.pair: (round(x.mp, 1), round(x.pct, 2), x.rank) for x in sc.rankings if x.rank == 1}  # type: ignore[arg-type]
    assert top == {"31": (826.0, 62.29, 1)}


@needs_shared
@pytest.mark.parametrize("name, expected", [
    # a missing table's boards printed on their own top, summed by Neuberg, totals factored:
    # pair 1NS played 15 of 17 boards, 58.2 x 17/15 = 65.96, 38.80%
    ("mp_pairs_mitchell_04.xml", {"matchpoints per line": (134, 134, 0),
                                  "total matchpoints": (16, 16, 0),
                                  "final percentage": (16, 16, 0), "place": (16, 16, 0)}),
    ("mp_pairs_howell.xml", {"matchpoints per line": (161, 161, 0),
                             "total matchpoints": (12, 12, 0), "final percentage": (12, 12, 0),
                             "place": (12, 12, 0)}),
    # after two results of board 1 became A5050 and A6040: two lines contradict the file itself
    # (board 3: A5050 printed 23/11, 34 of a top of 40; board 4: -650 given 21 where three
    # other -650s get 19), and the three totals that hold them are exactly those lines' sums
    ("mp_pairs_mitchell_adjusted_02.xml", {"matchpoints per line": (567, 565, 2),
                                           "total matchpoints": (42, 39, 3),
                                           "final percentage": (42, 39, 3),
                                           "place": (42, 42, 0)}),
    # before: board 1 was matchpointed without 1NS, yet the file gives it a played 110, and the
    # totals (whole numbers) are not what the pairs' own lines give
    ("mp_pairs_mitchell_02.xml", {"matchpoints per line": (567, 546, 21),
                                  "total matchpoints": (42, 0, 42),
                                  "final percentage": (42, 1, 41), "place": (42, 37, 5)}),
])  # fmt: skip
def test_compscore_sessions(name: str, expected: dict) -> None:
    sc, got = _scored(EVENTS / "compscore-usebio" / name)
    assert sc.info.scorer == "Compscore3" and sc.method == "neuberg"
    assert {k: v[:3] for k, v in got.items()} == expected
    assert not any(v[3] for v in got.values())  # every value agrees or is proven


@needs_shared
def test_compscore_pair_with_fewer_boards_is_factored() -> None:
    sc, _ = _scored(EVENTS / "compscore-usebio" / "mp_pairs_mitchell_04.xml")
    line = next(x for x in sc.rankings if x.pair == "1NS")
    assert (line.boards, round(line.mp, 2), round(line.pct, 2)) == (15, 65.96, 38.80)  # type: ignore[arg-type]


@needs_shared
def test_ebu_pairs_scorer_sums_its_printed_lines() -> None:
    """EBUScore's PairsScorer: 40.27% for A2 is its printed lines' 219.85 of 546 (exact: 40.26);
    pairs A5 and A15 are published 0.01 above what their own printed lines give."""
    sc, got = _scored(EVENTS / "usebio" / "ebu-samples" / "public.multi-section-pairs.xml")
    assert {k: v[:3] for k, v in got.items()} == {
        "matchpoints per line": (335, 335, 0), "final percentage": (32, 30, 2),
        "place": (32, 32, 0)}  # fmt: skip
    line = next(x for x in sc.rankings if x.pair == "A2")
    assert round(line.mp, 2) == 219.85 and round(line.pct, 2) == 40.27  # type: ignore[arg-type]

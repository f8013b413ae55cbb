"""DD par against the par that real hand-record generators published.

* `online-qualifier-2021-example2.pbn` (RealBridge, 10 deals x 30 tables): our DDS table equals
  the file's `[OptimumResultTable]` and our par equals its `[OptimumScore]` on all 299 records.
* `welwyn-2025-04-09.hands.pbn` (Bridgewebs, 24 deals) publishes a DD table but NO
  `[OptimumScore]`/`[ParContract]`: we check our table against its `[OptimumResultTable]` (par is a
  function of that table, dealer and vulnerability), and check the par function itself on the four
  other real files that publish both score and contract (BridgeComposer, 120 deals), starting from
  the DD table each file prints, so that test needs no solve.

Par convention (docs/methodology.md "Par"): DDS dealer par; NS score sign; sacrifices doubled.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddrank.dd.par import par_from_table, parse_optimum_score
from ddrank.dd.solver import solve_tables
from ddrank.dd.tables import TrickTable
from ddrank.scoring.intake.results import parse_vulnerability
from ddrank.types import Deal, Seat, Strain

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
#: USEBIO and BridgeComposer files: read from ../shared, as their licence allows no copy
WELWYN = SHARED / "events" / "usebio" / "welwyn-2025-04-09.hands.pbn"
PAR_FILES = [
    ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.pbn",  # bundled: Unlicense
    ROOT / "tests" / "data" / "bridgemate" / "club-2026-01-19.pbn",
    SHARED / "events" / "bridgecomposer-pairs" / "PABC_2025-12-23_D251223M.pbn",
    SHARED / "events" / "bridgecomposer-pairs" / "PABC_2025-12-30_D251230M.pbn",
]
_TAG = re.compile(r'^\[(\w+) "([^"]*)"\]')

NOT_BUNDLED = (
    "../shared/data/events is absent; this file may not be bundled: no licence allows "
    "it (SOURCES.md)"
)
needs_shared = pytest.mark.skipif(not WELWYN.is_file(), reason=NOT_BUNDLED)


def read_games(path: Path) -> list[dict]:
    """Tags of each game ('#' = as the previous game) and its OptimumResultTable lines."""
    games: list[dict] = []
    prev: dict = {}
    game: dict | None = None
    section = None
    for line in path.read_text(encoding="latin-1").splitlines() + [""]:
        line = line.strip()
        if not line:
            if game:
                games.append(game)
                prev = game
            game, section = None, None
            continue
        if line.startswith("%"):
            continue
        m = _TAG.match(line)
        if m:
            game = game if game is not None else {"_ort": []}
            name, value = m.group(1), m.group(2)
            game[name] = prev.get(name, "") if value == "#" else value
            section = name
        elif game is not None and section == "OptimumResultTable":
            game["_ort"].append(line)
    return [g for g in games if g.get("Deal")]


def table_from_ort(lines: list[str]) -> TrickTable:
    """The file's `[OptimumResultTable]` (`N NT  7` lines) as a TrickTable."""
    cells = [-1] * 20
    for line in lines:
        seat, strain, tricks = line.split()
        cells[int(Strain.parse("N" if strain == "NT" else strain)) * 4 + int(Seat.parse(seat))] = (
            int(tricks)
        )
    assert -1 not in cells, f"incomplete OptimumResultTable {lines}"
    return TrickTable(tuple(cells))


def par_of(game: dict, table: TrickTable):
    ns, ew = parse_vulnerability(game["Vulnerable"])
    return par_from_table(table, Seat.parse(game["Dealer"]), ns, ew)


def test_par_equals_optimum_score_on_every_qualifier_deal() -> None:
    games = read_games(QUALIFIER)
    assert len(games) == 299
    deals = sorted({g["Deal"] for g in games})
    assert len(deals) == 10
    solved = dict(zip(deals, solve_tables([Deal.from_pbn(d).to_pbn() for d in deals]), strict=True))
    for g in games:
        table = solved[g["Deal"]]
        assert table == table_from_ort(g["_ort"]), f"board {g['Board']}: DD table differs"
        par = par_of(g, table)
        assert par.ns_score == parse_optimum_score(g["OptimumScore"]), (
            f"board {g['Board']} table {g.get('Table')}: par {par.score_text} "
            f"({par.contract_text}) vs OptimumScore {g['OptimumScore']}"
        )


@needs_shared
def test_welwyn_dd_tables_equal_the_published_ones() -> None:
    """Welwyn prints no OptimumScore: par there is a function of this (verified) table."""
    games = read_games(WELWYN)
    assert len(games) == 24
    assert not any("OptimumScore" in g or "ParContract" in g for g in games)
    tables = solve_tables([Deal.from_pbn(g["Deal"]).to_pbn() for g in games])
    for g, table in zip(games, tables, strict=True):
        assert table == table_from_ort(g["_ort"]), f"board {g['Board']}: DD table differs"
        par = par_of(g, table)
        assert par.contracts, f"board {g['Board']}: no par contract"


@pytest.mark.parametrize("path", PAR_FILES, ids=lambda p: p.name)
def test_par_equals_published_score_and_contracts(path: Path) -> None:
    """Score and the set of par contracts equal `[OptimumScore]` and `[ParContract]`."""
    if not path.is_file():
        pytest.skip(NOT_BUNDLED)
    games = read_games(path)
    assert games
    for g in games:
        par = par_of(g, table_from_ort(g["_ort"]))
        assert par.ns_score == parse_optimum_score(g["OptimumScore"]), g["Board"]
        published = {c.strip() for c in g["ParContract"].split(";")}
        assert set(par.contracts) == published, f"board {g['Board']}: {par.contracts}"


def test_parse_optimum_score() -> None:
    assert parse_optimum_score("NS +620") == 620
    assert parse_optimum_score("NS -400") == -400
    assert parse_optimum_score("EW 980") == -980

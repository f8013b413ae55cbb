"""Skill ratings rate only what an added event needs (issue 37), and equal one rating of all.

Real records: the bundled 2012 world-class PBN's four events (Vanderbilt, March; U.S.
Championship, May; Spingold, July; World Championship, August), the first 100 table results of
each written as its own file. Their players overlap (six of the Vanderbilt's play the U.S.
Championship, four of those the Spingold), so a period rated on top of the stored states reads
states an earlier period wrote.

A store holding three of the events, then the fourth added, rated after each, must hold the same
skill ratings (and their history, periods, fitted constants and fingerprints), to the last bit,
as a store of all four rated once, whether the added event is the last period, an earlier one,
or one of the periods the model's constants are fitted on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stages import skill
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from stages.scoring_stage import score_and_rate
from stages.settings import load_settings
from store import Store

ROOT = Path(__file__).resolve().parent.parent
PBN = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
EVENTS = ("Vanderbilt", "U.S. Championship", "Spingold", "World Championship")  # date order
#: The constants are fitted on the Vanderbilt alone (its 100 results): the later events are
#: rated from the stored states.
FIT = 50
TABLES = ("skill_ratings", "skill_periods", "skill_history", "skill_fit", "skill_events")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each event's first 100 table results, in a file of its own (its first game names it)."""
    tmp = tmp_path_factory.mktemp("skill-events")
    games: dict[str, list[str]] = {}
    event = ""
    for game in PBN.read_text(encoding="latin-1").split("\n\n"):
        if "[" not in game:
            continue
        named = re.search(r'^\[Event "([^"]*)"\]', game, re.M)
        event = named.group(1) if named else event
        games.setdefault(event, []).append(game.strip("\n"))
    out = {}
    for n, name in enumerate(EVENTS):
        out[name] = tmp / f"event{n}.pbn"
        out[name].write_text("\n\n".join(games[name][:100]) + "\n", encoding="latin-1")
    return out


def _add(db: Path, paths: list[Path]) -> None:
    with Store(db) as store:
        ingest_paths(store, paths)
        clean_pending(store, workers=1)
        score_and_rate(store, load_settings(db=str(db), out=str(db.parent / "out"),
                                            ratings=False))  # fmt: skip


def _rate(db: Path, keep: int = skill.KEEP_STATES) -> tuple[dict, dict[str, list], int]:
    with Store(db) as store:
        summary = skill.rate_store(store, fit_results=FIT, keep_states=keep)
        tables = {t: store.tuples(sql=f"select * from {t} order by all") for t in TABLES}
        return summary, tables, store.counts["scored_tables_of"]


@pytest.fixture(scope="module")
def once(files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, list]:
    db = tmp_path_factory.mktemp("skill-once") / "store.duckdb"
    _add(db, [files[e] for e in EVENTS])
    summary, tables, _ = _rate(db)
    assert len(summary["periods_rated"]) == 4 and summary["boards"] > 300
    return tables


@pytest.mark.parametrize(
    ("added", "rated"),
    [("World Championship", ["World Championship"]),  # the last period
     ("U.S. Championship", ["U.S. Championship", "Spingold", "World Championship"]),  # earlier
     ("Vanderbilt", list(EVENTS))],  # one the constants are fitted on: every period again
)  # fmt: skip
def test_an_added_event_rates_as_one_run_of_all(
    files: dict[str, Path], once: dict[str, list], tmp_path: Path, added: str, rated: list[str]
) -> None:
    db = tmp_path / "store.duckdb"
    _add(db, [files[e] for e in EVENTS if e != added])
    first, _, _ = _rate(db)
    assert len(first["periods_rated"]) == 3
    _add(db, [files[added]])
    summary, tables, reads = _rate(db)
    with Store(db) as store:
        labels = {first: name for name, _, first in store.tuples("skill_events")}
        sizes = {name: n for name, _, _, n in store.tuples("skill_event_sizes")}
    # only the periods from the added event's on were rated, and only their events were read
    names = [labels[p] for p in summary["periods_rated"]]
    assert [re.sub(r"-?2012.*$", "", n) for n in names] == [_slug(e) for e in rated], names
    assert summary["boards"] == sum(sizes[n] for n in names)
    assert reads == 1  # one batch of whole events
    for table in TABLES:
        assert tables[table] == once[table], table
    assert len(tables["skill_ratings"]) > 100
    # the stored states continue those of the earlier periods: some player rated in the added
    # event's period or later had been rated before it
    if added == "U.S. Championship":
        before = {(p, c) for p, _, c, *_ in _history_before(tables, summary)}
        after = {(p, c) for period, _, p, c, *_ in tables["skill_history"]
                 if period in summary["periods_rated"]}  # fmt: skip
        assert before & after


def _slug(event: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", event.lower()).strip("-")


def _history_before(tables: dict[str, list], summary: dict) -> list[tuple]:
    start = summary["periods_rated"][0]
    return [(p, period, c) for period, _, p, c, *_ in tables["skill_history"] if period < start]


def test_nothing_new_reads_nothing(files: dict[str, Path], tmp_path: Path) -> None:
    """A second rating with no event changed reads no table result and rates no period."""
    db = tmp_path / "store.duckdb"
    _add(db, [files[e] for e in EVENTS])
    _, tables, _ = _rate(db)
    summary, again, reads = _rate(db)
    assert summary["periods_rated"] == [] and summary["boards"] == 0 and reads == 0
    assert again == tables


@pytest.mark.parametrize("added", ["U.S. Championship", "Vanderbilt"])
def test_a_rating_stopped_midway_is_completed_by_the_next(
    files: dict[str, Path], once: dict[str, list], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, added: str,
) -> None:  # fmt: skip
    """A rating stopped while it writes the new states (after the old ones from its first
    period were deleted) leaves the store so that the next rating equals one rating of all."""
    db = tmp_path / "store.duckdb"
    _add(db, [files[e] for e in EVENTS if e != added])
    _rate(db)
    _add(db, [files[added]])
    real = skill._store_history

    def stop(store: Store, rows: list) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(skill, "_store_history", stop)
    with pytest.raises(KeyboardInterrupt):
        _rate(db)
    monkeypatch.setattr(skill, "_store_history", real)
    _, tables, _ = _rate(db)
    for table in TABLES:
        assert tables[table] == once[table], table


@pytest.mark.parametrize("added", ["U.S. Championship", "Vanderbilt"])
def test_states_dropped_while_rating_are_read_back(
    files: dict[str, Path], once: dict[str, list], tmp_path: Path, added: str
) -> None:
    """Rating with room for 40 states (of about 300): the least recently rated are dropped and
    read back from skill_history when their players play again; the ratings are the same bits."""
    db = tmp_path / "store.duckdb"
    _add(db, [files[e] for e in EVENTS if e != added])
    _rate(db, keep=40)
    _add(db, [files[added]])
    _, tables, _ = _rate(db, keep=40)
    for table in TABLES:
        assert tables[table] == once[table], table

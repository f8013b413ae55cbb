"""A traveller line missing against the movement is reported (issue 29), in errors.csv and on the
event page, from the movement the file itself shows (`ddrank.scoring.intake.movement`).

Welwyn (BriAn USEBIO, 13 pairs, 144 lines) with the line of board 1 between NS 1 and EW 8
deleted: pair 1 then has 20 boards and 63.64% where the file publishes 62.02%, and nothing said
so. The untouched real files report nothing, except where their own travellers show a gap.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from stages.scoring import load_files, score_events

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="../shared/data/events is absent; these files may not be bundled: no licence allows it "
    "(SOURCES.md)",
)
WELWYN = SHARED / "usebio" / "welwyn-2025-04-09.usebio.xml"
QUALIFIER = REPO / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
SAMPLE_2012 = REPO / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"


def _welwyn_without_one_line(tmp_path: Path) -> Path:
    """The real file with board 1's traveller line NS 1 v EW 8 cut out, nothing else changed."""
    text = WELWYN.read_text(encoding="iso-8859-1")
    line = re.compile(r"\s*<TRAVELLER_LINE>\s*<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>\s*"
                      r"<EW_PAIR_NUMBER>8</EW_PAIR_NUMBER>.*?</TRAVELLER_LINE>", re.S)  # fmt: skip
    board_1 = text.index("<BOARD_NUMBER>1</BOARD_NUMBER>")
    m = line.search(text, board_1)
    assert m is not None and m.start() < text.index("<BOARD_NUMBER>2</BOARD_NUMBER>")
    out = tmp_path / "welwyn-minus-one.usebio.xml"
    out.write_text(text[: m.start()] + text[m.end() :], encoding="iso-8859-1")
    return out


@needs_shared
def test_the_whole_file_reports_nothing_missing() -> None:
    loaded = load_files([WELWYN])
    assert len(loaded.results) == 144 and loaded.errors == []


@needs_shared
def test_a_deleted_line_is_reported_with_its_place(tmp_path: Path) -> None:
    loaded = load_files([_welwyn_without_one_line(tmp_path)])
    assert len(loaded.results) == 143
    (e,) = loaded.errors
    assert (e.kind, e.board, e.line) == ("missing", "1", None)
    assert e.source.endswith("welwyn-minus-one.usebio.xml")
    assert e.message.startswith("no traveller line of board 1 for NS 1 v EW 8: they played "
                                "board 2")  # fmt: skip
    # what it costs: pair 1 is ranked on 20 boards (63.64%: it scored 3 of 10 on the line cut)
    # where BriAn published 62.02% over 21
    (sc,) = score_events(loaded).values()
    (pair_1,) = [x for x in sc.rankings if x.pair == "1" and x.session == ""]
    assert pair_1.boards == 20 and round(pair_1.pct, 2) == 63.64
    (published,) = [s for s in loaded.standings if s["pair"] == "1"]
    assert round(float(published["published_pct"]), 2) == 62.02


def test_the_qualifier_reports_its_one_unpaired_room() -> None:
    """Switzerland v Turkey board 20 was entered for one room only ([ScoreIMP] but no swing)."""
    missing = [e for e in load_files([QUALIFIER]).errors if e.kind == "missing"]
    assert [(e.section, e.board) for e in missing] == [("SWITZERLAND v TURKEY", "20")]
    assert "other room's traveller line of board 20" in missing[0].message


def test_the_2012_sample_misses_nothing() -> None:
    assert [e for e in load_files([SAMPLE_2012]).errors if e.kind == "missing"] == []


@needs_shared
def test_errors_csv_and_the_event_page_show_the_missing_line(tmp_path: Path) -> None:
    """Through the store, as `ddrank results` runs it: errors.csv names the file and the board,
    and the event page lists the line under "Traveller lines missing"."""
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from stages.scoring_stage import score_store
    from stages.site import build_site
    from store import Store

    path = _welwyn_without_one_line(tmp_path)
    db = str(tmp_path / "s.duckdb")
    with Store(db) as store:
        ingest_paths(store, [path])
        clean_pending(store)
        summary = score_store(store, str(tmp_path / "score"))
    assert summary["missing_lines"] == 1 and summary["errors"] == 0
    with (tmp_path / "score" / "errors.csv").open(encoding="utf-8") as fh:
        (row,) = list(csv.DictReader(fh))
    assert row["source"] == str(path) and row["board"] == "1" and row["kind"] == "missing"
    assert "NS 1 v EW 8" in row["message"]
    build_site(db, tmp_path / "out", fill_par=False)
    (page,) = [p for p in (tmp_path / "out" / "site" / "events").glob("*.html")]
    html = page.read_text()
    assert "Traveller lines missing (1)" in html
    assert "no traveller line of board 1 for NS 1 v EW 8" in html


@needs_shared
def test_a_line_read_and_left_out_is_not_also_missing() -> None:
    """BBO's skyclub session (44 LIN files, one table each, no contract written: the auction and
    the play say it). Read directly, as `ddrank score` and `ddrank check` do, its 42 finished
    tables are scored like `ddrank results` scores them (from the auction, and from the 13 tricks
    when the play ends without a claim); the 2 whose play stops mid-way are left out with why,
    and the meeting's other boards do not make them "missing" too."""
    loaded = load_files([SHARED / "bbo-lin" / "skyclub-2013-08-10"])
    assert len(loaded.results) == 42
    assert sorted((Path(e.source).name, e.kind, e.message) for e in loaded.errors) == [
        ("20784108.lin", "left out", "3NX by W: missing result (trick count) and no score"),
        ("20784128.lin", "left out", "4H by E: missing result (trick count) and no score"),
    ]

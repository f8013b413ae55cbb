"""Issue 12 (formats core): PBN tables, content-based format detection, the event model in the
store, sessions of the 2012 sample, and the leading-pass guard (issue 16 item 5).

Every expected value below is read from a real file: the bundled samples, the PBN Verifier's
conformance files, and the BridgeComposer club sessions under ../shared/data/events/.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from ddrank.parsers.pbn import read_pbn
from ddrank.scoring.arithmetic.duplicate import imps
from stages.audit import audit_tables
from stages.clean import clean_pending, files_with_leading_passes
from stages.ingest import ingest_paths
from store.inputs.read import detect_format, read_parsed
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "ddrank" / "data" / "sample"
Y2012 = SAMPLE / "pbn" / "worldclass-2012-example3.pbn"
Y2021 = SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn"
EVENTS = ROOT.parent / "shared" / "data" / "events"
VERIFIER = ROOT / "tests" / "data" / "pbn-verifier"  # bundled: copyright-free (SOURCES.md)
COMPOSER = EVENTS / "bridgecomposer-pairs" / "PABC_2025-12-23_D251223M.pbn"
#: BridgeComposer, BBO and USEBIO files: read from ../shared, as their licence allows no copy
needs_shared = pytest.mark.skipif(not EVENTS.exists(), reason=(
    "../shared/data/events is absent; these files may not be bundled: no licence allows it "
    "(SOURCES.md)"))  # fmt: skip


def _read(path: Path):
    return read_pbn(path.read_bytes().decode("latin-1"), str(path))


# ---------------------------------------------------------------- per-table PBN tags
def test_score_imp_is_north_souths_and_matches_the_other_room() -> None:
    """`[ScoreIMP "NS 4 EW -4"]`: North-South's IMPs. Each table's published IMPs equal the IMPs
    of its NS score against the other room of the same match (278 of 278 scored pairs)."""
    recs = _read(Y2021).records
    rooms: dict[tuple[str, str], list] = {}
    for r in recs:
        rooms.setdefault((r.board_no, r.section), []).append(r)
    checked = 0
    for pair in rooms.values():
        if len(pair) != 2 or not all(r.ns_score for r in pair):
            continue
        a, b = pair
        for x, y in ((a, b), (b, a)):
            assert imps(int(x.ns_score) - int(y.ns_score)) == float(x.published_imps)
            checked += 1
    assert checked == 278
    first = next(r for r in recs if r.source_line == 3)  # board 11, AUSTRIA v DENMARK
    assert (first.ns_score, first.published_imps, first.par_score) == ("0", "4", "90")
    assert first.section == "AUSTRIA v DENMARK" and first.table_no == "11"


# ---------------------------------------------------------------- PBN 2.1 tables
@needs_shared
def test_bridgecomposer_score_table_rows_are_results() -> None:
    parsed, deals = read_parsed(COMPOSER)
    assert parsed.format == "pbn" and len(parsed.records) == 333 and len(deals) == 24
    # board 1, row "A 1 1 3NT W - 11   - 460 - - Hemsley-Dudman      Cervellino-Carr"
    row = next(r for r in parsed.records if r.board_no == "1" and r.northname == "Hemsley")
    assert (row.section, row.ns_pair, row.ew_pair) == ("A", "1", "1")
    assert (row.contract, row.declarer, row.result, row.ns_score) == ("3NT", "W", "11", "-460")
    assert (row.southname, row.eastname, row.westname) == ("Dudman", "Cervellino", "Carr")
    assert (row.par_score, row.par_contract) == ("-460", "EW 3N+2")  # [OptimumScore "EW 460"]
    assert row.published_ns_mp == ""  # the exporter leaves MP_NS empty ("-")
    assert deals[0].deal.startswith("N:83.A985") and deals[0].dd_tricks == "2563225632b87abb87ab"
    # a "6C E - 10 100" row: 100 to North-South
    down = next(r for r in parsed.records if r.board_no == "1" and r.contract == "6C")
    assert (down.section, down.ns_score, down.result) == ("B", "100", "10")


def test_total_score_table_and_multiplicity_of_the_verifier() -> None:
    parsed = _read(VERIFIER / "correct_20.pbn")
    first = parsed.standings[0]
    assert (first.published_place, first.pair, first.published_mp, first.published_pct) == (
        "1", "581", "1449.8", "72.49")  # fmt: skip
    assert first.players == "Sergey OSTRIKOV - Oleg ODINTSEV"
    # game 45: a frequency ScoreTable; "10 90.3 9.7 420 12" is 12 tables scoring NS +420
    freq = [r for r in parsed.records if r.source_line and 640 <= r.source_line <= 665]
    assert len(freq) == 155  # the sum of the Multiplicity column (the last row ranks 155th)
    assert sum(r.ns_score == "420" for r in freq) == 12
    assert {r.published_ns_pct for r in freq if r.ns_score == "420"} == {"90.3"}


@pytest.mark.parametrize("name", ["correct_10.pbn", "correct_20.pbn", "correct_21.pbn"])
def test_verifier_correct_files_read_without_error(name: str) -> None:
    assert [r.parse_error for r in _read(VERIFIER / name).records if r.parse_error] == []


def test_verifier_errors_are_reported_with_their_lines() -> None:
    errs = {r.source_line: r.parse_error for r in _read(VERIFIER / "errors_21.pbn").records}
    assert errs == {
        7: "line 7: OptimumScore '100' is not a valid PBN OptimumScore",
        11: "line 11: OptimumScore 'EW' is not a valid PBN OptimumScore",
    }
    table = {r.source_line for r in _read(VERIFIER / "errors_20.pbn").records if r.parse_error}
    # bad width specifiers (97, 100, 103), comment in a row (108), forbidden % [ ] { } (113-129),
    # a missing table element (143)
    assert {97, 100, 103, 108, 113, 117, 121, 125, 129, 143} <= table
    tags = {r.source_line for r in _read(VERIFIER / "errors_10.pbn").records if r.parse_error}
    assert {31, 35, 39, 43, 79, 83, 87, 91} <= tags  # Date, Dealer, Vulnerable, ... values


# ---------------------------------------------------------------- format by content
def test_format_is_told_by_content_not_extension(tmp_path: Path) -> None:
    lin = tmp_path / "vugraph.pbn"
    shutil.copy(SAMPLE / "lin" / "usbf-2010-sf-14502.lin", lin)
    pbn = tmp_path / "hands.xml"
    shutil.copy(Y2021, pbn)
    assert detect_format(lin) == "lin" and detect_format(pbn) == "pbn"
    parsed, _ = read_parsed(lin)
    assert parsed.format == "lin" and len(parsed.records) == 30


@pytest.mark.parametrize("suffix", [".pbn", ".lin", ".xml", ".bws"])
def test_binary_junk_is_one_clear_error(tmp_path: Path, suffix: str) -> None:
    junk = tmp_path / f"junk{suffix}"
    junk.write_bytes(bytes(range(256)) * 4096)  # 1 MiB of every byte value
    parsed, deals = read_parsed(junk)
    assert deals == [] and len(parsed.records) == 1
    assert "binary content" in parsed.records[0].parse_error


def test_multi_megabyte_single_line_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "oneline.pbn"
    big.write_text('[Event "x"]\n[Deal "' + "A" * 8_000_000 + '"]\n')
    start = time.process_time()
    parsed, _ = read_parsed(big)
    assert len(parsed.records) == 1
    assert parsed.records[0].source_line == 2
    assert "line 2 is 8,000,009 characters long" in parsed.records[0].parse_error
    assert time.process_time() - start < 5  # bounded: no parser ran over it


def test_truncated_pbn_is_refused_whole(tmp_path: Path) -> None:
    """Its complete games would rank the teams on part of the event (issue 36): none is read."""
    text = Y2021.read_text()
    cut = tmp_path / "cut.pbn"
    kept = text[: text.index("[Board", 4000)]
    cut.write_text(kept + '[Board "1')  # a tag cut mid-value
    parsed = read_parsed(cut)[0]
    line = kept.count("\n") + 1
    assert (parsed.records, parsed.deals, parsed.standings) == ([], [], [])
    assert parsed.refused == (f"refused: line {line}: the file ends inside a tag ('[Board \"1'): "
                              "it is cut short, so none of it is read")  # fmt: skip
    cut.write_text(kept + '[Board "1"]\n')  # a complete last line: a game without a deal
    assert not read_parsed(cut)[0].refused


# ---------------------------------------------------------------- the store
@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("events") / "s.duckdb"
    con = connect(db)
    ingest_paths(con, [Y2012, Y2021])
    clean_pending(con, workers=1)
    con.close()
    return db


def test_2012_sample_has_sessions_dates_and_no_shared_board_keys(sample_store: Path) -> None:
    con = connect(sample_store)
    events = dict(con.execute("SELECT name, date_start FROM events").fetchall())
    assert events == {"World Championship": "2012-08", "Vanderbilt": "2012-03",
                      "U.S. Championship": "2012-05", "Spingold": "2012-07",
                      "2021 Online Qual: Open R2": "2021-08-23"}  # fmt: skip
    sessions = {s for (s,) in con.execute(
        "SELECT DISTINCT session FROM boards WHERE date LIKE '2012%'").fetchall()}  # fmt: skip
    stages = set(re.findall(r'^\[Stage "([^"]*)"', Y2012.read_text(), re.MULTILINE))
    assert sessions == stages and len(stages) == 54  # "Final:1", "QtrF:3", ... as written
    # the same board number of one session is several deals (each KO match plays its own):
    # the match is the section, and then a board key names exactly one deal
    shared = con.execute(
        "SELECT count(*) FROM (SELECT event_id, session, section, board_no FROM boards "
        "GROUP BY ALL HAVING count(DISTINCT deal_id) > 1)"
    ).fetchall()[0][0]
    assert shared == 0
    keys = con.execute(
        "SELECT count(DISTINCT (event_id, session, section, board_no)) FROM boards "
        "WHERE date LIKE '2012%'"
    ).fetchall()[0][0]
    assert keys > 3000
    con.close()


def test_reingest_adds_nothing_to_any_table(sample_store: Path, tmp_path: Path) -> None:
    con = connect(sample_store)
    tables = ("raw_records", "events", "published_standings", "deals", "boards")
    before = [con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in tables]
    copy = tmp_path / "again.pbn"  # same content under another name: parsed, nothing new
    shutil.copy(Y2021, copy)
    again = ingest_paths(con, [Y2012, copy])
    assert (again.new, again.new_events, again.new_deals) == (0, 0, 0)
    clean_pending(con, workers=1)
    assert [con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in tables] == before
    audit = audit_tables(con)
    assert audit["balanced"]
    stages = {s["stage"]: s["count"] for s in audit["stages"]}
    assert stages["scoring"] <= audit["boards"] and stages["dd_play"] <= stages["dd_table"]
    con.close()


# ---------------------------------------------------------------- leading-pass guard
def test_declarer_typo_in_a_file_that_writes_leading_passes_is_excluded(tmp_path: Path) -> None:
    """Issue 16 item 5. The 2021 qualifier writes the passes before an opening bid. Board 11 at
    line 50 (dealer S: 1C Pass 1NT ..., declarer N): a declarer typo "E" (and its leader "S")
    matches a one-seat shift of the auction, which the repair would "restore". In this file the
    repair must not apply: the typo is a declarer contradiction."""
    lines = Y2021.read_text().splitlines()
    assert lines[61] == '[Declarer "N"]' and lines[69] == '[Play "E"]'  # lines 62 and 70
    lines[61], lines[69] = '[Declarer "E"]', '[Play "S"]'
    typo = tmp_path / "qualifier-with-typo.pbn"
    typo.write_text("\n".join(lines) + "\n")
    con = connect(tmp_path / "g.duckdb")
    ingest_paths(con, [typo, Y2012])
    assert files_with_leading_passes(con) == frozenset({str(typo)})
    clean_pending(con, workers=1)
    reason = con.execute(
        "SELECT reason, detail FROM exclusions WHERE source_file = ? AND source_line = 50",
        [str(typo)],
    ).fetchall()
    assert reason == [("declarer_contradiction", "record 'E', auction 'N'")]
    # the 2012 file writes no leading pass: there the repair still applies, with its reason
    repaired = con.execute(
        "SELECT count(*), min(repairs) FROM boards WHERE repairs LIKE 'auction: %'"
    ).fetchall()[0]
    assert repaired[0] > 3000 and "no auction of this file starts with a pass" in repaired[1]
    con.close()


def test_utf16_pbn_is_read_and_latin1_too(tmp_path: Path) -> None:
    """Windows tools write UTF-16 with a byte-order mark; older ones Latin-1 (Magic Contest)."""
    text = Y2021.read_text()
    wide = tmp_path / "wide.pbn"
    wide.write_text(text, encoding="utf-16")
    latin = tmp_path / "latin.pbn"
    latin.write_bytes(text.replace("Knob", "Knöb").encode("latin-1", errors="replace"))
    want = len(_read(Y2021).records)
    assert len(read_parsed(wide)[0].records) == want
    recs = read_parsed(latin)[0].records
    assert len(recs) == want and any(r.northname.startswith("Markus Knöb") for r in recs)


@pytest.mark.parametrize("source", [Y2012, VERIFIER / "correct_20.pbn", COMPOSER],
                         ids=["per-table", "scoretable", "scoretable-club"])  # fmt: skip
def test_large_pbn_is_stored_in_batches_with_the_same_result(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PBN file over STREAM_BYTES is read line by line and stored in batches; the store ends
    up exactly as when the file is read whole."""
    if not source.exists():  # the BridgeComposer file: no licence allows a copy (SOURCES.md)
        pytest.skip(f"{source} is absent; it may not be bundled: no licence (SOURCES.md)")
    import store.inputs.stream as workers

    whole = connect(tmp_path / "whole.duckdb")
    read_whole = ingest_paths(whole, [source])
    monkeypatch.setattr(workers, "STREAM_BYTES", 1000)
    original = workers.StreamedFile.batches
    sizes: list[int] = []

    def small_batches(self: workers.StreamedFile, path: Path, size: int = 97):
        for batch in original(self, path, size):
            sizes.append(len(batch))
            yield batch

    monkeypatch.setattr(workers.StreamedFile, "batches", small_batches)
    streamed = connect(tmp_path / "streamed.duckdb")
    summary = ingest_paths(streamed, [source])
    query = {
        "raw_records": "SELECT * EXCLUDE (partition_id, ingested_at) FROM raw_records "
        "ORDER BY record_id",
        "deals": "SELECT * FROM deals ORDER BY deal_key",
        "events": "SELECT * FROM events ORDER BY event_id",
        "published_standings": "SELECT * FROM published_standings ORDER BY standing_id",
    }
    for table, sql in query.items():
        assert streamed.execute(sql).fetchall() == whole.execute(sql).fetchall(), table
    assert len(sizes) >= 3 and sum(sizes) == summary.read  # it was read in batches

    def repeated(warnings: list) -> list:  # a ScoreTable published again (correct_20's game 46)
        return [(w["line"], w["warning"]) for w in warnings if "repeats rows" in w["warning"]]

    assert repeated(summary.warnings) == repeated(read_whole.warnings)
    assert len(repeated(summary.warnings)) == (source.name == "correct_20.pbn")


@needs_shared
def test_adjusted_score_table_cell_is_an_adjusted_result(tmp_path: Path) -> None:
    """A director's "A+" in a traveller (Magic Contest, ACBLscore write them so): the row is kept
    as an adjusted result, 60% to North-South, with no contract. Built from the real club file
    by adjusting its first row."""
    text = COMPOSER.read_text(encoding="latin-1")
    row = "B 1 1 3NT E - 10   - 430 - - Ogawa-Arbian        Lu-Whitaker"
    assert row in text
    adjusted = tmp_path / "adjusted.pbn"
    adjusted.write_text(
        text.replace(row, "B 1 1 A+   - -  -   -   - - - Ogawa-Arbian        Lu-Whitaker"),
        encoding="latin-1",
    )
    rec = next(r for r in read_parsed(adjusted)[0].records if r.northname == "Ogawa")
    assert (rec.adjusted, rec.contract, rec.ns_score, rec.ns_pair) == ("60/40", "", "", "1")
    from ddrank.cleaning import clean_record

    board = clean_record(rec).board
    assert board is not None and board.adjusted == "60/40" and board.contract is None


def test_tags_sharing_a_line_or_spanning_lines_are_read() -> None:
    """PBN is token-based: the verifier's `[Event "my event"] [Date "1998.03.21"]` is two tags,
    and `[` / `Event` / `"use new lines"` / `]` on four lines is one."""
    recs = _read(VERIFIER / "correct_10.pbn").records
    assert any(r.event == "my event" and r.date == "1998.03.21" for r in recs)
    assert any(r.event == "use new lines" for r in recs)
    assert any(r.event == "No space after 'event'" for r in recs)


LIN_SOURCES = {"vugraph": SAMPLE / "lin" / "usbf-2010-sf-14502.lin"}


def _hand_history_lin(tmp_path: Path) -> Path:
    """A hand history: the 44 BBO hand records of one club session, one after another."""
    path = tmp_path / "history.lin"
    folder = EVENTS / "bbo-lin" / "skyclub-2013-08-10"
    path.write_text("\n".join(p.read_text("latin-1").strip() for p in sorted(folder.glob("*.lin"))))
    return path


def _realbridge_lin(tmp_path: Path) -> Path:
    """RealBridge's URL-encoded LIN, one table a line, as its USEBIO file carries it."""
    xml = (EVENTS / "usebio" / "realbridge-club-2025-04-07.usebio.xml").read_text("latin-1")
    path = tmp_path / "realbridge.lin"
    path.write_text("\n".join(re.findall(r"<LIN_DATA>([^<]*)</LIN_DATA>", xml)) + "\n")
    return path


@pytest.mark.parametrize("name", ["vugraph", "hand-records", "realbridge"])
def test_large_lin_is_read_in_pieces_with_the_same_result(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A LIN file over STREAM_BYTES is read in pieces cut anywhere (here every 100 bytes, so
    pairs and characters are cut in two) and gives the records `read_parsed` gives, in order."""
    import store.inputs.lin as lin_io
    import store.inputs.stream as workers

    if name in ("realbridge", "hand-records"):
        if not EVENTS.exists():
            pytest.skip(
                "../shared/data/events is absent; BBO and USEBIO files may not be "
                "bundled: no licence allows it (SOURCES.md)"
            )
        source = (_realbridge_lin if name == "realbridge" else _hand_history_lin)(tmp_path)
    else:
        source = LIN_SOURCES[name]
        if not source.exists():
            pytest.skip(f"{source} is missing")
    whole, _ = read_parsed(source)
    monkeypatch.setattr(workers, "STREAM_BYTES", 100)
    monkeypatch.setattr(lin_io, "BLOCK", 100)
    assert workers.streams(source)
    stream = workers.StreamedFile(detect_format(source))
    batches = list(stream.batches(source, size=7))
    streamed = [rec for batch in batches for rec in batch]
    assert len(batches) > 3
    assert [(r.record_id, r.source_line) for r in streamed] == [
        (r.record_id, r.source_line) for r in whole.records
    ]
    assert stream.events == whole.events
    assert not any(r.parse_error for r in streamed)
    assert len(streamed) == {"vugraph": 30, "hand-records": 44, "realbridge": 168}[name]
    if name == "realbridge":  # names and ids decoded from `pn|Jeff%20Green%231747%2C...`
        assert streamed[0].northname and "%" not in streamed[0].northname
        assert streamed[0].north_id.isdigit()


def test_large_lin_with_a_line_too_long_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import store.inputs.stream as workers

    path = tmp_path / "long.lin"
    text = LIN_SOURCES["vugraph"].read_text("latin-1")
    path.write_text(text + "nt|" + "x" * 1_200_000 + "|\n" + text)
    monkeypatch.setattr(workers, "STREAM_BYTES", 1000)
    records = [r for batch in workers.StreamedFile("lin").batches(path) for r in batch]
    assert len(records) == 1
    lines = text.count("\n") + 1
    assert (
        records[0].parse_error == f"line {lines} is longer than 1,000,000 bytes: not a hand record"
    )

"""Resource limits every reader obeys (issue 32, findings 1 and 3; ddrank/limits.py).

Each hostile file is generated here, small: a recursive-view SQLite of a few KB, a `zeroblob`
view, a generated column, a USEBIO nested a million levels deep or a million elements wide (built
in memory), an ACBLscore game file declaring two million traveller lines. Each runs through
`ddrank ingest` in a child process, onto a store that already holds the bundled vugraph file, and
each test asserts: one line refusing the file (naming the limit and how to raise it, where a
limit can be raised), exit code 2, nothing of the file stored (the store's tables unchanged), and
the child's peak RSS at most 1 GB.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hostile import LIN, PEAK_RSS_LIMIT, counts, ddrank

from ddrank.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from store.inputs.read import read

SAMPLE_PBN = LIN.parents[1] / "pbn" / "worldclass-2012-example3.pbn"


@pytest.fixture(scope="module")
def base_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("limits") / "base.duckdb"
    done = ddrank("ingest", str(LIN), "--db", str(db), cwd=db.parent)
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture
def store(base_store: Path, tmp_path: Path) -> Path:
    db = tmp_path / "s.duckdb"
    db.write_bytes(base_store.read_bytes())
    return db


def refused(file: Path, store: Path, *flags: str, **env: str) -> str:
    """Ingest `file`: exit 2, one line refusing it, the store unchanged, peak RSS <= 1 GB."""
    before = counts(store)
    done = ddrank("ingest", str(file), "--db", str(store), *flags, cwd=store.parent, **env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.lines if "refused" in ln]
    assert len(lines) == 1, done.lines
    assert lines[0].startswith(("error: ", "skipped: ")) and str(file) in lines[0]
    assert counts(store) == before, "something of the refused file was stored"
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    return lines[0]


def sqlite_file(path: Path, script: str) -> Path:
    db = sqlite3.connect(path)
    db.executescript(script)
    db.close()
    return path


def test_a_recursive_view_is_refused_before_any_row(store: Path, tmp_path: Path) -> None:
    bomb = sqlite_file(tmp_path / "bomb.sqlite", """
        CREATE VIEW bridgedeals AS
        WITH RECURSIVE r(id, deal) AS (SELECT 1, 'N:' UNION ALL SELECT id + 1, deal || 'x' FROM r)
        SELECT id, deal, 'E' AS event FROM r;
    """)  # fmt: skip
    assert bomb.stat().st_size <= 8192  # a few KB
    line = refused(bomb, store)
    assert "bridgedeals is a view" in line


def test_a_zeroblob_view_is_refused(store: Path, tmp_path: Path) -> None:
    bomb = sqlite_file(tmp_path / "zero.db", """
        CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3);
        CREATE VIEW bridgedeals AS SELECT n AS id, zeroblob(2000000000) AS deal FROM t;
    """)  # fmt: skip
    assert "bridgedeals is a view" in refused(bomb, store)


def test_a_generated_column_is_refused(store: Path, tmp_path: Path) -> None:
    bomb = sqlite_file(tmp_path / "generated.sqlite", """
        CREATE TABLE bridgedeals(id INTEGER, deal TEXT,
                                 play BLOB GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL);
        INSERT INTO bridgedeals(id, deal) VALUES (1, 'x'), (2, 'y');
    """)  # fmt: skip
    assert "generated columns" in refused(bomb, store)


def _bridgedeals(path: Path, copies: int) -> Path:
    """A real `bridgedeals` table: the vugraph file's table results, `copies` times over."""
    recs = read(LIN).records
    cols = ("id", "event", "board", "dealer", "deal", "vulnerable", "auction", "contract", "play",
            "declarer", "result", "westname", "northname", "eastname", "southname")  # fmt: skip
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE bridgedeals ({', '.join(cols)})")
    rows = []
    for k in range(copies):
        for r in recs:
            rows.append((len(rows) + 1, f"{r.event} copy {k}", r.board_no, r.dealer, r.deal,
                         r.vulnerable, r.auction, r.contract, r.play, r.declarer, r.result,
                         r.westname, r.northname, r.eastname, r.southname))  # fmt: skip
    db.executemany(f"INSERT INTO bridgedeals VALUES ({', '.join('?' * len(cols))})", rows)
    db.commit()
    db.close()
    return path


def test_a_table_over_max_rows_is_refused_before_reading_and_read_once_raised(
    store: Path, tmp_path: Path
) -> None:
    table = _bridgedeals(tmp_path / "deals.sqlite", copies=4)  # 120 rows
    line = refused(table, store, "--max-rows", "100")
    assert "table bridgedeals: more than 100 rows, over the limit max_rows = 100" in line
    assert "raise it with --max-rows N" in line and "DDRANK_MAX_ROWS=N" in line
    # the same, set by the environment (one settings model), then raised: now it is read
    refused(table, store, DDRANK_MAX_ROWS="100")
    before = counts(store)
    done = ddrank("ingest", str(table), "--db", str(store), "--max-rows", "120", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert counts(store)["raw_records"] == before["raw_records"] + 120


def _deep_usebio(levels: int) -> bytes:
    head = b'<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">\n<EVENT>'
    return head + b"<X>" * levels + b"</X>" * levels + b"</EVENT></USEBIO>\n"


def test_a_usebio_a_million_levels_deep_is_refused_at_once(store: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.usebio.xml"
    deep.write_bytes(_deep_usebio(1_000_000))  # 7 MB
    line = refused(deep, store)
    limit = DEFAULT_LIMITS.max_xml_depth
    assert (
        f"more than {limit} levels of XML nesting, over the limit max_xml_depth = {limit}" in line
    )
    assert "--max-xml-depth N" in line


def test_a_usebio_a_million_elements_wide_is_refused(store: Path, tmp_path: Path) -> None:
    n = DEFAULT_LIMITS.max_xml_elements
    wide = tmp_path / "wide.usebio.xml"
    line_xml = b"<TRAVELLER_LINE><PAIR_NUMBER>1</PAIR_NUMBER></TRAVELLER_LINE>"
    wide.write_bytes(b'<?xml version="1.0"?>\n<USEBIO Version="1.2"><EVENT><BOARD>'
                     + line_xml * (n // 2) + b"</BOARD></EVENT></USEBIO>\n")  # fmt: skip
    line = refused(wide, store)
    assert f"more than {n:,} XML elements, over the limit max_xml_elements" in line


def test_a_file_over_max_file_bytes_is_refused_before_reading(store: Path, tmp_path: Path) -> None:
    line = refused(SAMPLE_PBN, store, "--max-file-bytes", "1000000")
    size = SAMPLE_PBN.stat().st_size
    assert f"refused: {size:,} bytes, over the limit max_file_bytes = 1,000,000" in line


def test_a_lin_over_max_rows_stores_nothing_of_it(store: Path, tmp_path: Path) -> None:
    lin = tmp_path / "more.lin"
    lin.write_text(LIN.read_text().replace("2010 USBF SF A", "2010 USBF SF B"))  # new records
    assert "30 rows, over the limit max_rows = 29" in refused(lin, store, "--max-rows", "29")


def test_a_streamed_pbn_over_max_rows_is_taken_back_whole(store: Path, tmp_path: Path) -> None:
    """A PBN over 16 MB is stored in batches of 20,000 as it is read: when the limit is passed
    after a batch was written, what was written goes again."""
    text = SAMPLE_PBN.read_text(encoding="latin-1")
    big = tmp_path / "big.pbn"
    with big.open("w", encoding="latin-1") as fh:
        for k in range(9):  # 68,688 results, 17.5 MB
            fh.write(text.replace('[Event "', f'[Event "copy {k} '))
    assert big.stat().st_size > 16 * 2**20
    assert "over the limit max_rows = 30,000" in refused(big, store, "--max-rows", "30000")


def test_an_acblscore_file_declaring_millions_of_lines_is_refused_before_they_are_built(
    store: Path, tmp_path: Path
) -> None:
    """A game file whose board index points at 8,000 results structures of 255 tables each: 35 MB
    declaring 2,040,004 rows (before the fix, main built them all: 5.3 GB, 205 s)."""
    from test_acblscore_layout import build

    game = tmp_path / "hostile.ACA"
    game.write_bytes(build(copies=8_000))
    line = refused(game, store)
    assert ("ACBLscore traveller lines and pair entries: 2,040,004 rows, over the limit "
            "max_rows = 2,000,000") in line  # fmt: skip
    small = tmp_path / "small.ACA"  # the same rule at a lower limit, and read once it is raised
    small.write_bytes(build(copies=3))
    assert "769 rows, over the limit max_rows = 700" in refused(small, store, "--max-rows", "700")
    done = ddrank("ingest", str(small), "--db", str(store), "--max-rows", "1000", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_limits_are_one_model() -> None:
    """The settings carry every limit, with the defaults of ddrank/limits.py."""
    from stages.settings import PipelineSettings, limits_of

    assert limits_of(PipelineSettings()) == DEFAULT_LIMITS
    assert limits_of(PipelineSettings(max_rows=5)) == Limits(max_rows=5)
    with pytest.raises(LimitExceeded, match=r"refused: x: 6 rows, over the limit max_rows = 5"):
        Limits(max_rows=5).check_rows(6, "x")

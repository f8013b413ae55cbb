"""Hostile input, round 2 (issue 40): no value is copied per record. A long `[Event]` under the
value-length limit (64 KiB), inherited by every game of a large file, was held and stored once
per game: 60,000 characters x 7,632 table results is 460 MB of one string, several times over
in the store's frames. It is now cut, in every record, ranking line and event that carries it,
to its first characters and a digest (`ddrank.parsers.values.SHARED_VALUE_CHARS`), with one
warning naming the file.

The hostile file is the bundled rpbridge 2012 sample (7,632 table results, 1.9 MB) with its
first `[Event]` 60,000 characters long and every later one `"#"` (PBN: the previous game's):
every game inherits it. `ddrank results` runs on it beside the bundled vugraph file in a child
process: exit 0, one warning line naming the file, both files published, every table result
the unchanged file gives is published (nothing lost in silence), the store holds no value of
more than 256 characters per record, and the peak RSS is at most 1 GB.
"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from hostile import LIN, PEAK_RSS_LIMIT, ddrank
from test_hostile_files import published
from test_input_limits import SAMPLE_PBN

from ddrank.parsers.values import CUT_TO, SHARED_VALUE_CHARS, cut_value
from store.inputs.read import read

LONG = 60_000


def inherited_event(text: str) -> str:
    """The sample with one 60,000-character [Event] that every game inherits."""
    tags = re.findall(r'^\[Event "[^"]*"\]$', text, re.MULTILINE)
    assert len(tags) == 101
    first = text.index(tags[0])
    rest = re.sub(r'^\[Event "[^"]*"\]$', '[Event "#"]', text[first + len(tags[0]) :],
                  flags=re.MULTILINE)  # fmt: skip
    return text[:first] + '[Event "' + "E" * LONG + '"]' + rest


def test_a_long_inherited_event_is_kept_once_not_per_game(tmp_path: Path) -> None:
    path = tmp_path / "long.pbn"  # read as every command reads a file (store.inputs.read)
    path.write_text(inherited_event(SAMPLE_PBN.read_text(encoding="latin-1")), encoding="latin-1")
    parsed = read(path)
    events = {r.event for r in parsed.records}
    assert len(parsed.records) == 7_632 and len(events) == 1
    (event,) = events
    assert event.startswith("E" * CUT_TO + "... (cut: 60,000 characters, sha1 ")
    assert len(event) <= SHARED_VALUE_CHARS
    assert {e.event for e in parsed.events} <= events  # the event is the records' event
    (warning,) = [w for _, w in parsed.warnings if "60,000 characters" in w]
    assert "event value of 60,000 characters" in warning


def test_a_long_inherited_event_under_the_limit_costs_no_memory_per_game(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(LIN, folder / "good.lin")
    (folder / "long.pbn").write_text(inherited_event(SAMPLE_PBN.read_text(encoding="latin-1")),
                                     encoding="latin-1")  # fmt: skip
    out = tmp_path / "out"
    done = ddrank("results", str(folder), "--out", str(out), cwd=tmp_path, timeout=1200)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    published(done, out)
    named = [ln for ln in done.lines if "long.pbn" in ln and "60,000 characters" in ln]
    assert len(named) == 1 and named[0].startswith("warning "), named
    con = duckdb.connect(str(out / "results.duckdb"), read_only=True)
    try:
        (n, longest), = con.execute("select count(*), max(length(event)) from raw_records "
                                    "where source_file like '%long.pbn'").fetchall()  # fmt: skip
    finally:
        con.close()
    assert n == 7_632 and longest <= SHARED_VALUE_CHARS
    # every table result is published or left out with why (the sample's own bad records)
    with (out / "results.csv").open(newline="") as fh:  # its events' names: 'eeee...-2012-08-..'
        scored = sum(r["event"].startswith("e" * 40) for r in csv.DictReader(fh))
    with (out / "errors.csv").open(newline="") as fh:
        left_out = [r for r in csv.DictReader(fh)
                    if r["source"].endswith("long.pbn") and r["kind"] == "left out"]  # fmt: skip
    assert all(r["event"].startswith("E" * CUT_TO + "... (cut: ") for r in left_out)
    assert scored + len(left_out) == 7_632 and scored > 7_000, (scored, len(left_out))


@pytest.mark.slow  # a 17.6 MB ingest, 1-2 minutes on 2 cores: `pytest -m slow` runs it
def test_a_long_inherited_event_in_a_streamed_file_is_cut_in_every_batch(tmp_path: Path) -> None:
    """A PBN over 16 MB is read and stored in batches of 20,000 (`stages.ingest`): the same
    value is cut alike in each batch, said once. Nine copies of the sample (68,688 games, 17.6
    MB), every game inheriting the first game's 60,000-character [Event]: 4 GB of copies."""
    text = inherited_event(SAMPLE_PBN.read_text(encoding="latin-1"))
    start = text.index('[Event "E')
    again = text[start:].replace('[Event "' + "E" * LONG + '"]', '[Event "#"]', 1)
    big = tmp_path / "big.pbn"
    with big.open("w", encoding="latin-1") as fh:
        fh.write(text)
        for k in range(8):  # other matches (stages), each inheriting the event
            fh.write("\n" + again.replace('[Stage "', f'[Stage "copy {k} '))
    assert big.stat().st_size > 16 << 20
    db = tmp_path / "s.duckdb"
    done = ddrank("ingest", str(big), "--db", str(db), cwd=tmp_path, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.peak_rss <= PEAK_RSS_LIMIT, f"peak RSS {done.peak_rss / 2**20:.0f} MB"
    named = [ln for ln in done.lines if "big.pbn" in ln and "60,000 characters" in ln]
    assert len(named) == 1, named
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("select count(*), max(length(event)), count(distinct event) "
                             "from raw_records").fetchall()  # fmt: skip
    finally:
        con.close()
    assert stored == [(9 * 7_632, len(cut_value("E" * LONG)), 1)]

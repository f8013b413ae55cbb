"""Read what producers really write (issue 36, item 5, and the reader half of item 4).

Common deviations are read with a warning: a PBN `[Date]` with a time of day; a folder of
one-board BBO hand records (no event, no date in them) is grouped into its event by content
and dated from content, never from the files' names (44 events "2078-41-09" before). A file cut short
is refused whole: a Compscore USEBIO file cut at 40% once published a ranking of the boards
before the cut ("1st 78.33%" where Compscore published 51.43%) and exited 0. Each test makes
its deviant copy of a real file in the test.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from stages.check import check_file
from stages.scoring import load_files
from store.inputs.read import read

REPO = Path(__file__).resolve().parent.parent
QUALIFIER = REPO / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
COMPSCORE = REPO.parent / "shared" / "data" / "events" / "compscore-usebio"
BBO = REPO.parent / "shared" / "data" / "events" / "bbo-lin"
needs_bbo = pytest.mark.skipif(
    not BBO.is_dir(),
    reason="../shared/data/events is absent; the BBO hand records may not be bundled (SOURCES.md)",
)
needs_compscore = pytest.mark.skipif(
    not COMPSCORE.is_dir(),
    reason="../shared/data/events is absent; the Compscore files may not be bundled (SOURCES.md)",
)


def test_a_pbn_date_with_a_time_of_day_is_read_with_one_warning(tmp_path: Path) -> None:
    """`[Date "2021-08-23 19:19"]` (ISO dashes and a time: not PBN's yyyy.mm.dd) once refused
    every game ("line 5: Date ... is not a valid PBN Date"); now every table is read, dated
    2021-08-23, scored as the file as published is, and the file gets one warning."""
    text = QUALIFIER.read_text(encoding="latin-1")
    assert text.count('[Date "2021.08.23"]') == 299  # every game writes it
    timed = tmp_path / "qualifier.pbn"
    timed.write_text(text.replace('[Date "2021.08.23"]', '[Date "2021-08-23 19:19"]'),
                     encoding="latin-1")  # fmt: skip
    parsed, original = read(timed), read(QUALIFIER)
    assert len(parsed.records) == len(original.records) == 299
    assert not any(r.parse_error for r in parsed.records)
    assert {r.date for r in parsed.records} == {"2021.08.23"}
    assert [r.record_id for r in parsed.records] == [r.record_id for r in original.records]
    dated = [w for w in parsed.warnings if "Date" in w[1]]
    assert dated == [(5, "Date '2021-08-23 19:19' is not a PBN Date (yyyy.mm.dd); read as "
                         "'2021.08.23', the same in every game of this file that writes it so")]  # fmt: skip
    assert [w for w in parsed.warnings if w not in dated] == original.warnings
    checked, published = check_file(timed), check_file(QUALIFIER)
    imps = next(c for c in checked.checks() if c.what == "IMPs per line")
    assert (imps.compared, imps.agree) == next(
        (c.compared, c.agree) for c in published.checks() if c.what == "IMPs per line"
    )
    assert imps.compared >= 279


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DDRANK_")}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", COLUMNS="250",
               PREFECT_HOME=str(tmp_path / "prefect"))  # fmt: skip
    env.pop("PREFECT_API_URL", None)
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def _refused(tmp_path: Path, cut: Path) -> list[str]:
    """`ddrank results` on a file it must refuse: exit 2, no ranking printed, no result or
    ranking line written; the error lines it printed."""
    out = tmp_path / "out"
    done = _run(tmp_path, "results", str(cut), "--out", str(out))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "%" not in done.stdout and "IMPs" not in done.stdout  # no ranking printed
    for name in ("results.csv", "ranking.csv"):
        with (out / name).open(newline="") as fh:
            assert list(csv.DictReader(fh)) == [], name
    return [x for x in done.stderr.splitlines() if x.startswith("error:")]


@needs_compscore
def test_a_usebio_file_cut_at_40_percent_is_refused_and_never_published(tmp_path: Path) -> None:
    """Compscore's Butler pairs session cut at 40% of its bytes: exit 2, one line naming the
    file and the line of the cut; no table result, ranking line or event of it reaches the
    results, and `ddrank check` says it is unreadable (exit 2)."""
    data = (COMPSCORE / "butler_howell.xml").read_bytes()
    cut = tmp_path / "butler_howell.xml"
    cut.write_bytes(data[: len(data) * 40 // 100])
    line = cut.read_bytes().count(b"\n") + 1  # the cut is on the file's last line
    assert _refused(tmp_path, cut) == [
        f"error: {cut}: refused: line {line}: not well-formed XML (no element found, column 2): "
        "the file is cut short or damaged, so none of it is read"
    ]
    checked = _run(tmp_path, "check", str(cut))
    assert checked.returncode == 2
    assert f"line {line}: not well-formed XML" in checked.stdout


@needs_bbo
def test_a_folder_of_one_board_lins_is_one_event_dated_from_content(tmp_path: Path) -> None:
    """The skyclub session's 44 one-table BBO hand records (11 boards x 4 tables, no event or
    date written in them) in a folder whose name says nothing: once 44 events, each named by its
    file and dated by it ("20784109" -> "2078-41-09"). Now one event named by the folder,
    undated, ranked over its 11 boards, and one warning says how it was grouped."""
    folder = tmp_path / "tourney"
    folder.mkdir()
    for f in sorted((BBO / "skyclub-2013-08-10").glob("*.lin")):
        shutil.copy(f, folder / f.name)
    out = tmp_path / "out"
    done = _run(tmp_path, "results", str(folder), "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    index = (out / "site" / "index.html").read_text()
    assert "2078-" not in done.stdout and "2078-" not in index and "tourney" in index
    assert "tourney: matchpoints" in done.stdout  # one event, no date after its name
    warnings = [x for x in done.stdout.splitlines() if x.startswith("warning ")]
    assert warnings == [
        f"warning {folder / '20784108.lin'}:1: 44 files of this folder name no event: read as "
        "one event 'tourney' (44 table results; joined by their shared deals and partnerships), "
        "undated: none of them writes a date"
    ]
    with (out / "results.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len({r["event"] for r in rows}) == 1 and rows[0]["event"].startswith("tourney-undated")
    assert len({r["board"] for r in rows}) == 11


@needs_bbo
def test_one_folder_of_three_events_stays_three_and_a_dated_folder_keeps_its_date() -> None:
    """`misc`: one partnership's boards 1-2 played twice with other deals (two sessions), and a
    robot table of another event: three events, each named by its first file, none merged into
    one because its players are the same. The dated skyclub folder stays one event of
    2013-08-10."""
    events = Counter((r.event, r.date) for r in load_files([BBO / "misc"]).results)
    assert events == {("3381671193", ""): 2, ("3399598383", ""): 2, ("1047742261", ""): 1}
    sky = Counter((r.event, r.date) for r in load_files([BBO / "skyclub-2013-08-10"]).results)
    assert sky == {("skyclub (2013-08-10)", "2013.08.10"): 42}  # 2 of 44 left out: no trick count


def test_a_pbn_file_cut_at_40_percent_is_refused_and_never_published(tmp_path: Path) -> None:
    """The bundled 2021 qualifier (RealBridge teams, IMPs per table) cut at 40% of its bytes,
    inside a tag: exit 2 and one line naming the file and the line of the cut; nothing of it is
    ranked."""
    data = QUALIFIER.read_bytes()
    cut = tmp_path / "qualifier.pbn"
    cut.write_bytes(data[: len(data) * 40 // 100])
    text = cut.read_text(encoding="latin-1")
    line, tail = text.count("\n") + 1, text[text.rfind("\n") + 1 :]
    assert tail.startswith("[") and "]" not in tail  # the cut falls inside a tag
    assert _refused(tmp_path, cut) == [
        f"error: {cut}: refused: line {line}: the file ends inside a tag ({tail.strip()[:40]!r}): "
        "it is cut short, so none of it is read"
    ]


@needs_bbo
def test_a_file_added_to_the_folder_later_joins_the_event_already_read(tmp_path: Path) -> None:
    """43 of the 44 files read first; the 44th dropped into the folder afterwards joins event
    `tourney` (it shares board 11's deal with three of them), not an event of its own."""
    from stages.ingest import ingest_paths
    from store import Store

    folder = tmp_path / "tourney"
    folder.mkdir()
    files = sorted((BBO / "skyclub-2013-08-10").glob("*.lin"))
    for f in files[:-1]:
        shutil.copy(f, folder / f.name)
    with Store(tmp_path / "s.duckdb") as store:
        assert ingest_paths(store, [folder]).new == 43
        shutil.copy(files[-1], folder / files[-1].name)
        later = ingest_paths(store, [folder])
        assert (later.new, later.duplicate) == (1, 43)
        assert [w["warning"][:70] for w in later.warnings] == [
            "44 files of this folder name no event: read as one event 'tourney' (44"
        ]
        events = store.rows(sql="select event, date, count(*) n from raw_records group by all")
    assert events == [{"event": "tourney", "date": "", "n": 44}]

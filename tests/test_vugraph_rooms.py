"""A vugraph match keeps both rooms (issue 39): where a table's own `pn|` contradicts the file's
vugraph header, the header's players for the table's room say who sat there, with one warning per
file; and two tables in different rooms of one team match are two tables by construction, never
one player "seated twice".

The file is the bundled BBO vugraph LIN of the 2010 USBF semi-final (segment 4 of 8, boards
46-60, open and closed rooms; its header names the eight players once). Each test rewrites its
closed-room tables, in the test, the way a third-party exporter wrote a world-championship final:
each `qx|c..|` followed by its own `pn|` that repeats the open room's four names.
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from ddrank.parsers.lin import parse_lin_file
from stages.scoring import load_parsed, score_events

REPO = Path(__file__).resolve().parent.parent
LIN = REPO / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
OPEN_ROOM = "Meckstroth,Levin,Rodwell,Weinstein"  # the header's open room: S, W, N, E
CLOSED_ROOM = ("Stansby", "Hamman", "Martel", "Mahmood")
# the open room's four as an exporter writes them with their given names
OPEN_ROOM_FULL = "Jeff Meckstroth,Bobby Levin,Eric Rodwell,Steve Weinstein"


def _closed_rooms_repeat(names: str, text: str | None = None, before: bool = False) -> str:
    """The bundled file with every closed-room table naming `names` in its own `pn|`, after its
    `qx|c46|` (or, `before`, just ahead of it)."""
    text = LIN.read_text() if text is None else text
    table = r"\1pn|{names}|" if not before else r"pn|{names}|\1"
    out, n = re.subn(r"(qx\|c\d+\|)", table.format(names=names), text)
    assert n == 15  # boards 46-60
    return out


@pytest.mark.parametrize(
    ("names", "before"), [(OPEN_ROOM, False), (OPEN_ROOM_FULL, False), (OPEN_ROOM_FULL, True)]
)
def test_the_header_seats_the_closed_room_and_one_warning_names_the_conflict(
    names: str, before: bool
) -> None:
    parsed = parse_lin_file(_closed_rooms_repeat(names, before=before), "final.lin")
    closed = [r for r in parsed.records if r.room == "Closed"]
    assert len(parsed.records) == 30 and len(closed) == 15
    assert {(r.southname, r.westname, r.northname, r.eastname) for r in closed} == {CLOSED_ROOM}
    opened = {(r.southname, r.westname, r.northname, r.eastname)
              for r in parsed.records if r.room == "Open"}  # fmt: skip
    assert opened == {("Meckstroth", "Levin", "Rodwell", "Weinstein")}
    # the same records as the file as BBO wrote it: the rewrite changed nothing but the pn|
    original = parse_lin_file(LIN.read_text(), "final.lin").records
    assert [(r.room, r.board_no, r.southname, r.auction, r.result) for r in parsed.records] == [
        (r.room, r.board_no, r.southname, r.auction, r.result) for r in original
    ]
    (warning,) = parsed.warnings  # one per file, however many tables contradict the header
    line, text = warning
    assert line == 18  # the first closed-room table, qx|c46|
    shown = ", ".join(names.split(","))
    assert text == (
        f"board 46, closed room: its pn| names {shown}, whom the vugraph header (line 3) seats "
        "in the open room (and 14 more table(s) like it); the header's closed-room players are "
        "taken as who sat there"
    )


def test_a_substitute_the_header_does_not_name_is_seated_without_a_warning() -> None:
    """A table's pn| naming a player the header does not know is a lineup change, not a
    contradiction: the table's own names stand."""
    sub = "Stansby,Soloway,Martel,Mahmood"
    parsed = parse_lin_file(_closed_rooms_repeat(sub), "final.lin")
    closed = [r for r in parsed.records if r.room == "Closed"]
    assert {r.westname for r in closed} == {"Soloway"} and parsed.warnings == []


def test_two_rooms_of_one_match_are_two_tables_whatever_names_they_repeat() -> None:
    """The identity rule alone (records as a reader without the header rule would give them):
    every closed-room table repeating the open room's names is kept and the match scored; a
    table typed twice in one room is still left out."""
    parsed = parse_lin_file(LIN.read_text(), "final.lin")
    seats = ("northname", "eastname", "southname", "westname")
    for k, r in enumerate(parsed.records):
        if r.room == "Closed":  # the open room's names at the same board's closed table
            assert parsed.records[k - 1].room == "Open"
            for s in seats:
                setattr(r, s, getattr(parsed.records[k - 1], s))
    loaded = load_parsed([(LIN, parsed)])
    assert len(loaded.results) == 30 and loaded.errors == []
    (scored,) = score_events(loaded).values()
    assert {(x.pair, x.mp) for x in scored.rankings} == {("Fleisher", 41.0), ("Nickell", 30.0)}
    parsed.records.append(replace(parsed.records[0], source_line=999))  # board 46 open, again
    loaded = load_parsed([(LIN, parsed)])
    assert len(loaded.results) == 30
    (dup,) = loaded.errors
    assert dup.line == 999 and dup.message.startswith("duplicate table: player ")


def _results(tmp_path: Path, text: str) -> tuple[subprocess.CompletedProcess, Path]:
    """`ddrank results` on a folder holding the file, as a director runs it."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "final.lin").write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DDRANK_")}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", COLUMNS="250",
               PREFECT_HOME=str(tmp_path / "prefect"))  # fmt: skip
    env.pop("PREFECT_API_URL", None)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "cli.main", "results", str(folder), "--out",
                           str(out)], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done, out


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_results_scores_every_table_and_the_knockout_match_gets_its_imps(tmp_path: Path) -> None:
    """Before: "14 record(s) left out ... duplicate table: player Eric Rodwell already has a
    result on this board" and a match of 0.00 v 0.00. A knockout segment has IMPs, no VPs."""
    done, out = _results(tmp_path, _closed_rooms_repeat(OPEN_ROOM_FULL))
    assert "left out" not in done.stdout and "missing" not in done.stdout
    assert _csv(out / "errors.csv") == []
    results = _csv(out / "results.csv")
    assert len(results) == 30
    assert sum(r["ns_players"] == "Martel - Stansby" for r in results) == 15
    teams = {r["team"]: r for r in _csv(out / "teams.csv")}
    assert (teams["Fleisher"]["imps_for"], teams["Fleisher"]["imps_against"]) == ("41", "30")
    assert teams["Fleisher"]["vp"] == ""  # segment 4 of 8 of a knockout match
    assert "1    41.00  Fleisher" in done.stdout and "2    30.00  Nickell" in done.stdout
    warnings = [x for x in done.stdout.splitlines() if x.startswith("warning ")]
    assert len(warnings) == 1 and "final.lin:18: board 46, closed room" in warnings[0]


def test_results_gives_a_round_robin_match_its_vps(tmp_path: Path) -> None:
    """The same match declared a round of a round robin (its `vg|` stage rewritten in the test):
    41-30 IMPs over 15 boards is 13.13 to 6.87 on the WBF continuous scale (by hand: B = 15 *
    sqrt(15) = 58.09; 10 + 10 * (1 - 0.618^(3 * 11 / 58.09)) / (1 - 0.618^3) = 13.13)."""
    text = LIN.read_text().replace(",Segment 4 of 8,", ",Round 4,", 1)
    done, out = _results(tmp_path, _closed_rooms_repeat(OPEN_ROOM, text))
    assert _csv(out / "errors.csv") == []
    teams = {r["team"]: r for r in _csv(out / "teams.csv")}
    assert (teams["Fleisher"]["imps_for"], teams["Fleisher"]["vp"]) == ("41", "13.13")
    assert (teams["Nickell"]["imps_for"], teams["Nickell"]["vp"]) == ("30", "6.87")
    assert "1    13.13  Fleisher" in done.stdout
    assert len([x for x in done.stdout.splitlines() if x.startswith("warning ")]) == 1

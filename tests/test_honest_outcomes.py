"""A run that scores nothing the files held says so in one line and exits non-zero (issue 29);
a file of hand records only is not a failure; a CSV of travellers is refused by name.

Real terminal output: every command runs in a subprocess (`python -m cli.main`). The files are
real: the bundled 2021 qualifier's unplayed match (its 20 tables, every WALES seat a placeholder,
nothing bid), a bundled BridgeComposer hand record, and Welwyn's travellers written as a CSV.
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
HAND_RECORD = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.pbn"


def ddrank(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip


def errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


@pytest.fixture(scope="module")
def unplayed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The qualifier's WALES v ITALY games, as the file has them: 20 tables nobody played."""
    games = QUALIFIER.read_text(encoding="utf-8").split("\n\n")
    kept = [g for g in games if '[HomeTeam "WALES"]' in g or '[VisitTeam "WALES"]' in g]
    assert len(kept) == 20
    path = tmp_path_factory.mktemp("unplayed") / "wales-italy.pbn"
    path.write_text("% PBN 2.1\n" + "\n\n".join(kept) + "\n", encoding="utf-8")
    return path


def test_score_of_a_file_whose_every_table_is_left_out_fails_in_one_line(
    unplayed: Path, tmp_path: Path
) -> None:
    out = tmp_path / "score"
    done = ddrank("score", str(unplayed), "--out", str(out))
    assert done.returncode == 2, done.stdout + done.stderr
    assert errors(done.stderr) == [
        "error: nothing scored: 20 table result(s) read and every one left out (20 listed with "
        "why in errors.csv)"
    ]
    with (out / "errors.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 20 and all("not played" in r["message"] for r in rows)


def test_score_of_hand_records_only_is_no_failure(tmp_path: Path) -> None:
    done = ddrank("score", str(HAND_RECORD), "--out", str(tmp_path / "score"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert errors(done.stderr) == []
    assert "hand records only (36 deals" in " ".join(done.stdout.split())


def test_results_of_hand_records_only_say_what_the_site_holds(tmp_path: Path) -> None:
    """LBC's hand record (36 deals, each with its DoubleDummyTricks): no ranking and no blank
    line, but what the site shows."""
    done = ddrank("results", str(HAND_RECORD), "--out", str(tmp_path / "r"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [ln for ln in done.stdout.splitlines() if not ln[:2].isdigit()]  # no progress lines
    assert lines == [
        "hand records only: 36 deals, DD from the file; no table result to score",
        f"site: {tmp_path / 'r' / 'site' / 'index.html'} (open it in a browser)",
    ]


def test_a_csv_of_travellers_is_refused_by_name(tmp_path: Path) -> None:
    """Welwyn's first board as a CSV of travellers (board, pairs, contract, score, MPs): a format
    ddrank does not read, so one line naming the file and exit 2, and no empty site."""
    path = tmp_path / "travellers.csv"
    path.write_text("Board,NS,EW,Contract,By,Tricks,Score NS,Score EW,MP NS,MP EW\n"
                    "1,1,8,4H,S,9,,50,3,7\n1,14,13,4H,S,9,,50,3,7\n1,6,11,4H,S,10,420,,8,2\n")  # fmt: skip
    for command in ("score", "results"):
        out = tmp_path / command
        done = ddrank(command, str(path), "--out", str(out))
        assert done.returncode == 2, done.stdout + done.stderr
        (line,) = errors(done.stderr)
        assert line.startswith(f"error: {path}: a table (CSV) that is not the paper's bridgedeals")
        assert "not a CSV of travellers" in line
        assert not (out / "site").exists()


def test_results_that_score_nothing_exit_2_after_saying_where_the_reasons_are(
    unplayed: Path, tmp_path: Path
) -> None:
    out = tmp_path / "results"
    done = ddrank("results", str(unplayed), "--out", str(out))
    assert done.returncode == 2, done.stdout + done.stderr
    assert errors(done.stderr) == [
        "error: nothing scored: 20 table result(s) read and every one left out (20 listed with "
        "why in errors.csv)"
    ]
    assert re.search(r"20 record\(s\) left out: \S*errors\.csv", done.stdout)


RUTER_TEAMS = ROOT.parent / "shared" / "data" / "events" / "ruter-pbn" / "team.pbn"


@pytest.mark.skipif(not RUTER_TEAMS.is_file(), reason="../shared/data/events/ruter-pbn is absent "
                    "(no licence allows bundling it: SOURCES.md)")  # fmt: skip
def test_a_teams_file_of_matches_only_is_scored(tmp_path: Path) -> None:
    """Ruter's team.pbn holds the matches (60 match VPs), no table result: it is ranked from its
    match list, so `ddrank results` exits 0 and prints the published ranking (URI first, 75.23)."""
    done = ddrank("results", str(RUTER_TEAMS), "--out", str(tmp_path / "results"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert errors(done.stderr) == []
    assert "match VPs 60/60" in done.stdout
    assert re.search(r"^\s+1\s+5\s+75\.23\s+URI$", done.stdout, re.M)


def test_the_qualifier_says_which_match_it_cannot_score_and_why(tmp_path: Path) -> None:
    """The bundled 2021 qualifier: 28 teams ranked; WALES v ITALY (every WALES seat a placeholder,
    no call or card at any of its 20 tables) is named on the terminal with its first line in the
    file, not only counted."""
    done = ddrank("results", str(QUALIFIER), "--out", str(tmp_path / "results"))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "20 record(s) left out" in out
    assert (
        f"  20 left out in ITALY v WALES (not played), first {QUALIFIER}:1726: section ITALY v "
        "WALES, table 1, board 11: not played: North-South are placeholders"
    ) in out
    ranked = re.findall(r"^\s+(\d+=?)\s+-?\d+\.\d\d\s+([A-Z ]+)$", out, re.M)  # "6=": a tie
    assert len(ranked) == 28 and not {"WALES", "ITALY"} & {team for _, team in ranked}


def test_check_tells_records_left_out_from_lines_missing() -> None:
    """`ddrank check` on the qualifier: the unplayed match's 20 records are left out; the one
    board entered for one room only is a missing line, not a record left out."""
    done = ddrank("check", str(QUALIFIER))
    assert done.returncode == 0, done.stdout + done.stderr
    out = " ".join(done.stdout.split())
    assert (
        "left out 20 record(s), the first: online-qualifier-2021-example2.pbn:1726: section "
        "ITALY v WALES, table 1, board 11: not played"
    ) in out
    assert (
        "missing 1 traveller line(s) the movement expects, the first: "
        "online-qualifier-2021-example2.pbn: section SWITZERLAND v TURKEY, board 20"
    ) in out

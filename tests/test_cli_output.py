"""What the terminal shows besides results: the documented `error:` line for every missing file,
a closed pipe that is no error, plain progress lines without a terminal, counts that say what
they count, and search that ignores accents and case.

Commands run in subprocesses (`python -m cli.main`) with pipes for stdout and stderr: no
terminal, as in a log file or a CI job.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_lines import only_start_up_lines

ROOT = Path(__file__).resolve().parent.parent
QUALIFIER = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
BWS = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws"


def ddrank(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1",
               **env}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


MISSING = "/nowhere/at-all.xml"


@pytest.mark.parametrize("args", [
    ["results", MISSING],
    ["score", MISSING],
    ["ingest", MISSING],
    ["run", MISSING],
    ["run", "--config", MISSING],
    ["regress", "--input", MISSING],
    ["score", "--valet", MISSING],
])  # fmt: skip
def test_a_missing_file_is_one_error_line_on_every_command(args: list[str], tmp_path: Path) -> None:
    """No typer panel: one line starting `error:` on stderr, exit status 2, nothing written."""
    done = ddrank(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert MISSING in lines[0] or "/nowhere/at-all.xml" in lines[0]
    assert "╭" not in done.stderr and "Errno" not in done.stderr
    assert only_start_up_lines(done.stdout), done.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_usage_error_is_one_error_line_naming_the_help() -> None:
    done = ddrank("results", "--no-such-option")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: No such option: --no-such-option")
    assert lines[0].endswith(" results --help`)")


def _read_one_line_and_close(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run `ddrank ARGS | head -1`: read one line, close the pipe, return the exit status."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does after its line
    err = proc.stderr.read()
    return proc.wait(timeout=600), first + err


@pytest.mark.parametrize("args", [["--help"], ["score", str(QUALIFIER)]])
def test_a_closed_pipe_is_not_an_error(args: list[str], tmp_path: Path) -> None:
    """`ddrank ... | head -1` exits 0 with nothing on stderr; the command still did its work."""
    extra = ["--out", str(tmp_path / "out")] if args[0] == "score" else []
    status, text = _read_one_line_and_close(args + extra, tmp_path)
    assert status == 0, text
    assert "Traceback" not in text and "Broken pipe" not in text and "error" not in text.lower()
    if args[0] == "score":  # the rest of the output was dropped, not the work
        assert (tmp_path / "out" / "report.md").is_file()


def test_results_without_a_terminal_prints_plain_progress_lines(tmp_path: Path) -> None:
    """Piped, each stage says when it starts and ends, timestamped, before the ranking."""
    done = ddrank("results", str(BWS), "--out", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    started = [ln for ln in lines if ln.endswith(": started")]
    finished = [ln for ln in lines if ": done, " in ln]
    for stage in ("ingest", "clean", "scoring", "site"):
        assert any(ln.split(" ", 1)[1] == f"{stage}: started" for ln in started), lines[:12]
        assert any(ln.split(" ", 1)[1].startswith(f"{stage}: done, ") for ln in finished)
    assert all(ln[2] == ":" and ln[5] == ":" for ln in started + finished)  # HH:MM:SS first
    assert "\x1b[" not in done.stdout and "━" not in done.stdout  # no live bar, no colour codes
    assert lines.index(finished[-1]) < next(k for k, ln in enumerate(lines) if "section A" in ln)


def test_report_never_says_ours_none(tmp_path: Path) -> None:
    """The qualifier's board 20 of SWITZERLAND v TURKEY has no other room: no IMPs to compare
    with the published -1, and the report says why instead of 'None'."""
    done = ddrank("score", str(QUALIFIER), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    assert "None" not in report
    line = next(ln for ln in report.splitlines() if "SWITZERLAND v TURKEY, board 20, NS" in ln)
    assert line.endswith("ours none (no other result on the board to compare it with), "
                         "published -1 (the file holds no other table of this board)")  # fmt: skip


def test_every_count_of_the_run_summary_names_what_it_counts() -> None:
    from cli.run_summary import names_line

    line = names_line({"names": 531, "matched": 362, "scope": "covered"})
    assert line == ("names: 362 of 531 seat names (one per name and event) matched to the "
                    "ranking list; ranking list applied to covered events")  # fmt: skip
    assert names_line({"skipped": "names_scope is none"}) == (
        "names: not matched (names_scope is none)"
    )


@pytest.mark.parametrize(("query", "name"), [
    ("Remi", "Rémi Dupont"), ("remi", "RÉMI DUPONT"), ("sandstrom", "Magnus Sandström"),
    ("lukasz", "Łukasz Tomaszewski"), ("SOREN", "Søren Christiansen"), ("o'connor", "Ann O’Connor"),
    ("  jean   paul ", "Jean Paul Martin"),
])  # fmt: skip
def test_search_ignores_accents_case_and_spacing(query: str, name: str) -> None:
    from ddrank.text import matches

    assert matches(query, name)


def test_pick_finds_one_name_and_says_when_several_match() -> None:
    from stages.lookup import pick

    names = ["Rémi Dupont", "Remy Durand", "Ann Smith"]
    assert pick("remi", names, "player") == "Rémi Dupont"
    assert pick("REMI DUPONT", names, "player") == "Rémi Dupont"
    with pytest.raises(ValueError, match="2 players match 'rem'"):
        pick("rem", names, "player")
    with pytest.raises(ValueError, match="no player matches 'zed'"):
        pick("zed", names, "player")


def test_the_ratings_line_says_what_exists() -> None:
    """`ddrank run`'s ratings line: "none" only when no player is rated; a store whose players
    all have fewer boards than the top list needs says how many are rated (it said "none in the
    store yet" while `ddrank player` showed a Lehman rating)."""
    from cli.run_summary import ratings_line

    assert ratings_line({"ratings": [], "rated": 0}) == (
        "ratings: none yet (no scored event rates its players)")  # fmt: skip
    assert ratings_line({"ratings": [], "rated": 8, "min_boards_listed": 30}) == (
        "ratings: 8 players have a Lehman rating (on the Ratings page and `ddrank player`); none "
        "has the 30 boards the top list needs yet")  # fmt: skip
    top = [{"player": "a", "name": "Ann", "rating": 55.04}, {"player": "b", "rating": 51.0}]
    assert ratings_line({"ratings": top, "rated": 2, "min_boards_listed": 30}) == (
        "top Lehman ratings (at least 30 boards): Ann 55.0; b 51.0")  # fmt: skip

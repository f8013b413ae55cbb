"""CLI messages: each error once, no raw rich markup, and what the console shows obeys the flags.

Real terminal output: every command runs in a subprocess (`python -m cli.main`), so logging
handlers and rich consoles behave as they do for a user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_lines import only_start_up_lines

ROOT = Path(__file__).resolve().parent.parent
WOMEN = ROOT / "data" / "valet" / "2013-world-women"


def ddrank(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def _field(line: str, index: int, value: str) -> str:
    parts = line.split("|")
    parts[index] = value
    return "|".join(parts)


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Venice Cup 2013 Valet files with two bad lines (as in tests/test_valet.py)."""
    d = tmp_path_factory.mktemp("valet") / "women"
    shutil.copytree(WOMEN, d)
    lines = (d / "scores.txt").read_text().splitlines()
    lines[9] = _field(lines[9], 8, "")  # line 10: missing result
    lines[19] = _field(lines[19], 6, "0H")  # line 20: impossible contract
    (d / "scores.txt").write_text("\n".join(lines) + "\n")
    return d


def test_score_lists_each_bad_record_once_without_markup(damaged: Path, tmp_path: Path) -> None:
    done = ddrank("score", "--valet", str(damaged), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    assert "[yellow]" not in text and "[/" not in text and "[dim]" not in text
    assert text.count("missing result") == 1
    assert text.count("impossible contract '0H'") == 1
    assert text.count("left out ") == 2  # "left out <record>" once per bad record


def test_console_top_10_honours_min_boards(damaged: Path, tmp_path: Path) -> None:
    done = ddrank("score", "--valet", str(damaged), "--out", str(tmp_path), "--min-boards", "250")
    assert done.returncode == 0, done.stderr
    assert "top 10 by mp_pct, 250+ boards" in done.stdout
    rows = [r.split("│") for r in done.stdout.splitlines() if r.startswith("│")]
    assert len(rows) == 10
    assert all(int(r[2]) >= 250 for r in rows)
    default = ddrank("score", "--valet", str(damaged), "--out", str(tmp_path / "d"))
    boards = [int(r.split("│")[2]) for r in default.stdout.splitlines() if r.startswith("│")]
    assert min(boards) < 250  # the filter above really removed someone


def test_a_missing_file_is_one_line_with_its_brackets(tmp_path: Path) -> None:
    missing = tmp_path / "[Deal] board.pbn"
    for args in (["ingest", str(missing), "--db", str(tmp_path / "s.duckdb")],
                 ["run", str(missing), "--db", str(tmp_path / "s.duckdb"),
                  "--out", str(tmp_path / "out")]):  # fmt: skip
        done = ddrank(*args)
        assert done.returncode == 2
        assert only_start_up_lines(done.stdout), done.stdout  # (`run` talks from its start)
        lines = done.stderr.strip().splitlines()
        assert lines == [f"error: {missing}: no such file or folder"], done.stderr


def test_report_states_where_its_thresholds_come_from() -> None:
    from ddrank.regression.defaults import TABLE9_MINIMA
    from ddrank.regression.report import _thresholds_origin

    paper = {k: float(v) for k, v in TABLE9_MINIMA.items()}
    assert _thresholds_origin(paper, "data/paper/dds_final_results.csv") == (
        "These are the paper's Table 9 minima. `ddrank regress --input "
        "data/paper/dds_final_results.csv --min-claims 362 --min-leads 100 --min-cards-declarer "
        "1408 --min-cards-defender 1424 --min-auctions 392` reproduces this filter."
    )
    scaled = dict(zip(paper, (15.0, 4.0, 57.0, 57.0, 16.0), strict=True))
    text = _thresholds_origin(scaled, "data/ddrank.duckdb:player_stats")
    assert "scales each one by this store's boards / 190,622" in text
    assert text.endswith(
        "`ddrank regress --db data/ddrank.duckdb --min-claims 15 --min-leads 4 "
        "--min-cards-declarer 57 --min-cards-defender 57 --min-auctions 16` reproduces this filter."
    )

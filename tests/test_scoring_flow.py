"""`ddrank run`'s score → ratings → split stage: outputs in out/, and a rerun with one new file
scores only that file's event (the others are cached on their content)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
USEBIO = (
    ROOT.parent / "shared" / "data" / "events" / "usebio" / "realbridge-club-2025-04-07.usebio.xml"
)

pytestmark = pytest.mark.flow


def _run(tmp: Path, inputs: list[Path]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.update(
        DDRANK_DB=str(tmp / "store.duckdb"),
        DDRANK_INPUTS="[" + ", ".join(f'"{p}"' for p in inputs) + "]",
        DDRANK_OUT=str(tmp / "out"),
        DDRANK_WORKERS="2",
        DO_NOT_TRACK="1",
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
    )
    env.pop("PREFECT_API_URL", None)
    return subprocess.run([sys.executable, "-m", "flows.pipeline"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip


@pytest.mark.skipif(not USEBIO.is_file(), reason="../shared/data/events is absent")
def test_run_scores_rates_and_rescores_only_the_new_event(tmp_path: Path) -> None:
    first = _run(tmp_path, [LIN])
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert "scoring: 1 event(s) scored, 0 unchanged" in first.stdout + first.stderr  # flow log
    out = tmp_path / "out"
    for name in ("results.csv", "ranking.csv", "ratings.csv", "teams.csv"):
        assert (out / name).is_file(), name
    with (out / "ranking.csv").open() as fh:
        header = next(csv.reader(fh))
    assert header == ["event", "session", "section", "direction", "pair", "players", "boards",
                      "mp", "pct", "rank"]  # fmt: skip

    second = _run(tmp_path, [LIN, USEBIO])
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "scoring: 1 event(s) scored, 1 unchanged" in second.stdout + second.stderr
    con = duckdb.connect(str(tmp_path / "store.duckdb"), read_only=True)
    try:
        assert con.sql("select count(*) from scored_events").fetchall() == [(2,)]
        published = con.sql("select count(*), count(*) filter (where abs(ns_mp - published_ns_mp)"
                            " <= 0.01) from scored_results where published_ns_mp is not null"
                            ).fetchall()  # fmt: skip
        assert published == [(168, 168)]
        periods = con.sql("select count(*) from rating_periods").fetchall()
        assert periods == [(2,)]
    finally:
        con.close()
    report = (out / "report.md").read_text()
    assert "| matchpoints per line | 168 | 168 | 0 |" in report

"""`ddrank results` end to end on Welwyn: the pipeline flow without DD, names or regression,
its ranking in the terminal with the method and the agreement, the site written (issue 22)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parent.parent
WELWYN = ROOT.parent / "shared" / "data" / "events" / "usebio" / "welwyn-2025-04-09.usebio.xml"


@pytest.mark.skipif(
    not WELWYN.is_file(),
    reason="../shared/data/events is absent; the Welwyn USEBIO file may not be bundled (SOURCES.md)",
)
def test_results_on_welwyn_prints_the_ranking_and_reproduces_the_published_values(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DDRANK_")}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", COLUMNS="250",
               PREFECT_HOME=str(tmp_path / "prefect"))  # fmt: skip
    env.pop("PREFECT_API_URL", None)
    out = tmp_path / "welwyn"
    done = subprocess.run([sys.executable, "-m", "cli.main", "results", str(WELWYN), "--out",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    assert "Wednesday AM Pairs, 2025-04-09: matchpoints: method none" in text
    assert "matchpoints per line 144/144, final percentage 13/13, place 13/13" in text
    assert "1  62.01923%  Sheila Gabriel - Jacqueline Collier" in text  # BriAn's printed digits
    assert "published " not in text.split("checked against the source")[1]  # nothing differs
    assert (out / "site" / "index.html").is_file()
    con = duckdb.connect(str(out / "results.duckdb"), read_only=True)
    try:
        assert con.sql("select count(*) from dd_tables").fetchall() == [(0,)]  # no DD run
        assert con.sql("select mp_method, mp_top, published_compared, published_agree "
                       "from scored_events").fetchall() == [("none", 2.0, 170, 170)]  # fmt: skip
    finally:
        con.close()

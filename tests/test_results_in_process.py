"""`ddrank results` runs the stage list in its own process, without Prefect, and gives the numbers
the Prefect flow gives: one stage list, one settings model (issue 30).

Real records: the bundled ACBL Bridgemate game (LBC, 27 boards, 270 results).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BWS = ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws"
#: What the interactive path must not load (seconds each, and no use to a director's results).
HEAVY = ("prefect", "statsmodels", "matplotlib", "sklearn", "lightgbm", "rapidfuzz", "endplay",
         "dask", "pandas", "scipy", "pyarrow", "numpy")  # fmt: skip


def ddrank(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1",
               **env}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def test_results_loads_no_prefect_and_no_research_package(tmp_path: Path) -> None:
    done = ddrank("results", str(BWS), "--out", str(tmp_path / "r"), PYTHONPROFILEIMPORTTIME="1")
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = {line.rsplit("|", 1)[-1].strip().split(".")[0]
              for line in done.stderr.splitlines() if line.startswith("import time:")}  # fmt: skip
    assert "duckdb" in loaded and "polars" in loaded  # the probe sees what is imported
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert (tmp_path / "r" / "site" / "index.html").is_file()


def _tables(db: Path) -> dict[str, list[tuple]]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            "scored_results": con.execute(
                "select * exclude (content_hash) from scored_results order by record_id").fetchall(),
            "rankings": con.execute("select * from rankings order by all").fetchall(),
            "scored_events": con.execute(
                "select * exclude (content_hash) from scored_events order by event").fetchall(),
            "boards": con.execute("select count(*) from boards").fetchall(),
        }  # fmt: skip
    finally:
        con.close()


@pytest.mark.flow
def test_results_in_process_give_the_flows_numbers(tmp_path: Path) -> None:
    """The same settings through the Prefect flow (as `ddrank run` and a deployment run them) and
    in process (`ddrank results`): the same scores, rankings and methods, row for row. The flow
    runs on the worker's Prefect API (tests/prefect_server.py): a server start of its own is
    `ddrank run`'s, covered by the session's run (tests/conftest.py `lin_pipeline`)."""
    done = ddrank("results", str(BWS), "--out", str(tmp_path / "cli"), "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    probe = (
        "import sys\nfrom flows.pipeline import run_pipeline\nfrom stages.settings import "
        "load_settings\nout = sys.argv[1]\n"
        "s = load_settings(None, inputs=[sys.argv[2]], out=out, db=out + '/results.duckdb', "
        "double_dummy=False, regression=False, ratings=False, names_scope='none')\n"
        "r = run_pipeline(s)\nprint(sorted(r['timings']))"
    )  # fmt: skip
    from prefect_server import worker_api

    with worker_api() as api:  # the worker's Prefect API, as a deployment's run has its server's
        flow = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "flow"), str(BWS)],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                             "DO_NOT_TRACK": "1", "PREFECT_API_URL": api},
                              capture_output=True, text=True, timeout=900)  # fmt: skip
    assert flow.returncode == 0, flow.stderr[-3000:]
    # it really went through Prefect: the pipeline flow run's own log line, from Prefect
    assert re.search(r"Flow run '[^']+' - Finished in state Completed", flow.stdout + flow.stderr)
    ours, theirs = (
        _tables(tmp_path / "cli" / "results.duckdb"),
        _tables(tmp_path / "flow" / "results.duckdb"),
    )
    assert ours["boards"] == [(270,)]
    assert ours == theirs


def test_ctrl_c_stops_results_cleanly_and_the_rerun_gives_the_same_rankings(
    tmp_path: Path,
) -> None:
    """A real SIGINT to the command's process group (a terminal's Ctrl-C) while it cleans: exit
    130, one line saying so, no traceback; the same command again finishes (the store and its
    lock are usable) with the rankings of a run never interrupted."""
    out = tmp_path / "stopped"
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "results", str(BWS), "--out",
                             str(out)], cwd=ROOT, env=environ, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:  # plain progress lines (no terminal here), with the output
        seen.append(line)
        if "clean: started" in line:
            os.killpg(proc.pid, signal.SIGINT)
            break
    rest_out, err = proc.communicate(timeout=300)
    assert seen[-1].endswith("clean: started\n"), "".join(seen)  # stopped while it worked
    assert proc.returncode == 130, err[-2000:]
    assert "stopped by SIGINT" in err and "run the same command again" in err, err[-2000:]
    assert "Traceback" not in err and "site:" not in rest_out, (rest_out, err)
    again = ddrank("results", str(BWS), "--out", str(out))
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"site: {out / 'site' / 'index.html'}" in again.stdout
    whole = ddrank("results", str(BWS), "--out", str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr[-2000:]
    ours, theirs = _tables(out / "results.duckdb"), _tables(tmp_path / "whole" / "results.duckdb")
    assert ours == theirs and ours["boards"] == [(270,)]


def test_compiled_templates_are_kept_and_an_unwritable_cache_costs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's templates are compiled once per install, like Python's bytecode; a cache folder
    that cannot be made or written never fails the site."""
    from jinja2 import Environment

    from ddrank.site.render import environment
    from publish.site.writer import TemplateCache, template_cache

    monkeypatch.setenv("DDRANK_CACHE_DIR", str(tmp_path / "cache"))
    cache = template_cache()
    assert isinstance(cache, TemplateCache)
    environment(cache).get_template("board.html")
    kept = list((tmp_path / "cache" / "templates").iterdir())
    assert len(kept) == 1
    compiled = []
    monkeypatch.setattr(Environment, "_compile", lambda *a: compiled.append(a) or None)
    environment(cache).get_template("board.html")  # read from the cache: nothing compiled
    assert compiled == []
    monkeypatch.undo()
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("DDRANK_CACHE_DIR", str(tmp_path / "file"))  # a file: no folder there
    assert template_cache() is None
    done = ddrank("results", str(BWS), "--out", str(tmp_path / "r"),
                  DDRANK_CACHE_DIR=str(tmp_path / "file"))  # fmt: skip
    assert done.returncode == 0 and (tmp_path / "r" / "site" / "index.html").is_file()


def test_a_second_run_says_nothing_is_new_and_json_is_json_only(tmp_path: Path) -> None:
    """The last line says where the site is; the same files again say at once that nothing is
    new (the ranking shown is the store's); --json prints nothing but the JSON document."""
    import json

    out = tmp_path / "r"
    first = ddrank("results", str(BWS), "--out", str(out))
    assert first.returncode == 0, first.stderr[-2000:]
    site = f"site: {out / 'site' / 'index.html'} (open it in a browser)"
    assert first.stdout.splitlines()[-1] == site
    assert "nothing new" not in first.stdout
    again = ddrank("results", str(BWS), "--out", str(out))
    assert again.returncode == 0, again.stderr[-2000:]
    *_, said, last = again.stdout.splitlines()
    assert said.startswith("nothing new since ") and "1 file(s) unchanged" in said, said
    assert last == site
    assert "Kevin Patterson - Sudhir Kulkarni" in again.stdout  # the store's ranking
    player = ddrank("player", "kevin patterson", "--db", str(out / "results.duckdb"))
    assert player.returncode == 0, player.stderr[-2000:]
    head, event, profile, *_ = player.stdout.splitlines()
    assert head == "Kevin Patterson: 27 boards in 1 event(s)"
    assert event == "  Bridge game: 27 boards"
    assert profile.startswith("Double-dummy mistake profile: none yet")  # no 0 / 0 table
    as_json = json.loads(ddrank("results", str(BWS), "--out", str(out), "--json").stdout)
    assert as_json["site"] == str(out / "site" / "index.html")
    assert as_json["db"] == str(out / "results.duckdb") and as_json["events"]

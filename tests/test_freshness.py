"""`ddrank run` decides "nothing new" from the last run's manifest: each difference must rerun.

Real records: the bundled BBO vugraph file (30 table results), ingested and cleaned into a store
with the plain task functions (no Prefect server).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stages import freshness
from stages.clean import clean_pending
from stages.ingest import ingest_paths
from stages.settings import load_settings
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
PBN = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"


@pytest.fixture
def finished(tmp_path: Path):  # noqa: ANN201 - returns settings
    """A store holding the LIN file, cleaned, with one report and the manifest of that run."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(LIN, inbox / LIN.name)
    settings = load_settings(inputs=[str(inbox)], db=str(tmp_path / "s.duckdb"),
                             out=str(tmp_path / "out"))  # fmt: skip
    started = time.time()
    con = connect(settings.db)
    ingest_paths(con, [inbox])
    clean_pending(con, 1)
    con.close()
    (tmp_path / "out" / "regression").mkdir(parents=True)
    (tmp_path / "out" / "regression" / "report.md").write_text("# report\n")
    freshness.write_manifest(settings, started, {})
    return settings


def test_nothing_new_after_a_finished_run(finished) -> None:
    verdict = freshness.check(finished)
    assert verdict.nothing_new and verdict.files == 1
    assert verdict.outputs == ("regression/report.md",)
    msg = verdict.message(finished.out)
    assert msg.startswith("nothing new since ") and " UTC: 1 file(s) unchanged; " in msg
    assert f"results in {finished.out}/" in msg


def test_force_runs_anyway(finished) -> None:
    forced = finished.model_copy(update={"force": True})
    assert not freshness.check(forced).nothing_new


def test_a_new_file_in_the_inbox_is_new(finished) -> None:
    shutil.copy(PBN, Path(finished.inputs[0]) / PBN.name)
    assert freshness.check(finished).reason == "1 input file(s) new or changed"


def test_a_changed_file_is_new(finished) -> None:
    f = Path(finished.inputs[0]) / LIN.name
    f.write_text(f.read_text() + "\n")
    assert freshness.check(finished).reason == "1 input file(s) new or changed"


def test_records_ingested_by_another_command_are_new(finished) -> None:
    con = connect(finished.db)
    ingest_paths(con, [PBN])  # `ddrank ingest` on the same store, outside the run's inputs
    con.close()
    assert freshness.check(finished).reason == "the store changed since the last run"


def test_a_deleted_report_is_rebuilt(finished) -> None:
    (Path(finished.out) / "regression" / "report.md").unlink()
    assert freshness.check(finished).reason.startswith("1 output file(s) missing")


def test_other_settings_rerun_but_more_workers_do_not(finished) -> None:
    assert not freshness.check(finished.model_copy(update={"response": "mp"})).nothing_new
    assert freshness.check(finished.model_copy(update={"workers": 7})).nothing_new


def test_a_store_another_process_writes_is_not_judged(finished) -> None:
    """DuckDB lets one process open a store it writes: the run goes ahead (and reports the lock)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, time\ncon = duckdb.connect({finished.db!r})\n"
         "print('held', flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert freshness.store_counts(finished.db) is None
        assert freshness.check(finished).reason.startswith("the store cannot be read")
    finally:
        holder.kill()
        holder.wait()
    assert freshness.check(finished).nothing_new


def test_no_manifest_runs(finished) -> None:
    freshness.manifest_path(finished.out).unlink()
    assert freshness.check(finished).reason.startswith("no record of a finished run")


def test_a_missing_input_is_a_clear_error(tmp_path: Path) -> None:
    settings = load_settings(inputs=[str(tmp_path / "nope.pbn")], out=str(tmp_path / "o"))
    with pytest.raises(FileNotFoundError, match="nope.pbn: no such file or folder"):
        freshness.check(settings)


def test_the_same_files_named_from_another_folder_are_nothing_new(
    finished, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inputs, store and output spelled relative to the parent folder: the same run."""
    root = Path(finished.db).parent
    monkeypatch.chdir(root.parent)
    spelled = finished.model_copy(update={
        "inputs": [f"{root.name}/inbox"], "db": f"{root.name}/s.duckdb",
        "out": f"{root.name}/out"})  # fmt: skip
    assert freshness.check(spelled).nothing_new


def test_a_file_ingested_again_by_another_path_adds_no_source(finished, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    con = connect(finished.db)
    summary = ingest_paths(con, [Path("inbox") / LIN.name])  # relative, not as first ingested
    rows = con.execute("select path from source_files").fetchall()
    con.close()
    assert summary.new == 0 and summary.per_file[0]["format"] == "unchanged"
    assert len(rows) == 1

"""One `ddrank run` opens its store once and hashes each input file once; "nothing new" is keyed
by content, so the same files moved to another folder are nothing new (issue 31).

Real records: the bundled BBO vugraph file (30 table results, 15 deals) and the first 24 table
results of the bundled 2012 world-class PBN, in one input folder. The run goes through the CLI in
this process (a real Prefect flow on the worker's Prefect API, tests/prefect_server.py, as a user
with a server configured runs it; DD solved in spawned workers), with
`store.store.open_connection` and `store.inputs.files.file_sha1` counted.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
WORLDCLASS = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"

pytestmark = pytest.mark.flow


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, Counter]:
    """Every store opened (by path) and every file hashed (by resolved path) from now on."""
    import store.inputs.files as files
    import store.store as store_module

    seen: dict[str, Counter] = {"opens": Counter(), "hashes": Counter()}
    open_connection, file_sha1 = store_module.open_connection, files.file_sha1

    def counting_open(path, read_only=False):  # noqa: ANN001, ANN202
        seen["opens"][str(Path(path).resolve())] += 1
        return open_connection(path, read_only)

    def counting_sha1(path):  # noqa: ANN001, ANN202
        seen["hashes"][str(Path(path).resolve())] += 1
        return file_sha1(path)

    monkeypatch.setattr(store_module, "open_connection", counting_open)
    monkeypatch.setattr(files, "file_sha1", counting_sha1)
    return seen


def ddrank_run(*args: str) -> dict:
    from cli.main import app

    result = CliRunner().invoke(app, ["run", *args, "--json", "--workers", "2"])
    assert result.exit_code == 0, result.output[-3000:]
    return json.loads(result.stdout[result.stdout.index("{") :])


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "first-folder"
    folder.mkdir()
    shutil.copy(LIN, folder / LIN.name)
    blocks = WORLDCLASS.read_text(encoding="latin-1").split("\n\n")
    (folder / "worldclass-2012-first24.pbn").write_text("\n\n".join(blocks[:24]) + "\n",
                                                        encoding="latin-1")  # fmt: skip
    return folder


def test_one_store_open_and_one_hash_per_input_then_nothing_new_after_a_move(
    inputs: Path, tmp_path: Path, counted: dict[str, Counter], monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect_server import worker_api

    monkeypatch.setenv("DO_NOT_TRACK", "1")
    monkeypatch.setenv("PREFECT_LOCAL_STORAGE_PATH", str(tmp_path / "prefect-results"))
    db, out = tmp_path / "store.duckdb", tmp_path / "out"
    files = sorted(str(p.resolve()) for p in inputs.iterdir())

    with worker_api():  # no server of its own (the CLI starting one: conftest lin_pipeline)
        summary = ddrank_run(str(inputs), "--db", str(db), "--out", str(out))
    assert summary["ingest"]["new"] == 54 and summary["audit"]["balanced"]
    assert summary["dd"]["tables_computed"] >= 20 and summary["site"]["events"] == 2
    # every stage ran on the one store the run opened, and each input was hashed once
    assert dict(counted["opens"]) == {str(db.resolve()): 1}
    assert dict(counted["hashes"]) == dict.fromkeys(files, 1)

    moved = tmp_path / "elsewhere" / "second-folder"
    moved.parent.mkdir()
    shutil.move(inputs, moved)
    counted["opens"].clear()
    counted["hashes"].clear()
    again = ddrank_run(str(moved), "--db", str(db), "--out", str(out))
    assert again["nothing_new"] is True and again["files"] == 2, again
    assert dict(counted["opens"]) == {str(db.resolve()): 1}
    assert dict(counted["hashes"]) == {str(p.resolve()): 1 for p in moved.iterdir()}
    assert os.path.isfile(out / "site" / "index.html")

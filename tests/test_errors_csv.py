"""Every line of errors.csv names the input file and where the record is in it (issue 29): its
line, and the table, round and board as the source gives them, read straight from the files
(`ddrank score FILE`) and through the store (`ddrank results`: cleaning's exclusions too).

Real files with real problems: the PBN standard's deliberate-error file (bundled), the 2021
qualifier's unplayed match and one-room board (bundled), a Compscore Mitchell with boards its
travellers lack, and a BridgeComposer session with a meeting that played one board of its set.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from publish.scores import ERRORS_COLUMNS
from stages.scoring import score_files

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "events"
BUNDLED = [REPO / "tests" / "data" / "pbn-verifier" / "errors_20.pbn",
           REPO / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"]  # fmt: skip
SHARED_FILES = [SHARED / "compscore-usebio" / "mp_pairs_mitchell_04.xml",
                SHARED / "bridgecomposer-pairs" / "PABC_2025-12-23_D251223M.pbn"]  # fmt: skip


def _files() -> list[Path]:
    present = [p for p in BUNDLED if p.is_file()]
    return present + [p for p in SHARED_FILES if p.is_file()]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames == ERRORS_COLUMNS
        return list(reader)


def _named_where(rows: list[dict[str, str]], files: list[Path]) -> None:
    names = {str(f) for f in files}
    for r in rows:
        assert r["source"] in names, r
        if r["kind"] == "missing":  # a line that is not in the file: its board, round and table
            assert r["board"] and not r["line"], r
        else:  # a record read: the line it starts on (the only place a bare game has)
            assert r["line"].isdigit() and int(r["line"]) > 0, r
        assert r["kind"] in ("left out", "missing", "note") and r["message"], r


def test_errors_csv_from_the_files(tmp_path: Path) -> None:
    files = _files()
    if len(files) < 3:
        pytest.skip("../shared/data/events is absent: Compscore and BridgeComposer files may not "
                    "be bundled (SOURCES.md)")  # fmt: skip
    summary = score_files([str(f) for f in files], str(tmp_path))
    rows = _rows(tmp_path / "errors.csv")
    _named_where(rows, files)
    kinds = {(Path(r["source"]).name, r["kind"]) for r in rows}
    assert {("errors_20.pbn", "left out"), ("online-qualifier-2021-example2.pbn", "left out"),
            ("online-qualifier-2021-example2.pbn", "missing"),
            ("mp_pairs_mitchell_04.xml", "missing"),
            ("PABC_2025-12-23_D251223M.pbn", "missing")} <= kinds  # fmt: skip
    wales = [r for r in rows if "not played" in r["message"]]
    assert len(wales) == 20 and {r["table"] for r in wales} == {"1", "17"}
    assert {r["section"] for r in wales} == {"ITALY v WALES"}
    assert {r["board"] for r in wales} == {str(b) for b in range(11, 21)}
    assert summary["errors"] == sum(r["kind"] == "left out" for r in rows)


def test_errors_csv_through_the_store_names_files_not_the_store(tmp_path: Path) -> None:
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from stages.scoring_stage import score_store
    from store import Store

    files = _files()
    db = tmp_path / "s.duckdb"
    with Store(str(db)) as store:
        ingest_paths(store, files)
        clean_pending(store)
        score_store(store, str(tmp_path / "out"))
        places = store.con.execute("select count(*), count(place) from exclusions").fetchone()
    rows = _rows(tmp_path / "out" / "errors.csv")
    assert rows and not [r for r in rows if "duckdb" in r["source"]]
    _named_where(rows, files)
    assert places[0] > 0 and places[0] == places[1]  # every exclusion keeps its place
    qualifier = [r for r in rows if r["source"].endswith("online-qualifier-2021-example2.pbn")]
    assert {r["kind"] for r in qualifier} == {"left out", "missing"}
    assert all(r["event"] and r["board"] for r in qualifier)

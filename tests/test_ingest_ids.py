"""The ingest's compact set of spooled record ids (stages.ingest_ids) answers as a Python set does:
through its compactions into sorted runs, their merges, ids sharing their high 64 bits, ids that
are not 20 hex digits, and the removal of a refused file's ids."""

from __future__ import annotations

import random

import pytest

from stages import ingest_ids
from stages.ingest_ids import SeenIds


@pytest.fixture(autouse=True)
def small_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest_ids, "SET_IDS", 50)  # many compactions and merges


def _ids(rng: random.Random, n: int) -> list[str]:
    return [f"{rng.getrandbits(80):020x}" for _ in range(n)]


def test_among_answers_as_a_set_does_through_compactions_and_merges() -> None:
    rng = random.Random(37)
    seen, plain = SeenIds(), set()
    twins = [f"{rng.getrandbits(64):016x}{low:04x}" for low in (1, 2, 3)]  # same high 64 bits
    odd = ["not-hex_1", "abc", "0123456789abcdef012 ", "0123456789abcdefg123"]  # not 20 hex digits
    for batch_no in range(40):
        batch = _ids(rng, 30)
        batch += rng.sample(sorted(plain), min(5, len(plain)))
        if batch_no == 7:
            batch += [twins[0], twins[1], *odd]
        if batch_no > 20:
            batch.append(twins[2])  # never added: its twins are held
        assert seen.among(batch) == {k for k in batch if k in plain}, batch_no
        new = {k for k in batch if k not in plain and k != twins[2]}
        seen.update(new)
        plain |= new
        assert len(seen) == len(plain)
    assert len(seen._runs) > 1  # noqa: SLF001 - merged runs of several sizes
    assert seen.among([twins[2]]) == set()
    assert seen.among(twins[:2]) == set(twins[:2])
    assert seen.among(odd) == set(odd)  # (kept in the Python set)


def test_difference_update_forgets_exactly_those_ids() -> None:
    rng = random.Random(2026)
    seen, plain = SeenIds(), set()
    for _ in range(10):
        new = set(_ids(rng, 40))
        seen.update(new)
        plain |= new
    gone = set(rng.sample(sorted(plain), 120)) | {"never-held"}
    seen.difference_update(gone)
    plain -= gone
    probe = sorted(gone - {"never-held"}) + sorted(plain)[:200]
    assert seen.among(probe) == {k for k in probe if k in plain}
    assert len(seen) == len(plain)


def test_an_ingest_past_many_compactions_stores_each_record_once(tmp_path) -> None:  # noqa: ANN001
    """The real sample (7,632 table results) and a copy of it in one ingest, the set compacted
    every 50 ids: the copy's records are all duplicates, as with a plain set."""
    import shutil
    from pathlib import Path

    from stages.ingest import ingest_paths
    from store import Store

    pbn = (
        Path(__file__).resolve().parent.parent
        / "ddrank/data/sample/pbn/worldclass-2012-example3.pbn"
    )
    for name in ("a.pbn", "b.pbn"):
        shutil.copy(pbn, tmp_path / name)
    with Store(tmp_path / "s.duckdb") as store:
        summary = ingest_paths(store, [tmp_path / "a.pbn", tmp_path / "b.pbn"], workers=1)
        assert (summary.new, summary.duplicate) == (7632, 7632)
        assert store.table_count("raw_records") == 7632

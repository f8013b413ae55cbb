"""One reader interface: the registry's sniffers tell each real file's format, and `read(path)`
(store/inputs) gives what the registry's `bytes -> ParsedFile` reader gives for the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddrank.parsers.registry import READERS, UnreadableFile, read_bytes, sniff
from store.inputs import read

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "ddrank" / "data" / "sample"
EVENTS = ROOT.parent / "shared" / "data" / "events"

# real files, their format and the table results each holds (counts from docs and bench)
FILES = [
    (SAMPLE / "pbn" / "worldclass-2012-example3.pbn", "pbn", 7632),
    (SAMPLE / "pbn" / "online-qualifier-2021-example2.pbn", "pbn", 299),
    (SAMPLE / "lin" / "usbf-2010-sf-14502.lin", "lin", 30),
    (ROOT / "tests" / "data" / "bridgemate" / "LBC-2026-01-26.bws", "bws", 270),
]


@pytest.mark.parametrize(("path", "fmt", "results"), FILES, ids=lambda v: getattr(v, "name", v))
def test_sniff_and_read_real_files(path: Path, fmt: str, results: int) -> None:
    if not path.exists():
        pytest.skip(f"{path} is absent; USEBIO files may not be bundled: no licence (SOURCES.md)")
    assert sniff(path.read_bytes()[:65_536]) == fmt
    parsed = read(path)
    assert parsed.format == fmt
    assert len(parsed.records) == results
    assert not any(r.parse_error for r in parsed.records)
    if fmt != "bws":  # a text format: the path reader is the bytes reader plus file I/O
        again = read_bytes(path.read_bytes(), str(path))
        assert [r.record_id for r in again.records] == [r.record_id for r in parsed.records]


def test_usebio_reads_its_hand_record_beside_it() -> None:
    """`read` joins `X.hands.pbn` to `X.usebio.xml`: every traveller line then has its deal."""
    path = EVENTS / "usebio" / "welwyn-2025-04-09.usebio.xml"
    if not path.exists():
        pytest.skip(f"{path} is absent; USEBIO files may not be bundled: no licence (SOURCES.md)")
    parsed = read(path)
    assert parsed.format == "usebio"
    assert len(parsed.records) == 144
    assert all(r.deal[:1] in "NESW" and r.deal[1:2] == ":" for r in parsed.records)
    alone = read_bytes(path.read_bytes(), str(path))  # no hand record given: no deals
    assert not any(r.deal for r in alone.records)


def test_registry_order_and_refusals() -> None:
    assert [r.format for r in READERS] == [
        "bws",
        "sqlite",
        "acblscore",
        "usebio",
        "lin",
        "pbn",
        "dump",
        "csv",
    ]
    with pytest.raises(UnreadableFile, match="not USEBIO"):
        sniff(b"<html><body>results</body></html>")
    with pytest.raises(UnreadableFile, match="binary content"):
        sniff(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert sniff(b'\xef\xbb\xbf\n[Event "x"]\n') == "pbn"
    assert sniff('[Event "x"]\n'.encode("utf-16")) == "pbn"  # Windows export with a BOM

"""Raw hand records, exactly as a source wrote them, before any cleaning.

Every source format (PBN, LIN, the paper's `bridgedeals` dump) is read into the same flat record,
whose fields are those of the paper's `bridgedeals` table. The record id is a hash of the content
alone, so the same table result read twice (again, or from another file) is one record.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from functools import cached_property

# Fields that identify the content of a table result (provenance excluded on purpose).
CONTENT_FIELDS = (
    "event", "date", "site", "board_no", "stage", "dealer", "deal", "vulnerable", "bidstart",
    "auction", "contract", "declarer", "lead", "play", "play_format", "result",
    "northname", "eastname", "southname", "westname", "scoring", "home_team", "visit_team",
    "room", "parse_error",
)  # fmt: skip


@dataclass
class RawRecord:
    source_file: str
    source_line: int
    source_format: str
    event: str = ""
    date: str = ""
    site: str = ""
    board_no: str = ""
    stage: str = ""
    dealer: str = ""
    deal: str = ""
    vulnerable: str = ""
    bidstart: str = ""
    auction: str = ""
    contract: str = ""
    declarer: str = ""
    lead: str = ""
    play: str = ""
    play_format: str = "columns"  # 'columns': PBN/dump, by seat from the leader; 'sequence': LIN
    result: str = ""
    northname: str = ""
    eastname: str = ""
    southname: str = ""
    westname: str = ""
    scoring: str = ""
    home_team: str = ""
    visit_team: str = ""
    room: str = ""
    parse_error: str = ""  # non-empty: the source text here could not be read as a record
    occurrence: int = 0  # k-th identical copy within one file (two unnamed passed-out tables)

    @cached_property
    def record_id(self) -> str:
        h = hashlib.sha1()
        for name in CONTENT_FIELDS:
            h.update(getattr(self, name).encode("utf-8", "surrogatepass"))
            h.update(b"\x1f")
        if self.occurrence:
            h.update(f"#{self.occurrence}".encode())
        if self.parse_error:  # unreadable text is only identified by where it was
            h.update(f"{self.source_file}:{self.source_line}".encode())
        return h.hexdigest()[:20]

    def as_row(self) -> dict[str, object]:
        row: dict[str, object] = {name: getattr(self, name) for name in _FIELD_NAMES}
        row["record_id"] = self.record_id
        return row


_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RawRecord))
RAW_COLUMNS: tuple[str, ...] = ("record_id",) + _FIELD_NAMES


def number_repeats(records: list[RawRecord]) -> list[RawRecord]:
    """Give identical records of one file distinct ids, stably, so none is lost as a duplicate."""
    seen: dict[str, int] = {}
    for rec in records:
        rid = rec.record_id
        k = seen.get(rid, 0)
        seen[rid] = k + 1
        if k:
            rec.occurrence = k
            del rec.record_id  # the cached id predates the occurrence number
    return records

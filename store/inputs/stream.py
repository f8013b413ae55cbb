"""A large PBN or LIN file read and stored in batches, in bounded memory, as `read` would read it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ddrank.cleaning import is_hand_record
from ddrank.events import name_unnamed
from ddrank.parsers.producer import pbn_producer, producer_events
from ddrank.parsers.registry import MAX_LINE, SNIFF_BYTES, UTF16_BOMS, UnreadableFile, decode_text
from ddrank.parsers.values import check_records, check_standings
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding
from store.inputs.files import open_input
from store.inputs.read import companion_of, detect_format
from store.inputs.text import iter_texts, read_text

STREAM_BYTES = 16 * 2**20  # a PBN file larger than this is read and stored in batches


def streams(path: Path) -> bool:
    """Whether `ingest` reads this file in batches (a PBN or LIN file over STREAM_BYTES, not
    UTF-16)."""
    try:
        if path.stat().st_size <= STREAM_BYTES:
            return False
        with path.open("rb") as fh:
            if fh.read(2) in UTF16_BOMS:
                return False
        return detect_format(path) in ("pbn", "lin")
    except (OSError, UnreadableFile):
        return False


@dataclass
class StreamedFile:
    """A large PBN or LIN file read as it is stored: records come in batches, the rest (deals,
    rankings, events) at the end."""

    format: str  # "pbn" or "lin" (detect_format)
    deals: list[RawRecord] = field(default_factory=list)
    standings: list[RawStanding] = field(default_factory=list)
    events: list[RawEvent] = field(default_factory=list)
    count: int = 0
    #: (line, warning): a PBN table published again, read once (ddrank.parsers.pbn); LIN tables
    #: that contradict their vugraph header (ddrank.parsers.lin)
    warnings: list[tuple[int, str]] = field(default_factory=list)

    def parsed(self) -> ParsedFile:
        """What `read` gives besides the records."""
        return ParsedFile(self.format, [], self.standings, self.events, warnings=self.warnings,
                          deals=self.deals)  # fmt: skip

    def batches(self, path: Path, size: int = 20_000) -> Iterator[list[RawRecord]]:
        """The file's table results in lists of `size`, identical records numbered as
        `number_repeats` would; hand-record games go to `deals`; an unreadable line ends the
        file with one unreadable record."""
        from ddrank.parsers.pbn import iter_pbn

        companion = self.format == "pbn" and companion_of(path) is not None
        seen: dict[str, int] = {}
        batch: list[RawRecord] = []
        if self.format == "lin":
            records = self._lin_records(path)
        else:
            self.format = "pbn-hands" if companion else "pbn"
            records = iter_pbn(None, str(path), not companion, self.standings,
                               texts=iter_texts(path), notes=self.warnings)  # fmt: skip
        firsts: dict[tuple[str, str, str], RawRecord] = {}  # the events a producer is named for
        collect = gc.isenabled()  # paused while a batch is read (see gc_paused), not while used
        try:
            gc.disable()
            pbn = self.format != "lin"
            for rec in records:
                check_records([rec])  # a non-finite or absurd number: as `read` refuses it
                if pbn and not companion and not rec.parse_error:
                    firsts.setdefault((rec.event, rec.date, rec.organiser), rec)
                if pbn and (
                    (companion and not rec.parse_error) or (not companion and is_hand_record(rec))
                ):
                    self.deals.append(rec)
                    continue
                if not rec.event.strip():  # as `read` names it: its folder or file name
                    name_unnamed([rec], str(path))
                rid = rec.record_id
                k = seen.get(rid, 0)
                seen[rid] = k + 1
                if k:
                    rec.occurrence = k
                    del rec.record_id
                batch.append(rec)
                if len(batch) >= size:
                    self.count += len(batch)
                    if collect:
                        gc.enable()
                    yield batch
                    gc.disable()
                    batch = []
        except UnreadableFile as exc:
            batch.append(RawRecord(str(path), exc.line, "pbn", parse_error=str(exc)))
        finally:
            if collect:
                gc.enable()
        self.count += len(batch)
        self.warnings += check_standings(self.standings)
        if firsts:  # as `read_pbn` does: the header's producer is the scorer of every event
            with open_input(path) as fh:
                head = decode_text(fh.read(SNIFF_BYTES))
            self.events += producer_events(list(firsts.values()), pbn_producer(head))
        if batch:
            yield batch

    def _lin_records(self, path: Path) -> Iterator[RawRecord]:
        """A LIN file's records as `read` reads them, the text read in pieces."""
        from ddrank.parsers.lin import iter_lin, parse_lin_file
        from store.inputs.lin import lin_facts, lin_pieces

        facts = lin_facts(path, MAX_LINE)
        if facts.long_line is not None:
            line = facts.long_line
            raise UnreadableFile(
                f"line {line} is longer than {MAX_LINE:,} bytes: not a hand record", line
            )
        if not facts.has_pipe:  # the whole text URL-encoded, pipes included: read it whole
            parsed = parse_lin_file(read_text(path), str(path))
            self.events += parsed.events
            self.warnings += parsed.warnings
            yield from parsed.records
            return
        yield from iter_lin(lin_pieces(path, facts.encoding), str(path), self.events,
                            facts.url_encoded, self.warnings)  # fmt: skip

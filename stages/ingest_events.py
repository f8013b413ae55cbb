"""Store what readers say beyond table results: events, published rankings, hand-record deals.

Every row is keyed by its content (event_id, a hash of a ranking line or of a deal), so
re-ingesting a file adds nothing, and a second file about the same event only fills in what the
first left empty.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

import polars as pl

from ddrank.events import event_id_of, iso_date
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding
from ddrank.types import Deal, DomainError
from store import Store
from store.store import arrow_stream

EVENT_COLUMNS = ("event_id", "name", "organiser", "date_start", "date_end", "scoring",
                 "movement", "across_field", "mp_top", "scorer", "federation", "fields",
                 "rankings", "max_score", "source_file")  # fmt: skip
STANDING_COLUMNS = ("standing_id", "event_id", "source_file", "source_line", "event", "date",
                    "session", "section", "direction", "pair", "team_name", "players",
                    "player_ids", "published_mp", "published_pct", "published_imps",
                    "published_vp", "published_place", "phantom", "opponent", "strat",
                    "adjustment", "carryover", "eligible", "overall", "boards", "award",
                    "cumulative_place", "cumulative_mp", "cumulative_pct",
                    "cumulative_boards")  # fmt: skip
DEAL_COLUMNS = ("deal_key", "event_id", "source_file", "source_line", "session", "section",
                "board_no", "deal", "dealer", "vulnerable", "par_score", "par_contract",
                "dd_tricks")  # fmt: skip
PUBLISHED_DD_COLUMNS = ("deal_id", "dd_tricks", "source_file")
_TYPED = {"source_line": pl.Int64, "across_field": pl.Boolean, "phantom": pl.Boolean,
          "eligible": pl.Boolean, "overall": pl.Boolean}  # fmt: skip


@contextmanager
def registered(store: Store, name: str, frame: Any) -> Iterator[None]:
    """`frame` readable as table `name` by the named queries, for the duration of the block."""
    store.con.register(name, arrow_stream(frame))
    try:
        yield
    finally:
        store.con.unregister(name)


def content_hash(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8", "replace")).hexdigest()[
        :20
    ]


def event_row(ev: RawEvent) -> dict[str, object]:
    """A reader's RawEvent as an `events` row (dates in ISO)."""
    start = iso_date(ev.date_start)
    return {
        "event_id": event_id_of(ev.event, ev.date_start, ev.organiser),
        "name": ev.event, "organiser": ev.organiser, "date_start": start,
        "date_end": iso_date(ev.date_end) or start, "scoring": ev.scoring,
        "movement": ev.movement, "across_field": ev.across_field, "mp_top": ev.mp_top,
        "scorer": ev.scorer, "federation": ev.federation, "fields": ev.fields,
        "rankings": ev.rankings, "max_score": ev.max_score, "source_file": ev.source_file,
    }  # fmt: skip


@dataclass
class EventRows:
    """Rows for `events`, `published_standings` and `deals`, gathered file by file."""

    events: dict[str, dict[str, object]] = field(default_factory=dict)
    standings: dict[str, dict[str, object]] = field(default_factory=dict)
    deals: dict[str, dict[str, object]] = field(default_factory=dict)
    #: deal_id -> the DD table a file publishes for it (`published_dd`)
    published_dd: dict[str, dict[str, object]] = field(default_factory=dict)
    _dd_seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, parsed: ParsedFile) -> None:
        """A file's events, rankings and hand-record deals (`parsed.deals`)."""
        for ev in parsed.events:
            self._merge(event_row(ev))
        self.add_records(parsed.records)
        self.add_records(parsed.deals)
        # a file's rankings belong to its events: the same id (organiser included) as theirs
        ids = {(" ".join(ev.event.split()).casefold(), iso_date(ev.date_start)):
               event_id_of(ev.event, ev.date_start, ev.organiser) for ev in parsed.events}  # fmt: skip
        for st in parsed.standings:
            self._standing(st, ids.get((" ".join(st.event.split()).casefold(), iso_date(st.date))))
        for rec in parsed.deals:
            self._deal(rec)

    def add_records(self, records: list[RawRecord]) -> None:
        """Every event a table result or deal names exists in `events`, said by a reader or not."""
        last = None
        for rec in records:
            if rec.parse_error:
                continue
            self._published_dd(rec)
            key = (rec.event, rec.date, rec.organiser, rec.scoring)
            if key == last:  # consecutive records of one event: the common case, kept cheap
                continue
            last = key
            self._merge({
                "event_id": event_id_of(rec.event, rec.date, rec.organiser), "name": rec.event,
                "organiser": rec.organiser, "date_start": iso_date(rec.date),
                "date_end": iso_date(rec.date), "scoring": rec.scoring, "movement": "",
                "across_field": None, "mp_top": "", "scorer": "", "federation": "",
                "fields": "", "rankings": "", "max_score": "", "source_file": rec.source_file,
            })  # fmt: skip

    def absorb(self, other: EventRows) -> None:
        """Another file's rows, once that file is stored whole."""
        for row in other.events.values():
            self._merge(row)
        for key, row in other.standings.items():
            self.standings.setdefault(key, row)
        for key, row in other.deals.items():
            self.deals.setdefault(key, row)

    def _merge(self, row: dict[str, object]) -> None:
        have = self.events.get(str(row["event_id"]))
        if have is None:
            self.events[str(row["event_id"])] = row
            return
        for k, v in row.items():
            if have.get(k) in ("", None) and v not in ("", None):
                have[k] = v

    def _standing(self, st: RawStanding, event_id: str | None = None) -> None:
        row = asdict(st)
        row["event_id"] = event_id or event_id_of(st.event, st.date, "")
        skip = ("source_file", "source_line", "opponent", "strat", "adjustment", "carryover",
                "eligible", "overall", "boards", "award", "cumulative_place", "cumulative_mp",
                "cumulative_pct", "cumulative_boards")  # fmt: skip
        content = [row[c] for c in STANDING_COLUMNS[1:] if c not in skip]
        if st.opponent:  # a match's result: two teams may meet twice, each match is one element
            content += [st.opponent, st.source_line]
        if st.strat:  # a strat's place: the same pair's line of another ranking
            content += ["strat", st.strat]
        if st.adjustment or st.carryover or not st.eligible:
            content += [st.adjustment, st.carryover, st.eligible]
        if st.overall:  # the same pair's place in the event's overall ranking
            content += ["overall"]
        row["standing_id"] = content_hash(*content)
        self.standings.setdefault(str(row["standing_id"]), row)

    def _published_dd(self, rec: RawRecord) -> None:
        """The DD table the record's file publishes for its deal, once per deal."""
        dd = str(getattr(rec, "dd_tricks", "") or "").strip().lower()
        if not dd or not rec.deal or (rec.deal, dd) in self._dd_seen:
            return
        self._dd_seen.add((rec.deal, dd))
        if len(dd) != 20 or any(c not in "0123456789abcd" for c in dd):
            return  # not 20 trick counts of 0-13: not a DD table
        try:
            deal_id = Deal.from_pbn(rec.deal).deal_id
        except DomainError:
            return  # the deal itself is unreadable: cleaning says why
        self.published_dd.setdefault(deal_id, {"deal_id": deal_id, "dd_tricks": dd,
                                               "source_file": rec.source_file})  # fmt: skip

    def _deal(self, rec: RawRecord) -> None:
        self._published_dd(rec)
        eid = event_id_of(rec.event, rec.date, rec.organiser)
        row = {
            "deal_key": content_hash(eid, rec.session, rec.section, rec.board_no, rec.deal),
            "event_id": eid, "source_file": rec.source_file, "source_line": rec.source_line,
            "session": rec.session, "section": rec.section, "board_no": rec.board_no,
            "deal": rec.deal, "dealer": rec.dealer, "vulnerable": rec.vulnerable,
            "par_score": rec.par_score, "par_contract": rec.par_contract,
            "dd_tricks": getattr(rec, "dd_tricks", ""),
        }  # fmt: skip
        self.deals.setdefault(str(row["deal_key"]), row)

    def store(self, store: Store) -> tuple[int, int, int]:
        """Insert what the store lacks (inside the caller's transaction); returns new counts of
        events, standings and deals."""
        counts = []
        for table, query, cols, rows in (
            ("events", "insert_events", EVENT_COLUMNS, self.events),
            ("published_standings", "insert_published_standings", STANDING_COLUMNS,
             self.standings),
            ("deals", "insert_deals", DEAL_COLUMNS, self.deals),
            ("published_dd", "insert_published_dd", PUBLISHED_DD_COLUMNS, self.published_dd),
        ):  # fmt: skip
            if not rows:
                counts.append(0)
                continue
            frame = pl.DataFrame(
                [{c: r.get(c) for c in cols} for r in rows.values()],
                schema={c: _TYPED.get(c, pl.Utf8) for c in cols},
            )
            before = store.table_count(table)
            with registered(store, "new_rows", frame):
                store.run(query)
            counts.append(store.table_count(table) - before)
        return counts[0], counts[1], counts[2]

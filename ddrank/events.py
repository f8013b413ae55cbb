"""The event model's keys: which event a result belongs to, and its date in ISO form.

Pure functions, no I/O. An event is identified by its name, its (start) date and its organiser, so
one file may hold several events (the 2012 sample holds five) and the same event read from two
files (a PBN hand record and its USEBIO results) gets one key.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import PurePath

from ddrank.raw import RawEvent, RawRecord

_ISO = re.compile(r"^(\d{4})[-./](\d{1,2}|\?\?)(?:[-./](\d{1,2}|\?\?))?")
_DMY = re.compile(r"^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$")
_DATE_IN_NAME = re.compile(r"(?<!\d)(\d{4})[-_.]?(\d{2})[-_.]?(\d{2})(?!\d)")


def iso_date(text: str) -> str:
    """A source date as ISO `yyyy-mm-dd`, or its known prefix (`2012-08` for PBN "2012.08.??").

    PBN writes `yyyy.mm.dd` with `??` for unknown parts; USEBIO and Bridgemate write ISO or
    `dd/mm/yyyy`. Returns "" when no year can be read.
    """
    t = text.strip()
    m = _ISO.match(t)
    if m:
        year, month, day = m.group(1), m.group(2), m.group(3)
        if month is None or "?" in month:
            return year
        if day is None or "?" in day:
            return f"{year}-{int(month):02d}"
        return f"{year}-{int(month):02d}-{int(day):02d}"
    m = _DMY.match(t)
    if m:
        return f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"
    return ""


def event_id_of(event: str, date: str, organiser: str = "") -> str:
    """Stable key of an event: a slug of its name, plus a short hash of name, date and organiser.

    Readable in SQL output (`spingold-2012-07-3f2a9c1b`) and unique across events of the same
    name (weekly club sessions differ by date, federations by organiser).
    """
    name = " ".join(event.split())
    day = iso_date(date)
    h = hashlib.sha1(f"{name.casefold()}\x1f{day}\x1f{organiser.strip().casefold()}".encode())
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:40] or "event"
    return f"{slug}-{day or 'undated'}-{h.hexdigest()[:8]}"


def attach_to_event(deals: list[RawRecord], events: list[RawEvent]) -> None:
    """Give a companion hand record's deals the event of the results file they belong to.

    A hand-record PBN carries no organiser, and the event key includes it, so its deals would
    otherwise make a second `events` row beside the USEBIO event. The deal takes the results
    event's name, date and organiser when that file holds one event, or the event of the same
    name (case and spacing aside) when it holds several; a deal of no event there is left as is.
    """
    if not events:
        return
    by_name = {" ".join(ev.event.split()).casefold(): ev for ev in events}
    for rec in deals:
        ev = events[0] if len(events) == 1 else by_name.get(" ".join(rec.event.split()).casefold())
        if ev is None:
            continue
        rec.event = ev.event or rec.event
        rec.date = ev.date_start or rec.date
        rec.organiser = ev.organiser or rec.organiser
        rec.__dict__.pop("record_id", None)  # computed from the old fields, if at all


def event_from_path(path: str) -> tuple[str, str]:
    """(event, PBN-style date) for a file whose content names no event.

    A folder whose name holds a date is one session's files ("skyclub-2013-08-10": 44 BBO hand
    records of one club game), named and dated by the director who named it: the folder is the
    event. Otherwise the file is its own event, named by the file ("3381671193") and never dated
    by it: a BBO hand record's name is its number on BBO (20784109 is no 2078-41-09), and a
    file's name is no part of what its producer wrote. Files of one folder read together are
    then grouped by their content (`group_unnamed`)."""
    p = PurePath(path)
    folder = _dated_folder(p)
    if folder is not None:
        return folder
    return p.name.split(".")[0] or p.name, ""


def _dated_folder(p: PurePath) -> tuple[str, str] | None:
    """(name, PBN-style date) of a file's folder whose name holds a valid date, else None."""
    m = _DATE_IN_NAME.search(p.parent.name)
    if m and 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31:
        short = _DATE_IN_NAME.sub("", p.parent.name).strip(" -_.")  # the date says the date
        return short or p.parent.name, f"{m.group(1)}.{m.group(2)}.{m.group(3)}"
    return None


def group_unnamed(
    files: Sequence[tuple[str, Sequence[RawRecord]]],
    known: Sequence[tuple[str, Sequence[RawRecord]]] = (),
) -> list[tuple[str, str]]:
    """Files of one folder whose content names no event (each named on its own by
    `event_from_path`), grouped into their events by what they hold (the records' ids change
    with their event); returns one warning per group of two or more files: (its first file,
    what was read). `known`: files of the same folders read in an earlier run (their records
    as stored, their events fixed): a new file that joins one's group takes its event, so a
    file added to a folder joins the event already read.

    A folder of one-board BBO hand records (one table each, no event, no date) is an event's
    tables: two files are one event when they hold the same deal under the same board number
    (two tables of one board), or one partnership (its two players at one side) at boards that
    do not clash; never when the group would then hold one board number with two deals (one
    pair's two sessions of boards 1-2). A folder whose files form one group is one event, named
    by the folder (a dated folder: `event_from_path`); several groups are each named by their
    first file. A lone file keeps its own name. Dates come from the content alone (or a dated
    folder), never from a file's name."""
    by_folder: dict[str, list[tuple[str, Sequence[RawRecord]]]] = defaultdict(list)
    stored: dict[str, list[tuple[str, Sequence[RawRecord]]]] = defaultdict(list)
    for path, records in files:
        by_folder[str(PurePath(path).parent)].append((path, records))
    for path, records in known:
        stored[str(PurePath(path).parent)].append((path, records))
    warnings: list[tuple[str, str]] = []
    for key, new in by_folder.items():
        members = [*stored.get(key, []), *new]  # the stored first: their events stand
        old = len(members) - len(new)
        folder = PurePath(new[0][0]).parent
        if len(members) < 2 or not folder.name:
            continue
        roots = content_groups([records for _, records in members])
        dated = _dated_folder(PurePath(new[0][0]))
        for k in range(old, len(members)):
            root = roots[k]
            fixed = next((m for m in range(old) if roots[m] == root), None)
            if fixed is not None:  # joins an event already read
                event = next((r.event for r in members[fixed][1] if not r.parse_error), "")
            elif len(set(roots)) == 1:
                event = dated[0] if dated else folder.name
            else:
                event = event_from_path(members[root][0])[0]
            for rec in members[k][1]:
                if rec.parse_error or not event or rec.event == event:
                    continue
                rec.event = event
                rec.__dict__.pop("record_id", None)  # computed from the event too
        for root in sorted({roots[k] for k in range(old, len(members))}):
            group = [records for (_, records), r in zip(members, roots, strict=True) if r == root]
            if len(group) < 2:
                continue
            tables = [rec for records in group for rec in records if not rec.parse_error]
            event = tables[-1].event if tables else ""
            dates = sorted({rec.date for rec in tables if rec.date})
            when = f"dated {', '.join(dates)}" if dates else "undated: none of them writes a date"
            first = next(k for k in range(old, len(members)) if roots[k] == root)
            warnings.append((members[first][0], (
                f"{len(group)} files of this folder name no event: read as one event "
                f"{event!r} ({len(tables)} table results; joined by their shared deals and "
                f"partnerships), {when}")))  # fmt: skip
    return warnings


def named_by_path(files: Sequence[tuple[str, Sequence[RawRecord]]]
                  ) -> list[tuple[str, Sequence[RawRecord]]]:  # fmt: skip
    """The files (of one folder, as stored) whose every table result has the event a path gives
    (`group_unnamed`: the folder's name, or a file's own): the files a new one may join."""
    stems = {event_from_path(path)[0] for path, _ in files}
    stems |= {_dated_folder(PurePath(p))[0] for p, _ in files if _dated_folder(PurePath(p))}
    stems |= {PurePath(path).parent.name for path, _ in files}
    return [
        (path, records)
        for path, records in files
        if records and all(r.event in stems for r in records if not r.parse_error)
    ]


def content_groups(files: Sequence[Sequence[RawRecord]]) -> list[int]:
    """For each file (its table results), the index of the first file of its group (see
    `group_unnamed`): files are joined by a shared (board, deal), or by a shared partnership
    when their boards agree (no board number with two deals)."""
    from ddrank.scoring.intake.identity import is_placeholder

    parent = list(range(len(files)))
    boards: list[dict[str, str]] = [{} for _ in files]

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = sorted((find(i), find(j)))
        if a == b or any(boards[a].get(k, v) != v for k, v in boards[b].items()):
            return  # one group already, or a board number with two deals: two events
        parent[b] = a
        boards[a].update(boards[b])

    by_deal: dict[tuple[str, str], int] = {}
    by_pair: dict[frozenset[str], list[int]] = defaultdict(list)
    for i, records in enumerate(files):
        played = [r for r in records if not r.parse_error and r.deal]
        boards[i] = {r.board_no: r.deal for r in played}
        pairs: set[frozenset[str]] = set()
        for r in played:
            first = by_deal.setdefault((r.board_no, r.deal), i)
            if first != i:
                join(first, i)
            for a, b in ((r.northname, r.southname), (r.eastname, r.westname)):
                a, b = a.strip().casefold(), b.strip().casefold()
                if a and b and a != b and not is_placeholder(a) and not is_placeholder(b):
                    pairs.add(frozenset((a, b)))
        for pair in pairs:
            for j in by_pair[pair]:
                join(j, i)
            by_pair[pair].append(i)
    return [find(i) for i in range(len(files))]


def name_unnamed(records: list[RawRecord], path: str) -> int:
    """Give the table results that name no event the event `event_from_path` finds (and its
    date where they have none); returns how many were named. Their ids change with it."""
    event, date = event_from_path(path)
    named = 0
    for rec in records:
        if rec.parse_error or rec.event.strip():
            continue
        rec.event = event
        if not rec.date.strip() and date:
            rec.date = date
        rec.__dict__.pop("record_id", None)  # computed from the event too
        named += 1
    return named

"""The event model's keys: which event a result belongs to, and its date in ISO form.

Pure functions, no I/O. An event is identified by its name, its (start) date and its organiser, so
one file may hold several events (the 2012 sample holds five) and the same event read from two
files (a PBN hand record and its USEBIO results) gets one key.
"""

from __future__ import annotations

import hashlib
import re
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
    records of one club game): the folder is the event. Otherwise each file is its own event,
    named by the file ("3381671193"), dated when its name holds a date. So files of different
    events are never merged into one unnamed event."""
    p = PurePath(path)
    for name in (p.parent.name, None):
        if name is None:
            name = p.name.split(".")[0] or p.name
            m = _DATE_IN_NAME.search(name)
            return name, f"{m.group(1)}.{m.group(2)}.{m.group(3)}" if m else ""
        m = _DATE_IN_NAME.search(name)
        if m and 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31:
            short = _DATE_IN_NAME.sub("", name).strip(" -_.")  # the date is said by the date
            return short or name, f"{m.group(1)}.{m.group(2)}.{m.group(3)}"
    return p.name, ""


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

"""The program that wrote a PBN file, as the file's own header declares it.

PBN exports name their producer in the comment lines before the first tag, two ways:

* Magic Contest and Ruter (www.brenning.se): `% <META  name=Generator  content="Ruter">`;
* BridgeComposer, Bridgewebs: `%Creator: BridgeComposer Version 5.114`.

The producer decides a scorer's documented arithmetic (ddrank.scoring.choice.method), so it becomes the
`scorer` of every event the file holds, as USEBIO's `PROGRAM_NAME` does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ddrank.raw import RawEvent, RawRecord, RawStanding

_META = re.compile(r'<META\s+name\s*=\s*"?Generator"?\s+content\s*=\s*"([^"]*)"', re.IGNORECASE)
_CREATOR = re.compile(r"^%\s*Creator\s*:\s*(.+?)(?:\s+Version\b.*)?$", re.IGNORECASE)
#: Header comment lines read before giving up (a header is a few dozen lines).
HEADER_LINES = 200
#: A format's own program, where its files declare no producer.
FORMAT_PRODUCERS = {"lin": "BBO (LIN)", "bws": "Bridgemate"}


def pbn_producer(text: str) -> str:
    """'Magic Contest France', 'Ruter', 'BridgeComposer' from the header; '' when not declared."""
    for k, line in enumerate(text.splitlines()):
        if k >= HEADER_LINES or line.lstrip().startswith("["):
            break
        if not line.lstrip().startswith("%"):
            continue
        m = _META.search(line) or _CREATOR.match(line.strip())
        if m and m.group(1).strip():
            return m.group(1).strip()
    return ""


def producer_events(records: list[RawRecord], producer: str,
                    standings: Sequence[RawStanding] = ()) -> list[RawEvent]:  # fmt: skip
    """One event per (event, date, organiser) of `records`, its `scorer` the file's producer;
    and one per event only `standings` name (a teams file that lists its matches, no boards)."""
    if not producer:
        return []
    seen: dict[tuple[str, str, str], RawEvent] = {}
    for rec in records:
        key = (rec.event, rec.date, rec.organiser)
        if rec.event and not rec.parse_error and key not in seen:  # unnamed: named later by path
            seen[key] = RawEvent(rec.source_file, event=rec.event, organiser=rec.organiser,
                                 date_start=rec.date, date_end=rec.date, scorer=producer)  # fmt: skip
    named = {k[0] for k in seen}
    for st in standings:
        if st.event and st.event not in named:
            named.add(st.event)
            seen[(st.event, st.date, "")] = RawEvent(st.source_file, event=st.event,
                                                     date_start=st.date, date_end=st.date,
                                                     scorer=producer)  # fmt: skip
    return list(seen.values())

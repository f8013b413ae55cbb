"""CONSTRUCTED test data: a real individual event reshaped into the USEBIO individual structure.

No USEBIO individual file is available to the project (the producers' own files are held back),
so the tests build one from a real individual event, Ruter's `indi.pbn` (Stormästarträffen 2010,
48 players, 62 boards): every table result, its four players by their numbers in the event, the
published per-seat matchpoints (North-South's and East-West's, the same for both players of a
side), and the published ranking (each player's total, percentage and place). The numbers are the
event's own; only the container is ours. The result is written to a temporary folder, never
bundled (the source file may not be: SOURCES.md).
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from ddrank.raw import RawRecord, RawStanding
from store.inputs.read import read_parsed

SEATS = ("NORTH", "EAST", "SOUTH", "WEST")


def _el(tag: str, value: object) -> str:
    return f"<{tag}>{escape(str(value))}</{tag}>"


def _contract(rec: RawRecord) -> str:
    c = rec.contract.strip().upper()
    return c.replace("N", "NT", 1) if len(c) >= 2 and c[1] == "N" else c


def _score(rec: RawRecord) -> str:
    """The line's score: an artificial one as USEBIO writes it ('A6060': NS 60%, EW 60%)."""
    if rec.adjusted:
        ns, ew = (int(float(x)) for x in rec.adjusted.split("/"))
        return f"A{ns:02d}{ew:02d}"
    return rec.ns_score


def usebio_individual(pbn: Path, out: Path) -> Path:
    """Write `pbn`'s individual event as a USEBIO 1.2 individual file at `out`."""
    parsed = read_parsed(pbn)[0]
    records = [r for r in parsed.records if r.player_numbers]
    standings: list[RawStanding] = parsed.standings
    first = records[0]
    y, m, d = first.date.split(".")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">',
             '<USEBIO Version="1.2">', f"<CLUB>{_el('CLUB_NAME', first.site)}</CLUB>",
             '<EVENT EVENT_TYPE="INDIVIDUAL">', _el("EVENT_DESCRIPTION", first.event),
             _el("PROGRAM_NAME", "constructed by ddrank's tests from a real event"),
             _el("DATE", f"{d}/{m}/{y}"), _el("BOARD_SCORING_METHOD", "MATCH_POINTS"),
             "<PARTICIPANTS>"]  # fmt: skip
    for st in standings:
        lines.append("<PLAYER>" + "".join(_el(t, v) for t, v in (
            ("PLAYER_NUMBER", st.pair), ("PLAYER_NAME", st.players),
            ("NATIONAL_ID_NUMBER", st.player_ids), ("TOTAL_SCORE", st.published_mp),
            ("PERCENTAGE", st.published_pct), ("PLACE", st.published_place))) + "</PLAYER>")  # fmt: skip
    lines.append("</PARTICIPANTS>")
    boards: dict[str, list[RawRecord]] = {}
    for r in records:
        boards.setdefault(r.board_no, []).append(r)
    for board, rows in boards.items():
        lines.append(f"<BOARD>{_el('BOARD_NUMBER', board)}")
        for r in rows:
            seats = "".join(_el(f"{s}_PLAYER_NUMBER", n)
                            for s, n in zip(SEATS, r.player_numbers.split("|"), strict=True))  # fmt: skip
            lines.append("<TRAVELLER_LINE>" + seats + "".join(_el(t, v) for t, v in (
                ("CONTRACT", _contract(r)), ("PLAYED_BY", r.declarer), ("TRICKS", r.result),
                ("SCORE", _score(r)), ("NS_MATCH_POINTS", r.published_ns_mp),
                ("EW_MATCH_POINTS", r.published_ew_mp))) + "</TRAVELLER_LINE>")  # fmt: skip
        lines.append("</BOARD>")
    lines += ["</EVENT>", "</USEBIO>"]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out

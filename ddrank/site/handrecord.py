"""DD tables and par as the files publish them, and hand records published on their own.

A hand-record file (a club site's export, a dealing program's, a scoring system's PBN) gives each deal's DD
table (`DoubleDummyTricks`, 20 hex digits) and often its par (`OptimumScore`, `ParContract`).
A results site shows them as they are, with no DD solve; par missing from the file is worked out
from the published table (DDS's par routine reads a table: microseconds, no solve). A file with
deals and no results becomes a hand-record event: one page per board with the deal, DD and par.
"""

from __future__ import annotations

from typing import Any

from ddrank.dd.par import par_from_table
from ddrank.site.board import trick_table
from ddrank.site.data import Event, Row, slug
from ddrank.types import Deal, DomainError, Seat

#: Order of `DoubleDummyTricks`: declarers N S E W, each with strains NT S H D C (PBN 2.1).
DD_HEX_SEATS = "NSEW"
DD_HEX_STRAINS = "NSHDC"
VULNERABLE = {"NONE": (False, False), "LOVE": (False, False), "-": (False, False),
              "NS": (True, False), "EW": (False, True), "ALL": (True, True),
              "BOTH": (True, True)}  # fmt: skip

Cells = dict[tuple[str, str], int]


def dd_cells(hex_digits: str | None) -> Cells:
    """'98a79...' -> {(strain, declarer): tricks}; {} unless 20 digits of 0-13."""
    text = (hex_digits or "").strip().lower()
    if len(text) != 20:
        return {}
    out: Cells = {}
    for k, ch in enumerate(text):
        try:
            tricks = int(ch, 16)
        except ValueError:
            return {}
        if tricks > 13:
            return {}
        out[(DD_HEX_STRAINS[k % 5], DD_HEX_SEATS[k // 5])] = tricks
    return out


def par_of(cells: Cells, dealer: str | None, ns_vul: bool | None,
           ew_vul: bool | None) -> tuple[int, str] | None:  # fmt: skip
    """(North-South's par score, par contracts) from a DD table; None without dealer or vul."""
    table = trick_table(cells)
    if table is None or not dealer or ns_vul is None or ew_vul is None:
        return None
    try:
        par = par_from_table(table, Seat.parse(dealer), bool(ns_vul), bool(ew_vul))
    except DomainError:
        return None
    return par.ns_score, par.contract_text


def vulnerability(text: str | None) -> tuple[bool | None, bool | None]:
    """PBN `Vulnerable` ('None', 'NS', 'EW', 'All', 'Both', 'Love', '-') as (NS, EW)."""
    return VULNERABLE.get(str(text or "").strip().upper(), (None, None))


def fill_from_published(results: list[Row], dds: dict[str, Cells],
                        published: dict[str, Cells]) -> None:  # fmt: skip
    """Where DDS has not solved a deal, a result's DD tricks and the deal's par come from the
    table its file published (`dd_source` says which was used)."""
    pars: dict[tuple[str, str, Any, Any], tuple[int, str] | None] = {}
    for r in results:
        deal_id = r.get("deal_id")
        if not deal_id or deal_id in dds or deal_id not in published:
            r["dd_source"] = "dds" if deal_id in dds else ""
            continue
        cells = published[deal_id]
        r["dd_source"] = "file"
        if r.get("dd_tricks") is None and r.get("contract") and r.get("declarer"):
            r["dd_tricks"] = cells.get((str(r["contract"])[1:2], str(r["declarer"])))
        if r.get("par_contract") is None:
            key = (deal_id, r.get("dealer"), r.get("ns_vulnerable"), r.get("ew_vulnerable"))
            if key not in pars:
                pars[key] = par_of(cells, *key[1:])
            if pars[key] is not None:
                r["par_score"], r["par_contract"] = pars[key]


def hand_record_events(deals: list[Row], published: dict[str, Cells], dds: dict[str, Cells],
                       events_meta: dict[str, Row], with_results: set[str],
                       played: set[str]) -> list[Event]:  # fmt: skip
    """Events whose file gave deals and no results: one `Event` each, its boards in `hands`
    (each a row shaped like a result's: deal, dealer, vulnerability, par, DD source).

    A hand record that came beside a results file (the results' deals, `played`) is that
    event's, not an event of its own."""
    out: dict[str, Event] = {}
    seen: set[tuple[str, str, str, str]] = set()
    for d in sorted(deals, key=_deal_order):
        eid = str(d.get("event_id") or "")
        if eid in with_results:
            continue
        key = (eid, str(d.get("session") or ""), str(d.get("section") or ""),
               str(d.get("board_no") or ""))  # fmt: skip
        if key in seen:
            continue
        seen.add(key)
        try:
            deal = Deal.from_pbn(str(d.get("deal") or ""))
        except DomainError:
            continue  # an unreadable deal is not shown (the ingest reported it)
        ev = out.get(eid)
        if ev is None:
            m = events_meta.get(eid, {})
            date = str(m.get("date_start") or "")
            ev = Event(event_id=f"hands:{eid}", name=str(m.get("name") or "Hand record"),
                       year=int(date[:4]) if date[:4].isdigit() else 0, scoring="", kind="HANDS",
                       date=date, organiser=str(m.get("organiser") or ""))  # fmt: skip
            if d.get("source_file"):
                ev.sources.add(str(d["source_file"]))
            ev.model_ids.add(eid)
            out[eid] = ev
        ns_vul, ew_vul = vulnerability(d.get("vulnerable"))
        deal_id = deal.deal_id
        row: Row = {"record_id": slug(f"{eid}|{key}", "h"), "deal_id": deal_id,
                    "deal": deal.to_pbn(), "board_no": d.get("board_no"),
                    "session": d.get("session"), "section": d.get("section"),
                    "dealer": (str(d.get("dealer") or "").strip().upper()[:1] or None),
                    "ns_vulnerable": ns_vul, "ew_vulnerable": ew_vul,
                    "published_par_score": _int(d.get("par_score")),
                    "published_par_contract": d.get("par_contract") or None}  # fmt: skip
        cells = dds.get(deal_id) or published.get(deal_id) or dd_cells(d.get("dd_tricks"))
        row["dd_source"] = "dds" if deal_id in dds else "file" if cells else ""
        row["dd_cells"] = cells
        par = par_of(cells, row["dealer"], ns_vul, ew_vul)
        row["par_score"], row["par_contract"] = par if par else (None, None)
        ev.hands.append(row)
    return [ev for ev in out.values() if not any(h["deal_id"] in played for h in ev.hands)]


def _int(v: Any) -> int | None:
    try:
        return int(str(v).strip())
    except (TypeError, ValueError):
        return None


def _deal_order(d: Row) -> tuple:
    board = str(d.get("board_no") or "")
    return (str(d.get("event_id") or ""), str(d.get("session") or ""),
            str(d.get("section") or ""), (0, int(board)) if board.isdigit() else (1, board))  # fmt: skip

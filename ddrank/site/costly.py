"""A player's costliest mistakes as their page lists them.

The figures are the store's `ranked_mistakes` (the mistake costs stage, `stages.mistakes`): each
mistake's cost in its event's units, real losses at the table before hypothetical ones, the same
rows and order `ddrank player` prints. Each is linked to its card or call on the board page, found
among the board page's marks (`ddrank.site.board.Mark`) by record, card index or call index. A
store without costs (read-only and built before the stage existed) falls back to the board pages'
DD points, and the page says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from markupsafe import Markup

from ddrank.mistakes.words import cost_words, where_words
from ddrank.site.board import Mark
from ddrank.site.data import SEATS, Event, Row

#: Mistakes listed on a player's page.
TOP = 20

Spot = tuple[str, str, int | None]  # (record_id, 'card' | 'call' | 'claim', index)


def mark_spot(record_id: str, m: Mark) -> Spot:
    if m.kind == "claim":
        return (record_id, "claim", None)
    if m.kind == "auction":
        return (record_id, "call", m.call)
    return (record_id, "card", m.index)


def row_spot(row: Row) -> Spot:
    """Where a `mistake_costs` row was made, as `mark_spot` names a mark."""
    rid = str(row["record_id"])
    if row.get("kind") == "claim":
        return (rid, "claim", None)
    if row.get("card_index") is not None:
        return (rid, "card", int(row["card_index"]))
    call = row.get("call_index")
    return (rid, "call", None if call is None else int(call))


def spot_key(row: Row) -> str:
    """A `mistake_costs` row's place as the build record keys it (`row_spot`, as text)."""
    rid, kind, index = row_spot(row)
    return f"{rid}|{kind}|{'' if index is None else index}"


def encode(value: Any) -> Any:
    """A link's entry as JSON for the build record, its types kept (Markup, tuples, the mark),
    so `decode` gives back an entry equal to the one the analysis made; the event is left out
    (the caller's listed event is put back)."""
    if isinstance(value, Markup):
        return {"$m": str(value)}
    if isinstance(value, Mark):
        return {"$mark": {f.name: encode(getattr(value, f.name)) for f in fields(Mark)}}
    if isinstance(value, Event):
        return None
    if isinstance(value, tuple):
        return {"$t": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"$d": [[k, encode(v)] for k, v in value.items()]}
    return value


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "$m" in value:
            return Markup(value["$m"])
        if "$mark" in value:
            return Mark(**{k: decode(v) for k, v in value["$mark"].items()})
        if "$t" in value:
            return tuple(decode(v) for v in value["$t"])
        return {k: decode(v) for k, v in value["$d"]}
    return value


def _entry(ev: Event, b: Any, r: Row, mark: Mark | None) -> dict[str, Any]:
    view = r.get("view")
    return {"event": ev, "board": b.label, "deal_id": b.deal_id,
            "href": f"{b.page}#{mark.anchor}" if mark else f"{b.page}#r-{r['record_id']}",
            "mark": mark, "contract": r.get("contract"), "declarer": r.get("declarer"),
            "table": view.label if view else ""}  # fmt: skip


class CostlyLinks:
    """player -> their `TOP` costliest mistakes, costliest first, found one event at a time:
    each event's tables are looked at while its analysis is in memory (`add`), and `result()`
    gives the lists. `costs`: the store's `ranked_mistakes` rows in rank order; without any, every
    marked mistake by its DD points (`by_points`: only when the store has DD tables)."""

    def __init__(self, costs: list[Row], by_points: bool) -> None:
        self.costs = costs
        self.by_record: dict[str, list[int]] = defaultdict(list)
        for k, row in enumerate(costs):
            self.by_record[str(row["record_id"])].append(k)
        self.found: dict[int, tuple[dict[str, Any], Mark | None]] = {}
        self.by_points = by_points and not costs
        #: by DD points: event id -> player -> their costliest in that event (`result` merges)
        self.per_event: dict[str, dict[str, list[dict[str, Any]]]] = {}

    @property
    def needed(self) -> set[str]:
        """The tables a player page links to (analysed even in an event not rendered again)."""
        return set(self.by_record)

    def add(self, ev: Event, boards: list[Any]) -> dict[str, Any]:
        """The links into `ev` (`ev`: the event as listed, its boards analysed as needed); what
        the build record keeps of them (`restore` puts them back when the event is not read)."""
        spots: dict[Spot, tuple[Event, Any, Row, Mark | None]] = {}
        for b in boards:
            for r in b.rows:
                rid = str(r["record_id"])
                if rid not in self.by_record and not self.by_points:
                    continue
                view = r.get("view")
                for m in view.marks if view else []:
                    spots[mark_spot(r["record_id"], m)] = (ev, b, r, m)
                spots.setdefault((r["record_id"], "", None), (ev, b, r, None))
        if self.by_points:
            per = self.per_event[ev.event_id] = _by_dd_points(spots.values())
            return {p: [encode(e) for e in per[p]] for p in sorted(per)}
        kept: dict[str, Any] = {}
        for key, hit in spots.items():
            if key[1] == "":
                for k in self.by_record.get(str(key[0]), []):
                    row = self.costs[k]
                    ev_, b, r, m = spots.get(row_spot(row)) or hit
                    self.found[k] = (_entry(ev_, b, r, m), m)  # not the board: memory
                    kept[spot_key(row)] = encode(self.found[k])
        return dict(sorted(kept.items()))

    def restore(self, ev: Event, kept: dict[str, Any], rows: list[int]) -> dict[str, Any] | None:
        """The links into `ev` from the build record (`kept`, what `add` gave): the cost rows
        `rows` (indexes into `costs`) are in `ev`. None when the record lacks one of them (the
        event is then read and analysed); else what the record keeps now."""
        if self.by_points:
            self.per_event[ev.event_id] = {p: [dict(decode(e), event=ev) for e in entries]
                                           for p, entries in kept.items()}  # fmt: skip
            return kept
        now = {}
        for k in rows:
            key = spot_key(self.costs[k])
            if key not in kept:
                return None
            now[key] = kept[key]
        for k in rows:
            entry, mark = decode(now[spot_key(self.costs[k])])
            entry["event"] = ev
            self.found[k] = (entry, mark)
        return dict(sorted(now.items()))

    def rows_by_event(self, event_of: dict[str, str]) -> dict[str, list[int]]:
        """event id -> the indexes of the cost rows in it (`event_of`: record_id -> event id)."""
        out: dict[str, list[int]] = defaultdict(list)
        for rid, ks in self.by_record.items():
            if rid in event_of:
                out[event_of[rid]].extend(ks)
        return out

    def result(self, order: list[str]) -> dict[str, list[dict[str, Any]]]:
        """player -> their costliest mistakes (`order`: the events as the site lists them, the
        order ties by DD points are listed in)."""
        if not self.by_points:
            return _entries(self.costs, self.found)
        points: dict[str, list[dict[str, Any]]] = {}
        for eid in order:
            for p, entries in self.per_event.get(eid, {}).items():
                points[p] = sorted(points.get(p, []) + entries, key=lambda e: -e["points"])[:TOP]
        return points


def _entries(costs: list[Row], found_at: dict[int, tuple[dict[str, Any], Mark | None]]
             ) -> dict[str, list[dict[str, Any]]]:  # fmt: skip
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for k, row in enumerate(costs):
        player = row.get("player")
        if not player or len(out[player]) >= TOP:
            continue
        found = found_at.get(k)
        if found is None:
            continue  # a result the site does not show (its event has no page)
        base, mark = found
        entry = dict(base)
        entry.update(cost_text=cost_words(row), hypothetical=row.get("basis") == "hypothetical",
                     tricks=row.get("tricks"), where=mark.where if mark else where_words(row),
                     what=mark.what if mark else Markup.escape(row.get("what") or ""),
                     instead=mark.instead if mark else Markup.escape(row.get("instead") or ""),
                     kind=row.get("kind"), seat=row.get("seat"))  # fmt: skip
        out[player].append(entry)
    return dict(out)


def _by_dd_points(found: Iterable[tuple[Event, Any, Row, Mark | None]]) -> dict[str, list[dict]]:
    """Without costs in the store: each marked mistake by its DD points."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for ev, b, r, m in found:
        if m is None or m.points <= 0:
            continue
        for seat in m.seats:
            p = r["players"][seat]
            if p:
                entry = _entry(ev, b, r, m)
                entry.update(cost_text=f"{m.points:.0f} DD points", hypothetical=False,
                             tricks=m.tricks, where=m.where, what=m.what, instead=m.instead,
                             kind=m.kind, seat=SEATS[seat], points=m.points)  # fmt: skip
                out[p].append(entry)
    return {p: sorted(v, key=lambda e: -e["points"])[:TOP] for p, v in out.items()}


def table_costs(costs: Iterable[Row], board_pages: dict[str, list[Any]]) -> None:
    """Each table's DD mistakes in the event's unit (`r["costs"]`: side -> (cost, unit), from
    `site_table_costs`: the real losses at the table): the board page says what its mistakes
    cost in IMPs or MPs, as `ddrank player` and the player pages do, with the DD points only
    beside it."""
    per: dict[str, dict[str, tuple[float, str]]] = defaultdict(dict)
    for row in costs:
        per[str(row["record_id"])][str(row.get("side") or "")] = (
            float(row["cost"]),
            str(row.get("unit") or ""),
        )
    for pages in board_pages.values():
        for b in pages:
            for r in b.rows:
                if str(r["record_id"]) in per:
                    r["costs"] = per[str(r["record_id"])]

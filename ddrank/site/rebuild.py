"""What a rebuild must render: each event's and each player's pages' fingerprint of their inputs.

An event's fingerprint is taken from what its pages are made of (its rows as read, its boards'
names, its rankings, scorecards, matches and problems, its deals' DD tables, the DD-best cards of
its tables, its players' names and the pages they link to) before any table is analysed: the
analysis (`ddrank.site.board.table_view`, the bid/play split) is derived from those inputs by the
site's code, whose version the build record holds too. So a rebuild compares fingerprints first
and analyses only the events it renders again (and the few tables a player page links to).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ddrank.site.data import Event, Row
from ddrank.site.fingerprint import fingerprint

#: Keys of a row the site derives from the others (analysis, table anchors, the split).
DERIVED = ("view", "table_key", "split")


def by_record(data: Any) -> dict[str, list[Any]]:
    """record_id -> what the analysis of its table reads besides its row: its DD-best cards,
    its cards' DD values, its players' own results."""
    out: dict[str, list[Any]] = defaultdict(list)
    for (rid, k), cards in data.alternatives.items():
        out[str(rid)].append(("best", k, cards))
    for (rid, k), values in data.card_values.items():
        out[str(rid)].append(("values", k, values))
    for row in data.optional.get("player_results", []):
        out[str(row.get("record_id"))].append(("player", row))
    return {k: sorted(v, key=repr) for k, v in out.items()}


def event_fingerprint(data: Any, players: Any, ev: Event, boards: list[Any], rankings: Any,
                      cards: Any, matches: Any, records: dict[str, list[Any]]) -> str:  # fmt: skip
    """Everything an event's pages show, from their inputs (see the module's docstring): `data`
    the event's batch (`SiteData`), `players` the site's `Players`, `boards` its board pages,
    `records` the batch's `by_record`."""
    deals = sorted({b.deal_id for b in boards})
    names = {p for r in ev.results for p in r["players"] if p}
    lines = [ln.players for rk in rankings for ln in rk.lines]
    lines += [c.line.players for c in cards]
    labels = {part.strip() for text in lines for part in str(text or "").split(" - ")}
    labels |= {lb for r in ev.results for lb in r["labels"] if lb}  # the split's pairs
    errors = [e for e in data.optional.get("scoring_errors", [])
              if str(e.get("event") or "") in (ev.event_id, ev.name)]  # fmt: skip
    return fingerprint(
        ev.event_id, ev.name, ev.year, ev.scoring, ev.kind, ev.date, ev.organiser, ev.site,
        sorted(ev.sources), sorted(ev.model_ids), ev.hands,
        [{k: v for k, v in r.items() if k not in DERIVED} for r in ev.results],
        [(b.label, b.deal_id, b.page, b.hand, [r.get("table_key") for r in b.rows])
         for b in boards],
        [records.get(str(r["record_id"])) for r in ev.results], rankings, matches, errors,
        [(d, data.dd_tables.get(d), data.published_dd.get(d)) for d in deals],
        sorted((n, data.label(n)) for n in names),
        sorted((t, players.by_label.get(t)) for t in labels),
    )  # fmt: skip


def player_fingerprint(pages: Any, name: str, chart: str | None, charted: list[Row],
                       lines: Any) -> str:  # fmt: skip
    """Everything a player's page (and chart) shows."""
    p, data = pages.players, pages.data
    evs = [(eid, n, pages.event_of[eid].name if eid in pages.event_of else None)
           for eid, n in p.events[name].most_common()]  # fmt: skip
    partners = [(q, n, data.label(q)) for q, n in p.partners[name].most_common(15)]
    hist = p.history.get(name, [])
    return fingerprint(
        name, data.label(name), p.boards(name), chart, charted, lines,
        p.totals.get(name), hist, [pages.period_name(h.get("period")) for h in hist],
        [{**e, "event": (e["event"].event_id, e["event"].name, e["event"].page)}
         if isinstance(e.get("event"), Event) else e for e in p.costly.get(name, [])],
        p.ratings.get(name), p.skill.get(name, []), evs, partners,
    )  # fmt: skip

"""The terminal's lookups (`ddrank player`, `ddrank event`), answered from the store alone.

Each reads only what its answer shows, with a few whole-store queries and no page built: the
players and their boards, one player's counters and the field's rates, the rating, the
costliest mistakes (`mistake_costs`, the rows the site's player pages read), and an event's
stored ranking (`stages.rankings`, as `ddrank results` prints it). Names are found with
`ddrank.text.search_key`: accents, case and spacing do not matter ("Remi" finds "Rémi").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ddrank.scoring.records import event_label
from ddrank.text import search_key
from stages.seats import read_who, seat_identities
from store import Store

Row = dict[str, Any]


def pick(query: str, names: list[str], what: str) -> str:
    """The one name `query` means: exact, else equal or a unique part once accents, case and
    spacing are ignored. None or several: a ValueError that says which."""
    if query in names:
        return query
    key = search_key(query)
    keys = {n: search_key(n) for n in names}
    exact = [n for n in names if keys[n] == key]
    if len(exact) == 1:
        return exact[0]
    hits = [n for n in names if key in keys[n]]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ValueError(f"no {what} matches {query!r}")
    shown = "; ".join(hits[:10]) + (f"; ... ({len(hits) - 10} more)" if len(hits) > 10 else "")
    raise ValueError(f"{len(hits)} {what}s match {query!r}: {shown}. Be more specific.")


@dataclass
class Seating:
    """Who sat where in the store: each seat's player, each board's event, the names shown."""

    players: dict[str, list[str | None]]  # record_id -> player at N, E, S, W
    labels: dict[str, str]  # player -> name shown
    events: dict[str, str]  # record_id -> event (as scoring names it)
    names: dict[str, str] = field(default_factory=dict)  # event -> its name

    @property
    def boards(self) -> Counter:
        """Boards played per player."""
        return Counter(p for seats in self.players.values() for p in seats if p)

    def by_label(self) -> dict[str, str]:
        """Name shown -> player (the player with most boards, where two share a name)."""
        out: dict[str, str] = {}
        for player, _ in self.boards.most_common():
            out.setdefault(self.labels.get(player, player), player)
        return out


def seating(store: Store) -> Seating:
    """The store's seats and events; registers `site_who` for the player totals."""
    read_who(store)
    seated, labels = seat_identities(store)
    players: dict[str, list[str | None]] = defaultdict(lambda: [None] * 4)
    for record_id, seat, player in seated:
        players[record_id][seat] = player
    events, names = {}, {}
    for row in store.rows("lookup_board_events"):
        ev = event_label(row)
        events[row["record_id"]] = ev
        names.setdefault(ev, str(row.get("name") or row.get("event") or ev))
    return Seating(dict(players), labels, events, names)


def player_profile(store: Store, who: str, seats: Seating, top: int = 5) -> Row:
    """One player's numbers: boards per event, partners, the counters and the field's rates,
    the rating, and the `top` costliest mistakes."""
    from ddrank.site.profile import field_rates

    events: Counter = Counter()
    partners: Counter = Counter()
    for record_id, at in seats.players.items():
        for k, p in enumerate(at):
            if p == who:
                events[seats.events.get(record_id, "")] += 1
                if at[(k + 2) % 4]:
                    partners[at[(k + 2) % 4]] += 1
    totals = {r["player"]: r for r in store.rows("site_player_totals") if r.get("player")}
    rating = store.rows("lookup_rating", player=who)
    tables = {name for (name,) in store.tuples("site_table_names")}  # a store from before costs
    return {
        "player": who, "name": seats.labels.get(who, who), "boards": sum(events.values()),
        "events": {seats.names.get(ev, ev): n for ev, n in events.most_common()},
        "partners": [(seats.labels.get(p, p), n) for p, n in partners.most_common(10)],
        "totals": totals.get(who, {}), "field": field_rates(totals),
        "rating": rating[0] if rating else None,
        "costliest": (store.rows("player_mistakes", player=who, top=top)
                      if "ranked_mistakes" in tables else None),
        "names": seats.names,
    }  # fmt: skip


def event_names(store: Store) -> dict[str, str]:
    """'Name (date)' shown -> event, for every scored event."""
    out: dict[str, str] = {}
    for r in store.rows("scored_event_methods", events=None):
        name = str(r.get("name") or r["event"])
        label = f"{name} ({r['date']})" if r.get("date") and str(r["date"]) not in name else name
        out[label if label not in out else f"{label} [{r['event']}]"] = r["event"]
    return out


def event_summary(store: Store, event: str) -> Row:
    """An event's ranking as scoring stored it, with its counts of results, boards and players."""
    from stages.rankings import ranking_summary

    counts = store.rows("lookup_event_counts", event=event)
    ranking = ranking_summary(store, [event])
    return {**(counts[0] if counts else {}), "event": event,
            "ranking": ranking[0] if ranking else None}  # fmt: skip

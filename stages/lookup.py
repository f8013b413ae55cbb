"""The terminal's lookups (`ddrank player`, `ddrank event`), answered from the store alone.

Each reads only what its answer shows, with a few whole-store queries and no page built: the
players and their boards, one player's counters and the field's rates, the rating, the
costliest mistakes (`mistake_costs`, the rows the site's player pages read), and an event's
stored ranking (`stages.rankings`, as `ddrank results` prints it). Names are found with
`ddrank.text.search_key`: accents, case and spacing do not matter ("Remi" finds "Rémi").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ddrank.scoring.intake.records import event_label
from ddrank.text import search_key
from stages.seats import read_who
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


def players(store: Store) -> dict[str, str]:
    """Name shown -> player, for every seated player (the one with most boards where two share
    a name). Makes `site_who` for the queries that follow."""
    labels = read_who(store)
    boards = dict(store.tuples("lookup_player_boards"))
    out: dict[str, str] = {}
    for player in sorted(boards, key=lambda p: (-boards[p], p)):
        out.setdefault(labels.get(player, player), player)
    return out


def player_profile(store: Store, who: str, labels: dict[str, str], top: int = 5) -> Row:
    """One player's numbers: boards per event, partners, the counters and the field's rates,
    the rating, and the `top` costliest mistakes (after `players`, which makes `site_who`)."""
    from ddrank.site.profile import field_rates

    names = {v: k for k, v in labels.items()}  # player -> name shown
    events: Counter = Counter()
    event_name: dict[str, str] = {}
    for row in store.rows("lookup_player_events", player=who):
        ev = event_label(row)
        events[ev] += 1
        event_name.setdefault(ev, str(row.get("name") or row.get("event") or ev))
    partners = [(names.get(p, p), n) for p, n in store.tuples("lookup_partners", player=who)]
    totals = {r["player"]: r for r in store.rows("site_player_totals") if r.get("player")}
    rating = store.rows("lookup_rating", player=who)
    tables = {name for (name,) in store.tuples("site_table_names")}  # a store from before costs
    costliest = None
    if "ranked_mistakes" in tables:
        costliest = store.rows("player_mistakes", player=who, top=top)
        for ev in {m["event"] for m in costliest} - set(event_name):
            event_name[ev] = next((r["name"] or ev for r in store.rows(
                "scored_event_methods", events=[ev])), ev)  # fmt: skip
    return {
        "player": who, "name": names.get(who, who), "boards": sum(events.values()),
        "events": {event_name[ev]: n for ev, n in events.most_common()},
        "partners": partners[:10], "totals": totals.get(who, {}), "field": field_rates(totals),
        "rating": rating[0] if rating else None, "costliest": costliest, "names": event_name,
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

"""Per-player numbers for the pages: boards, events, partners, costliest mistakes, ratings.

The counts come from the store (`SiteData.reader`: each player's boards per event and most
frequent partners, counted in SQL), so they are known before any event's rows are read; the
costliest mistakes are linked to their card or call while each event's analysis is in memory
(`ddrank.site.costly.CostlyLinks`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from markupsafe import Markup, escape

from ddrank.site.costly import CostlyLinks
from ddrank.site.data import Event, Row, SiteData, slug
from ddrank.site.profile import field_rates


class Players:
    """Per-player numbers. `events`: the events as the site lists them (their order breaks ties
    between a player's events and partners, as the pages list them); `evs`: event id -> the
    reader's number of it."""

    def __init__(self, data: SiteData, events: list[Event], evs: dict[str, int]) -> None:
        self.totals = data.player_totals
        self.field = field_rates(self.totals)
        self.events: dict[str, Counter] = defaultdict(Counter)
        self.partners: dict[str, Counter] = defaultdict(Counter)
        reader = data.reader
        order = [evs[ev.event_id] for ev in events if ev.event_id in evs]
        rank = {n: k for k, n in enumerate(order)}
        label_of = {n: eid for eid, n in evs.items()}
        counts = sorted(reader.player_events(), key=lambda t: (t[0], -t[2], rank[t[1]]))
        for player, ev, n in counts:
            self.events[player][label_of[ev]] = int(n)
        for player, partners in reader.partners(order).items():
            for partner, n in partners:
                self.partners[player][partner] = n
        self.costly: dict[str, list[dict[str, Any]]] = {}  # after every event (`links`)
        self.data = data
        self.links = CostlyLinks(data.mistake_costs, by_points=reader.any_dd())
        self.ratings = {r["player"]: r for r in data.optional.get("ratings", []) if r.get("player")}
        self.history = _by_player(data.optional.get("rating_history", []))
        self.skill = _by_player(data.optional.get("skill_ratings", []))
        names = set(self.totals) | set(self.events)
        self.label = data.label
        self.names = sorted(names, key=lambda n: (-self.boards(n), self.label(n).casefold()))
        self.by_label: dict[str, str] = {}
        for n in self.names:
            self.by_label.setdefault(self.label(n), n)
        for rows in (self.history, self.skill):  # read a chunk of pages' players at a time
            if hasattr(rows, "plan"):
                rows.plan(self.names)

    @property
    def needed(self) -> set[str] | None:
        """The tables to analyse in an event not rendered again: those a player page links to
        (None: every table, when mistakes are listed by their DD points)."""
        return None if self.links.by_points else self.links.needed

    def release(self, boards: list[Any]) -> None:
        """After an event's pages: its tables' analysis dropped."""
        for b in boards:
            b.views = []
            for r in b.rows:
                r.pop("view", None)
                r.pop("split", None)

    def boards(self, name: str) -> int:
        return int((self.totals.get(name) or {}).get("boards") or sum(self.events[name].values()))

    def page(self, name: str) -> str:
        return f"players/{slug(name, 'p')}.html"

    def linked(self, players: str, root: str) -> Markup:
        """'A - B' (a ranking line's names) with each name linked to its page where known."""
        parts = []
        for name in str(players or "").split(" - "):
            key = self.by_label.get(name.strip())
            parts.append(Markup('<a href="{}">{}</a>').format(root + self.page(key), name)
                         if key else escape(name))  # fmt: skip
        return Markup(" – ").join(parts)


def _by_player(rows: Any) -> Any:
    """An optional table's rows by player: its rows (a list) grouped here, or the caller's
    reader of them a chunk of players at a time (anything with `get` and `plan`)."""
    if hasattr(rows, "plan"):
        return rows
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        if r.get("player"):
            out[r["player"]].append(r)
    return out

"""Paged listings: every event, every player and every rating on pages of a fixed size, so adding
one event re-renders the pages that list it and keeps the others.

- Events: pages of `EVENTS_PER_PAGE` counted from the oldest event (`events/page-1.html` holds
  the oldest), each listed latest first: a new event (the latest) changes the last page only; an
  event dated back among older ones moves the ones after it. The index lists the latest
  `EVENTS_PER_PAGE` events and links every page.
- Players: pages of `PLAYERS_PER_PAGE` in A-to-Z order of their names (`players/page-1.html`):
  an event changes the pages of its players (their boards and events); a new player moves the
  ones after them by one. The index lists the `PLAYERS_PER_PAGE` players with the most boards.
- Ratings: pages of `RATINGS_PER_PAGE`, best first (`ratings.html`, then `ratings-2.html`, ...).

A site within one page of each (the bundled sample's) has exactly the pages it had before paging.
Each page links the one before and after it only, so a new page changes one other page. A page
whose rows did not change is kept from the last build (its fingerprint), not rendered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ddrank.site.data import Event
from ddrank.site.fingerprint import fingerprint

EVENTS_PER_PAGE = 100
PLAYERS_PER_PAGE = 500
RATINGS_PER_PAGE = 200


def chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[k : k + size] for k in range(0, len(items), size)]


def event_chunks(events: list[Event]) -> list[list[Event]]:
    """The events' pages, the oldest page first, each page latest first (`events`: the site's
    order, latest first)."""
    oldest = events[::-1]
    return [list(page[::-1]) for page in chunks(oldest, EVENTS_PER_PAGE)]


def player_chunks(names: list[str], label: Any) -> list[list[str]]:
    """The players' pages in A-to-Z order of the name shown."""
    order = sorted(names, key=lambda n: (label(n).casefold(), n))
    return [list(page) for page in chunks(order, PLAYERS_PER_PAGE)]


def event_page(k: int) -> str:
    return f"events/page-{k}.html"


def player_page(k: int) -> str:
    return f"players/page-{k}.html"


def rating_page(k: int) -> str:
    return "ratings.html" if k == 1 else f"ratings-{k}.html"


def _nav(k: int, count: int, page: Any) -> dict[str, str | None]:
    return {"prev": page(k - 1) if k > 1 else None, "next": page(k + 1) if k < count else None}


def event_row(ev: Event) -> tuple:
    """What an events table shows of an event (its fingerprint's part)."""
    return (ev.event_id, ev.page, ev.name, ev.date, ev.year, ev.organiser, ev.site,
            bool(ev.hands), ev.scoring, ev.deals, ev.player_count, ev.listed)  # fmt: skip


def list_pages(pages: Any) -> Iterator[tuple[str, str, Any, dict[str, Any]]]:
    """(path, template, fingerprint, context) of every paged list beyond the index's (the
    caller renders those whose fingerprint changed). `pages`: the `SitePages` being built."""
    players = pages.players
    evs = event_chunks(pages.events) if len(pages.events) > EVENTS_PER_PAGE else []
    for k, chunk in enumerate(evs, 1):
        nav = _nav(k, len(evs), event_page)
        yield (event_page(k), "events_page.html",
               fingerprint([event_row(ev) for ev in chunk], nav),
               {"events": chunk, "nav": nav, "number": k})  # fmt: skip
    names = players.names
    people = player_chunks(names, players.label) if len(names) > PLAYERS_PER_PAGE else []
    for k, chunk in enumerate(people, 1):
        nav = _nav(k, len(people), player_page)
        rows = [(n, players.label(n), players.page(n), players.boards(n), len(players.events[n]),
                 (players.ratings.get(n) or {}).get("rating")) for n in chunk]  # fmt: skip
        yield (player_page(k), "players_page.html", fingerprint(rows, nav),
               {"names": chunk, "nav": nav, "number": k})  # fmt: skip


def rating_chunks(listed: list[dict[str, Any]]) -> list[Sequence[dict[str, Any]]]:
    return chunks(listed, RATINGS_PER_PAGE) or [[]]

"""The static site's pages: index (events and rankings first), one page per event and per board,
one per player, and the optional ratings, model and about pages.

Pure rendering: takes a `SiteData`, returns HTML strings (jinja2, autoescaped: names hold quotes
and '<') and the list of rating charts to draw; `publish.site` writes them with the CSS file, the
search script and the SVG charts. Every link is relative, so the site works from file:// and from
any static server, with nothing fetched from the internet.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from jinja2 import BytecodeCache, Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ddrank.site import listing
from ddrank.site.board import suited
from ddrank.site.board_html import auction_rows, dd_table_rows, diagram_hands, play_rows, who_sat
from ddrank.site.data import (
    Event,
    Row,
    SiteData,
    date_order,
    fmt_num,
    fmt_short,
    league_events,
    listed_event,
    slug,
)
from ddrank.site.event_run import EventRun, Job, Mapper
from ddrank.site.fingerprint import code_version, fingerprint
from ddrank.site.handrecord import hand_record_events
from ddrank.site.matches import knockouts, matches_of, split_matches
from ddrank.site.players import Players
from ddrank.site.profile import CATEGORIES, count_text, profile
from ddrank.site.ranking import Ranking, cumulative_of, event_standings, one_field, rankings_of
from ddrank.site.rebuild import player_fingerprint
from ddrank.site.scorecard import Scorecard, scorecards
from ddrank.site.stats import regression_verdict
from ddrank.text import SPECIAL_LETTERS, search_key

#: Events whose leaders the index shows (the latest first); the others are linked.
FRONT_EVENTS = 3
#: Lines of each of their rankings the index shows (the whole ranking is on the event's page).
FRONT_LINES = 3
#: Players with at least this many boards are listed first and get a rating chart...
MIN_BOARDS_LISTED = 30
#: ... when they were rated in at least this many periods (one period is a point, shown as text).
MIN_PERIODS_CHARTED = 2
#: At most this many charts (players with the most boards first): the players a reader looks at
#: most. Every other player page shows the same numbers as a table (rating ± SE and boards after
#: each period).
MAX_CHARTS = 40
#: Results read from the store at once (events are read whole: one larger event is one batch).
BATCH_RESULTS = 5_000
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
#: Columns of the scoring stage's `rankings` and of `published_standings` the event page shows.
RANKING_COLUMNS = ("rank", "kind", "session", "section", "direction", "pair", "players", "boards",
                   "score", "pct", "published_place", "published_pct")  # fmt: skip
STANDING_COLUMNS = ("published_place", "session", "section", "direction", "pair", "team_name",
                    "players", "published_mp", "published_pct", "published_imps", "published_vp")  # fmt: skip


def environment(bytecode_cache: BytecodeCache | None = None) -> Environment:
    """The templates' environment; `bytecode_cache` (the caller's) keeps them compiled between
    runs: compiling the seven templates is ~0.1 s of CPU of every site build."""
    env = Environment(
        loader=PackageLoader("ddrank.site", "templates"),
        bytecode_cache=bytecode_cache,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = fmt_num
    env.filters["short"] = fmt_short
    env.filters["signed"] = lambda v, d=0: "" if v is None else f"{v:+.{d}f}"
    env.filters["pct"] = lambda v: (
        "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.0f}"
    )
    env.filters["contract"] = contract_html
    env.filters["par"] = par_text
    env.filters["tally"] = count_text
    env.filters["filename"] = file_name
    env.globals["SUITS"] = SUIT_SYMBOLS
    env.globals["auction_rows"] = auction_rows
    env.globals["play_rows"] = play_rows
    env.globals["diagram_hands"] = diagram_hands
    env.globals["dd_table_rows"] = dd_table_rows
    env.globals["who_sat"] = who_sat
    env.globals["search_key"] = search_key
    letters = json.dumps(SPECIAL_LETTERS, ensure_ascii=True)
    env.globals["search_letters"] = Markup(letters.replace("<", "\\u003c"))
    env.filters["suited"] = suited
    return env


def file_name(path: str | None) -> str:
    """A source file's name without its folders: a page on the web never shows where the club
    keeps its files (either separator, whichever system wrote the path)."""
    return str(path or "").replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def par_text(par: str | None) -> str:
    """'NS 4SX-1; EW 5D=' -> 'NS 4♠X-1; EW 5♦=' (plain text, escaped by the template)."""
    if not par:
        return ""
    return re.sub(r"([1-7])([SHDCN])", lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], par)


def contract_html(contract: str | None) -> str:
    """'4SX' -> '4♠X' as plain text (the template escapes it)."""
    if not contract:
        return ""
    if contract == "P":
        return "Pass"
    return contract[0] + SUIT_SYMBOLS.get(contract[1:2], contract[1:2]) + contract[2:]


# ------------------------------------------------------------------ site


class SitePages(EventRun):
    """Every page of the site as (path relative to the site, HTML), in the order they are written.

    The index shows the events and their rankings first; ratings, the model and where the data
    came from have their own pages, written (and linked) only when there is something to show.
    Iterating renders the pages; after it, `charts` holds the rating charts to draw (player,
    history with period names, path relative to the site) and `summary()` what the site holds.
    `copied` lists the regression report's files placed next to the model page.

    The events are listed from the store's counts (`SiteData.reader`), then read and rendered a
    batch of events at a time: memory holds one batch's rows and analysis, not the archive.
    """

    def __init__(self, data: SiteData, copied: list[str],
                 bytecode_cache: BytecodeCache | None = None,
                 previous: dict[str, Any] | None = None) -> None:  # fmt: skip
        self.data = data
        self.copied = copied
        self.env = environment(bytecode_cache)
        meta = {str(e.get("event_id")): e for e in data.optional.get("events", [])}
        rows = data.reader.events()
        self.evs = {r["label"]: r["ev"] for r in rows}
        events = [listed_event(r, meta) for r in rows]
        events += league_events(data, set(self.evs), data.reader.league_names()).values()
        with_results = {m for ev in events for m in ev.model_ids}
        events += self._hand_events(meta, with_results)
        self.events = date_order(events)
        self.players = Players(data, self.events, self.evs)
        self.verdict = regression_verdict(data.regression)
        self.ranked = ratings_table(data, self.players)
        self.charts: list[tuple[str, list[Row], str]] = []
        self.event_pages = 0
        names = {e.event_id: e.name for e in self.events}

        def period_name(period: Any) -> str:
            """A rating period is an event: its name, not its id."""
            return names.get(str(period), str(period or ""))

        self.period_name = period_name
        #: the optional pages, linked from every page only when written
        self.show = {"ratings": bool(self.ranked), "model": data.regression is not None}
        self.common = {"verdict": self.verdict, "has": set(data.optional), "label": data.label,
                       "period_name": period_name, "show": self.show}  # fmt: skip
        self.event_of = {e.event_id: e for e in self.events}
        #: what this build rendered from what: `record()` after iterating (see `__iter__`)
        self.built: dict[str, Any] = {
            "version": code_version(),
            "global": fingerprint(self.verdict, sorted(data.optional), self.show),
            "events": {}, "players": {}, "lists": {},
        }  # fmt: skip
        prev = previous or {}
        same = all(prev.get(k) == self.built[k] for k in ("version", "global"))
        self.previous: dict[str, Any] = prev if same else {}
        self.rendered = 0
        self.reused = 0
        self.events_read = 0
        self.processes = 1  # that rendered the events' pages (the writer's count)
        self.front_events, self.batch_results = FRONT_EVENTS, BATCH_RESULTS
        self.fronts: list[Any] = []
        #: (mapper, work) for `pages` when iterated: the caller's processes (None: this one)
        self.parallel: tuple[Mapper | None, Callable[[Job], Any] | None] = (None, None)
        #: each event's players (key, name shown), and the optional tables' rows naming it
        self.people: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for name in sorted(self.players.events):
            for eid in self.players.events[name]:
                self.people[eid].append((name, data.label(name)))
        self.content = data.reader.content()
        links = self.players.links
        self.cost_rows = links.rows_by_event(data.reader.events_of(sorted(links.by_record)))

    def _hand_events(self, meta: dict[str, Row], with_results: set[str]) -> list[Event]:
        """Hand records published without results (their deals' published DD tables read)."""
        data = self.data
        if not data.hand_deals:
            return []
        first = hand_record_events(data.hand_deals, {}, {}, meta, with_results, set())
        published, played = data.reader.hand_dd(sorted({h["deal_id"] for ev in first
                                                        for h in ev.hands}))  # fmt: skip
        return hand_record_events(data.hand_deals, published, {}, meta, with_results, played)

    def render(self, rel: str, template: str, **ctx: Any) -> tuple[str, str]:
        root = "../" * rel.count("/")
        return rel, self.env.get_template(template).render(root=root, **self.common, **ctx)

    def _parts(self, ev: Event, boards: list[Any], sub: SiteData) -> tuple[list[Ranking],
                                                                         list[Scorecard], Row]:  # fmt: skip
        """An event's rankings, its pairs' scorecards and its matches."""
        opt = sub.optional
        standings = opt.get("published_standings", [])
        rks = rankings_of(ev.event_id, opt.get("rankings", []), standings, ev.scoring == "MP",
                          ev.model_ids, (ev.name, ev.date), ev.team_label)  # fmt: skip
        pages = {r["record_id"]: b.page for b in boards for r in b.rows}
        cards = scorecards(ev, rks, pages, opt.get("player_results") or [])
        rr, ko = split_matches(ev, matches_of(ev, opt.get("team_matches", [])))
        # knockout matches are shown as matches: not ranked on VPs, nor as a ranking of two
        rankings = one_field([rk for rk in rks if rk.kind != "knockout"
                              and not (rk.kind == "teams" and ko and not rr)])  # fmt: skip
        matches = {"matches": rr, "knockouts": knockouts(ko)}
        # a session's file that also publishes the standings over the sessions so far
        matches["cumulative"] = cumulative_of(event_standings(
            ev.event_id, standings, ev.model_ids, (ev.name, ev.date)))  # fmt: skip
        return rankings, cards, matches

    def __iter__(self) -> Iterator[tuple[str, str | None]]:
        return self.pages(*self.parallel)

    def pages(self, mapper: Mapper | None = None,
              work: Callable[[Job], Any] | None = None) -> Iterator[tuple[str, str | None]]:  # fmt: skip
        """Every page; with `mapper` and `work`, the read batches' events' pages are rendered
        (and written) by `work`, elsewhere (`EventRun.event_pages_all`)."""
        players, events = self.players, self.events
        yield from self.event_pages_all(mapper, work)
        front = self.fronts
        players.costly = players.links.result([e.event_id for e in events])
        paged = len(events) > listing.EVENTS_PER_PAGE, len(players.names) > listing.PLAYERS_PER_PAGE
        yield self.render("index.html", "index.html", events=events[:listing.EVENTS_PER_PAGE],
                          players=players, data=self.data, front=front,
                          min_boards=MIN_BOARDS_LISTED, front_lines=FRONT_LINES,
                          listed_names=players.names[:listing.PLAYERS_PER_PAGE],
                          event_pages=len(listing.event_chunks(events)) if paged[0] else 0,
                          player_pages=len(listing.player_chunks(players.names, players.label))
                          if paged[1] else 0, all_events=len(events))  # fmt: skip
        yield from self._player_pages()
        yield self.render("about.html", "about.html", data=self.data, events=events)
        yield from self._lists()
        if self.show["model"]:
            yield self.render("model/index.html", "model.html", report=self.data.regression,
                              copied=self.copied)  # fmt: skip

    def _player_pages(self) -> Iterator[tuple[str, str | None]]:
        players = self.players
        charted = 0
        for name in players.names:
            chart, named = None, []
            hist = players.history.get(name, [])
            if (len(hist) >= MIN_PERIODS_CHARTED and players.boards(name) >= MIN_BOARDS_LISTED
                    and charted < MAX_CHARTS):  # fmt: skip
                charted += 1
                chart = f"img/{slug(name, 'p')}-rating.svg"
                named = [{**h, "period": self.period_name(h.get("period"))} for h in hist]
            lines = profile(players.totals.get(name, {}), players.field)
            fp = player_fingerprint(self, name, chart, named, lines)
            old = self.previous.get("players", {}).get(name)
            if old and old[0] == fp:  # the page and its chart as they are
                self.built["players"][name] = old
                yield from self._reuse(old[1])
                continue
            rels = [players.page(name)]
            if chart:
                self.charts.append((name, named, f"players/{chart}"))
                rels.append(f"players/{chart}")
            self.built["players"][name] = [fp, rels]
            yield self.render(players.page(name), "player.html", name=name, p=players,
                              chart=chart, lines=lines,
                              totals=players.totals.get(name, {}),
                              history=sorted(hist, key=_period_order),
                              costly=players.costly.get(name, []),
                              rating=players.ratings.get(name), skill=players.skill.get(name, []),
                              event_of=self.event_of, categories=CATEGORIES)  # fmt: skip

    def _lists(self) -> Iterator[tuple[str, str | None]]:
        """The paged lists (`ddrank.site.listing`): the events' and players' pages beyond the
        index's, and the ratings' pages; a page whose rows did not change is kept."""
        todo = list(listing.list_pages(self))
        if self.show["ratings"]:
            listed = [r for r in self.ranked if r["boards"] >= MIN_BOARDS_LISTED]
            parts = listing.rating_chunks(listed)
            for k, rows in enumerate(parts, 1):
                nav = {"prev": listing.rating_page(k - 1) if k > 1 else None,
                       "next": listing.rating_page(k + 1) if k < len(parts) else None}  # fmt: skip
                ctx = {"ratings": self.ranked, "rows": rows, "nav": nav, "number": k,
                       "offset": (k - 1) * listing.RATINGS_PER_PAGE, "min_boards": MIN_BOARDS_LISTED}  # fmt: skip
                fp = fingerprint(rows, len(self.ranked), len(listed), nav)
                todo.append((listing.rating_page(k), "ratings.html", fp, ctx))
        for rel, template, fp, ctx in todo:
            old = self.previous.get("lists", {}).get(rel)
            if old and old[0] == fp:
                self.built["lists"][rel] = old
                yield from self._reuse(old[1])
                continue
            self.built["lists"][rel] = [fp, [rel]]
            yield self.render(rel, template, p=self.players, **ctx)

    def _reuse(self, rels: list[str]) -> Iterator[tuple[str, None]]:
        """Pages of the previous build kept as they are: (path, None) for the writer to keep."""
        for rel in rels:
            self.reused += 1
            yield rel, None

    def summary(self) -> dict[str, Any]:
        """What the site holds (after iterating): counts, the verdict, the top of the ratings."""
        players = self.players
        return {
            "events": len(self.events),
            "players": len(players.names),
            "players_30_boards": sum(
                1 for n in players.names if players.boards(n) >= MIN_BOARDS_LISTED
            ),
            "event_pages": self.event_pages,
            "verdict": self.verdict,
            "ratings": [r for r in self.ranked if r["boards"] >= MIN_BOARDS_LISTED][:10],
            "rated": len(self.ranked),  # players with a Lehman rating, whatever their boards
            "min_boards_listed": MIN_BOARDS_LISTED,
        }


def _period_order(row: Row) -> float:
    try:
        return float(row.get("period_index") or 0)
    except (TypeError, ValueError):
        return 0.0


def ratings_table(data: SiteData, players: Players) -> list[Row]:
    """The rating table: stored Lehman ratings, best first (empty when the store has none)."""
    rows = []
    for r in data.optional.get("ratings", []):
        name = r.get("player")
        if not name or r.get("rating") is None:
            continue
        rows.append({"player": name, "name": data.label(name), "rating": float(r["rating"]),
                     "se": r.get("se", r.get("std_error")), "boards": int(r.get("boards") or 0),
                     "page": players.page(name)})  # fmt: skip
    return sorted(rows, key=lambda r: (-r["rating"], r["player"]))


def event_of(row: Row) -> str:
    """The event key of a scoring-stage row (`event`) or an event-model row (`event_id`)."""
    return str(row.get("event_id") or row.get("event") or "")


def group_rankings(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """Ranking lines grouped by kind, session and section (as the store gives them), by rank."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        key = " · ".join(str(r[k]) for k in ("kind", "session", "section", "direction") if r.get(k))
        groups[key or "whole event"].append({k: v for k, v in r.items()
                                             if k not in ("kind", "session", "section", "direction")})  # fmt: skip

    def rank(r: Row) -> float:
        for k in ("rank", "published_place", "place"):
            v = r.get(k)
            try:
                return float(str(v).rstrip("="))
            except (TypeError, ValueError):
                continue
        return math.inf

    out = []
    for key, rows in sorted(groups.items()):
        used = [c for c in rows[0] if any(r.get(c) not in (None, "") for r in rows)]
        out.append((key, [{c: r.get(c) for c in used} for r in sorted(rows, key=rank)]))
    return out  # columns no line fills are left out

"""The static site's pages: index, one page per event (plus traveller pages), player and model pages.

Pure rendering: takes a `SiteData`, returns HTML strings (jinja2, autoescaped: names hold quotes
and '<') and the list of rating charts to draw; `publish.site` writes them with the CSS file, the
search script and the SVG charts. Every link is relative, so the site works from file:// and from
any static server, with nothing fetched from the internet.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from ddrank.site.data import (
    SEATS,
    Event,
    Row,
    SiteData,
    boards_of,
    build_events,
    fmt_num,
    pair_matchpoints,
    pair_split,
    slug,
)
from ddrank.site.profile import CATEGORIES, field_rates, profile
from ddrank.site.stats import regression_verdict

#: Boards per traveller page: keeps a page of a 1,000-board event small enough to open at once.
BOARDS_PER_PAGE = 32
#: Players with at least this many boards are listed first and get a rating chart...
MIN_BOARDS_LISTED = 30
#: ... when they were rated in at least this many periods (one period is a point, shown as text).
MIN_PERIODS_CHARTED = 2
#: At most this many charts (players with the most boards first): matplotlib takes 0.1-0.5 s per
#: chart on a busy 2-core machine, and the whole report must stay well under 30 s. Every other
#: player page shows the same numbers as a table (rating ± SE and boards after each period).
MAX_CHARTS = 40
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
#: Columns of the scoring stage's `rankings` and of `published_standings` the event page shows.
RANKING_COLUMNS = ("rank", "kind", "session", "section", "direction", "pair", "players", "boards",
                   "score", "pct", "published_place", "published_pct")  # fmt: skip
STANDING_COLUMNS = ("published_place", "session", "section", "direction", "pair", "team_name",
                    "players", "published_mp", "published_pct", "published_imps", "published_vp")  # fmt: skip
#: Values a source published per result, shown beside ours when present.
PUBLISHED = ("ns_score", "published_ns_mp", "published_ew_mp", "published_ns_pct",
             "published_ew_pct", "published_imps", "adjusted", "phantom")  # fmt: skip


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("ddrank.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = fmt_num
    env.filters["signed"] = lambda v, d=0: "" if v is None else f"{v:+.{d}f}"
    env.filters["pct"] = lambda v: (
        "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.0f}"
    )
    env.filters["contract"] = contract_html
    env.filters["par"] = par_text
    env.filters["tally"] = count_text
    env.globals["SUITS"] = SUIT_SYMBOLS
    env.globals["PUBLISHED"] = PUBLISHED
    return env


def par_text(par: str | None) -> str:
    """'NS 4SX-1; EW 5D=' -> 'NS 4♠X-1; EW 5♦=' (plain text, escaped by the template)."""
    if not par:
        return ""
    return re.sub(r"([1-7])([SHDCN])", lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], par)


def count_text(v: float | None) -> str:
    """A mistake count: whole numbers plainly, fractional ones (tied auction mistakes) to 0.1."""
    if v is None:
        return ""
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.1f}"


def contract_html(contract: str | None) -> str:
    """'4SX' -> '4♠X' as plain text (the template escapes it)."""
    if not contract:
        return ""
    if contract == "P":
        return "Pass"
    return contract[0] + SUIT_SYMBOLS.get(contract[1:2], contract[1:2]) + contract[2:]


def hands(deal: str | None) -> dict[str, list[tuple[str, str]]]:
    """Canonical 'N:S.H.D.C E... S... W...' -> seat -> [(suit, cards)]; {} without a deal."""
    if not deal:
        return {}
    first = deal[0]
    parts = deal[2:].split()
    start = SEATS.index(first)
    out = {}
    for k, part in enumerate(parts):
        seat = SEATS[(start + k) % 4]
        out[seat] = list(zip("SHDC", (s or "—" for s in part.split(".")), strict=True))
    return out


def dd_rows(table: dict[tuple[str, str], int] | None) -> list[tuple[str, list[Any]]]:
    if not table:
        return []
    return [(seat, [table.get((s, seat), "") for s in "NSHDC"]) for seat in "NSEW"]


# ------------------------------------------------------------------ players


class Players:
    """Per-player numbers for the pages: boards, events, partners, costliest boards, ratings."""

    def __init__(self, data: SiteData, events: list[Event]) -> None:
        self.totals = data.player_totals
        self.field = field_rates(self.totals)
        self.events: dict[str, Counter] = defaultdict(Counter)
        self.partners: dict[str, Counter] = defaultdict(Counter)
        self.costly: dict[str, list[Row]] = defaultdict(list)
        for ev in events:
            for idx, (label, deal_id, rows) in enumerate(boards_of(ev)):
                href = f"{ev.page[: -len('.html')]}-boards-{idx // BOARDS_PER_PAGE + 1}.html#b-{deal_id}"
                for r in rows:
                    for k, p in enumerate(r["players"]):
                        if not p:
                            continue
                        self.events[p][ev.event_id] += 1
                        partner = r["players"][(k + 2) % 4]
                        if partner:
                            self.partners[p][partner] += 1
                        m = r["mistakes"][k]
                        if m and m["cost"] > 0:
                            self.costly[p].append({"cost": m["cost"], "event": ev, "board": label,
                                                   "deal_id": deal_id, "seat": SEATS[k], "href": href,
                                                   "contract": r.get("contract"),
                                                   "declarer": r.get("declarer"), "mistakes": m})  # fmt: skip
        self.ratings = {r["player"]: r for r in data.optional.get("ratings", []) if r.get("player")}
        self.history: dict[str, list[Row]] = defaultdict(list)
        for r in data.optional.get("rating_history", []):
            if r.get("player"):
                self.history[r["player"]].append(r)
        self.skill: dict[str, list[Row]] = defaultdict(list)
        for r in data.optional.get("skill_ratings", []):
            if r.get("player"):
                self.skill[r["player"]].append(r)
        names = set(self.totals) | set(self.events)
        self.label = data.label
        self.names = sorted(names, key=lambda n: (-self.boards(n), self.label(n).casefold()))

    def boards(self, name: str) -> int:
        return int((self.totals.get(name) or {}).get("boards") or sum(self.events[name].values()))

    def page(self, name: str) -> str:
        return f"players/{slug(name, 'p')}.html"


# ------------------------------------------------------------------ site


class SitePages:
    """Every page of the site as (path relative to the site, HTML), in the order they are written.

    Iterating renders the pages; after it, `charts` holds the rating charts to draw (player,
    history with period names, path relative to the site) and `summary()` what the site holds.
    `copied` lists the regression report's files placed next to the model page.
    """

    def __init__(self, data: SiteData, copied: list[str]) -> None:
        self.data = data
        self.copied = copied
        self.env = environment()
        self.events = build_events(data)
        self.players = Players(data, self.events)
        self.verdict = regression_verdict(data.regression)
        self.ranked = ratings_table(data, self.players)
        self.charts: list[tuple[str, list[Row], str]] = []
        self.event_pages = 0
        names = {e.event_id: e.name for e in self.events}

        def period_name(period: Any) -> str:
            """A rating period is an event: its name, not its id."""
            return names.get(str(period), str(period or ""))

        self.period_name = period_name
        self.common = {"verdict": self.verdict, "has": set(data.optional), "label": data.label,
                       "period_name": period_name}  # fmt: skip

    def render(self, rel: str, template: str, **ctx: Any) -> tuple[str, str]:
        root = "../" * rel.count("/")
        return rel, self.env.get_template(template).render(root=root, **self.common, **ctx)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        data, players, events = self.data, self.players, self.events
        yield self.render("index.html", "index.html", events=events, players=players, data=data,
                          ratings=self.ranked, min_boards=MIN_BOARDS_LISTED)  # fmt: skip
        for ev in events:
            for page in event_pages(ev, data, players, self.render):
                self.event_pages += 1  # the event page and its traveller pages
                yield page
        for name in players.names:
            chart = None
            hist = players.history.get(name, [])
            if (len(hist) >= MIN_PERIODS_CHARTED and players.boards(name) >= MIN_BOARDS_LISTED
                    and len(self.charts) < MAX_CHARTS):  # fmt: skip
                chart = f"img/{slug(name, 'p')}-rating.svg"
                named = [{**h, "period": self.period_name(h.get("period"))} for h in hist]
                self.charts.append((name, named, f"players/{chart}"))
            yield self.render(players.page(name), "player.html", name=name, p=players,
                              chart=chart, lines=profile(players.totals.get(name, {}),
                                                         players.field),
                              totals=players.totals.get(name, {}),
                              history=sorted(hist, key=_period_order),
                              costly=sorted(players.costly[name], key=lambda c: -c["cost"])[:10],
                              rating=players.ratings.get(name), skill=players.skill.get(name, []),
                              event_of={e.event_id: e for e in events},
                              categories=CATEGORIES)  # fmt: skip
        yield self.render("model/index.html", "model.html", report=data.regression,
                          copied=self.copied)  # fmt: skip

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


def result_row(r: Row, ev: Event, players: Players, root: str, published: bool) -> Markup:
    """One traveller line as HTML. Built in Python, not in the template: a 7,000-result store has
    7,000 of them and jinja's per-cell overhead made them most of the report's time. Every value
    from the store goes through `escape`."""

    def name(k: int) -> str:
        p = r["players"][k]
        if not p:
            return ""
        return f'<a href="{escape(root + players.page(p))}">{escape(players.label(p))}</a>'

    def td(value: Any, cls: str = "n") -> str:
        return f'<td class="{cls}">{escape("" if value is None else value)}</td>'

    table = str(escape(r.get("table_no") or r.get("room") or ""))
    if r.get("home_team"):
        teams = [r["home_team"]] + ([r["visit_team"]] if r.get("visit_team") else [])
        match = " v ".join(str(escape(t)) for t in teams)
        table += f'<br><span class="muted">{match}</span>'
    result, dd = r.get("result"), r.get("dd_tricks")
    dd_cell = ""
    if dd is not None:
        dd_cell = str(dd)
        if result is not None:
            cls = "plus" if result > dd else "minus" if result < dd else "muted"
            dd_cell += f' <span class="{cls}">({result - dd:+d})</span>'
    cells = [
        f"<td>{table}</td>",
        f"<td>{name(0)}<br>{name(2)}</td>",
        f"<td>{name(1)}<br>{name(3)}</td>",
        td(contract_html(r.get("contract")), ""), td(r.get("declarer") or "", ""),
        td(r.get("opening_leader") or "", ""), td(result),
        f'<td class="n">{dd_cell}</td>', td(r.get("ns_points")),
    ]  # fmt: skip
    if ev.scoring == "MP":
        pct = r.get("stored_pct_ns") if r.get("stored_pct_ns") is not None else r.get("pct_ns")
        cells.append(td(fmt_num(pct, 1)))
    else:
        imps = r.get("stored_imps_ns") if r.get("stored_imps_ns") is not None else r.get("imps_ns")
        split = r.get("split")
        cells += [td(fmt_num(imps)), td(fmt_num(split.bid) if split else ""),
                  td(fmt_num(split.play) if split else "")]  # fmt: skip
    cells.append(f"<td>{mistakes_html(r)}</td>")
    if published:
        pub = "; ".join(
            f"{k.replace('published_', '')} {fmt_num(r[k])}" for k in PUBLISHED if r.get(k)
        )
        cells.append(td(pub, ""))
    return Markup(f'<tr id="r-{escape(r["record_id"])}">' + "".join(cells) + "</tr>")


def mistakes_html(r: Row) -> str:
    """The DD mistakes made at the table, one line per seat, with the points they cost."""
    lines = []
    for m in r["mistakes"]:
        if not m:
            continue
        parts = [(m["declarer_mistakes"], "decl"), (m["defence_mistakes"], "def"),
                 (m["lead_mistakes"], "lead"), (m["claim_mistakes"], "claim"),
                 (m["auction_mistakes"], "auct")]  # fmt: skip
        words = [w if w in ("lead", "claim") else f"{w} {count_text(v)}" for v, w in parts if v]
        if words:
            lines.append(f'<span class="mistake">{SEATS[m["seat"]]} {" ".join(words)} '
                         f'({m["cost"]:.0f})</span>')  # fmt: skip
    if lines:
        return "<br>".join(lines)
    analysed = r["mistakes"][0] and r["mistakes"][0].get("analysed")
    return (
        '<span class="muted">none</span>' if analysed else '<span class="muted">not analysed</span>'
    )


def event_pages(
    ev: Event, data: SiteData, players: Players, render: Any
) -> Iterator[tuple[str, str]]:
    """The event page (rankings, split, board list), then its traveller pages."""
    boards = boards_of(ev)
    chunks = [boards[i : i + BOARDS_PER_PAGE] for i in range(0, len(boards), BOARDS_PER_PAGE)]
    base = ev.page[: -len(".html")]
    board_links = []
    for k, chunk in enumerate(chunks):
        page = f"{base}-boards-{k + 1}.html"
        for label, deal_id, rows in chunk:
            board_links.append({"label": label, "session": rows[0].get("session"),
                                "href": f"{page.split('/')[-1]}#b-{deal_id}",
                                "results": len(rows)})  # fmt: skip
    rankings = [
        {k: r.get(k) for k in RANKING_COLUMNS if k in r}
        for r in data.optional.get("rankings", [])
        if event_of(r) == ev.event_id
    ]
    standings = [
        {k: r.get(k) for k in STANDING_COLUMNS if k in r}
        for r in data.optional.get("published_standings", [])
        if event_of(r) == ev.event_id
    ]
    yield render(ev.page, "event.html", ev=ev, rankings=group_rankings(rankings),
          standings=group_rankings(standings),
          split=pair_split(ev) if ev.scoring == "IMP" else [],
          mp_pairs=pair_matchpoints(ev) if ev.scoring == "MP" else [],
          board_links=board_links, pages=len(chunks), players=players)  # fmt: skip
    for k, chunk in enumerate(chunks):
        travellers = [
            {"label": label, "deal_id": deal_id, "rows": rows, "first": rows[0],
             "hands": hands(rows[0]["deal"]), "dd": dd_rows(data.dd_tables.get(deal_id)),
             "published": any(r.get(k) for r in rows for k in PUBLISHED)}
            for label, deal_id, rows in chunk
        ]  # fmt: skip
        yield render(f"{base}-boards-{k + 1}.html", "boards.html", ev=ev, travellers=travellers,
              page_no=k + 1, pages=len(chunks), players=players, base=base.split("/")[-1],
              result_row=lambda r, pub: result_row(r, ev, players, "../", pub),
              scored=any(r["scored"] for r in ev.results))  # fmt: skip


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

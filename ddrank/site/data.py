"""What the site is built from (plain rows read from the store) and the views derived from it.

`stages/site.py` fills a `SiteData` from the store; everything here is pure: grouping results into
events and boards, the bid/play split of IMP events, player pages' numbers.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddrank.scoring.intake.results import TableResult, make_result
from ddrank.scoring.model import TEAM_SCORINGS
from ddrank.site.stats import fmt_num  # noqa: F401 - the site's number format, used from here

Row = dict[str, Any]
SEATS = "NESW"
#: An event is scored by IMPs unless its records say matchpoints (the bundled sample is teams).
MP_WORDS = ("MP", "MP_PAIRS", "MATCHPOINT", "MATCHPOINTS", "PAIRS")


class ByEvent:
    """An optional table read with each batch of events (`SiteData.reader`), not whole: its
    rows are in each batch's `SiteData.optional`. Reading it whole is a mistake, and raises."""

    def __init__(self, table: str) -> None:
        self.table = table

    def __repr__(self) -> str:
        return f"ByEvent({self.table!r})"

    def __iter__(self) -> Any:
        raise TypeError(f"{self.table} is read a batch of events at a time, not whole")


@dataclass
class SiteData:
    audit: Row
    sources: list[Row]
    results: list[Row]
    dd_tables: dict[str, dict[tuple[str, str], int]]
    seats: list[Row]
    player_totals: dict[str, Row]
    optional: dict[str, list[Row]] = field(default_factory=dict)
    regression: Row | None = None
    regression_dir: Path | None = None
    seconds_read: float = 0.0
    labels: dict[str, str] = field(default_factory=dict)  # player key -> name shown
    #: (record_id, card index) -> the DD-best cards there ('SA SK'), from dd_card_alternatives
    alternatives: dict[tuple[str, int], str] = field(default_factory=dict)
    #: (record_id, card index) -> every legal card's DD tricks for the side to play ('SA:4 S2:3')
    card_values: dict[tuple[str, int], str] = field(default_factory=dict)
    #: deal_id -> the DD table its file published ({(strain, declarer): tricks})
    published_dd: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict)
    #: hand-record deals (`deals`): the boards of events published without results
    hand_deals: list[Row] = field(default_factory=list)
    #: each player's costliest mistakes in their events' units (`ranked_mistakes`, rank order)
    mistake_costs: list[Row] = field(default_factory=list)
    #: what each table's DD mistakes lost it, per side, in the event's unit (record_id, side,
    #: unit, cost)
    table_costs: list[Row] = field(default_factory=list)
    #: the store's reads by the event (`stages.site_reader.SiteReader`): the event list, the
    #: players' counts, and each batch of events' rows; `results`, `seats`, `dd_tables`, ...
    #: then hold one batch
    reader: Any = None

    def label(self, player: str | None) -> str:
        return self.labels.get(player, player) if player else ""


def slug(text: str, prefix: str) -> str:
    """A file name safe on every system for any name (quotes, '<', accents, slashes)."""
    return f"{prefix}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


def is_mp(scoring: str | None) -> bool:
    return bool(scoring) and str(scoring).strip().upper() in MP_WORDS


@dataclass
class Event:
    event_id: str
    name: str
    year: int
    scoring: str  # "IMP" or "MP"
    results: list[Row] = field(default_factory=list)
    kind: str = ""  # the source's own word: MP, IMP, TEAMS, BAM (point-a-board), ...
    date: str = ""
    organiser: str = ""
    site: str = ""  # where it was played, as the file names it, when not the organiser
    sources: set[str] = field(default_factory=set)
    #: the event model's ids of its results (`events`, `published_standings` use them)
    model_ids: set[str] = field(default_factory=set)
    #: a hand-record event's boards (deal, dealer, vulnerability, par): no results
    hands: list[Row] = field(default_factory=list)
    #: an event listed before its rows are read: its counts from the store (`site_event_list`)
    counts: Row | None = None

    @property
    def page(self) -> str:
        return f"events/{slug(self.event_id, 'e')}.html"

    @property
    def players(self) -> set[str]:
        return {p for r in self.results for p in r["players"] if p}

    @property
    def team_label(self) -> str:
        """What a team's total is counted in: board points at point-a-board, else VPs."""
        return "Board points" if self.kind == "BAM" else "VPs"

    @property
    def deals(self) -> int:
        """Distinct deals; a scoring-only result (no hand record) counts by its session and board
        number (sections playing the same boards play one board): the rule `ddrank event` counts
        by (sql/queries/lookup.sql, lookup_event_counts)."""
        if self.hands:
            return len(self.hands)
        if self.counts is not None:
            return int(self.counts["deals"])
        return len({r.get("deal_id") or f"{r.get('session') or ''}|{r.get('board_no') or '?'}"
                    for r in self.results})  # fmt: skip

    @property
    def played(self) -> list[Row]:
        """The results that count: the scoring stage's (as `ddrank event` counts them) where it
        ran, else every line with a score; a line not played (a round missed, a sit-out) is
        no result."""
        if any(r.get("scored") for r in self.results):
            return [r for r in self.results if r.get("scored")]
        return [r for r in self.results if r.get("contract") or r.get("adjusted")
                or r.get("ns_score") not in (None, "")]  # fmt: skip

    @property
    def not_played(self) -> int:
        """Lines read and kept that hold no result (shown on the travellers as not played)."""
        if self.counts is not None:
            c = self.counts
            return int(c["results"]) - int(c["scored"] if c["scored"] else c["lines"])
        return len(self.results) - len(self.played)

    @property
    def listed(self) -> bool:
        """Whether it has table results (read or counted)."""
        return bool(self.results) or bool(self.counts and self.counts["results"])

    @property
    def player_count(self) -> int:
        return int(self.counts["players"]) if self.counts is not None else len(self.players)


def seat_players(seats: Iterable[Row]) -> tuple[dict[str, list[str | None]], dict]:
    """record_id -> player at N,E,S,W; and (record_id, seat) -> that seat's mistakes row."""
    who: dict[str, list[str | None]] = defaultdict(lambda: [None] * 4)
    mistakes: dict[tuple[str, int], Row] = {}
    for s in seats:
        who[s["record_id"]][s["seat"]] = s["player"]
        mistakes[(s["record_id"], s["seat"])] = s
    return who, mistakes


def build_events(data: SiteData, split: bool = True, leagues: bool = True) -> list[Event]:
    """Group the results into events (store's events table for names and dates when present);
    with `split`, the bid/play split of IMP events too (`score_event`; else the caller's); with
    `leagues`, the events published without table results too (`league_events`)."""
    meta = {str(e.get("event_id")): e for e in data.optional.get("events", [])}
    who, mistakes = seat_players(data.seats)
    events: dict[str, Event] = {}
    for r in data.results:
        eid = str(r["event_id"])
        ev = events.get(eid)
        if ev is None:
            ev = new_event(eid, r, meta)
            events[eid] = ev
        names = (r.get("northname"), r.get("eastname"), r.get("southname"), r.get("westname"))
        # a seat nobody holds as a player (a placeholder, a pair label) links to no page
        r["players"] = list(who[r["record_id"]])
        r["labels"] = [data.label(p) if p else (n or "") for p, n in zip(r["players"], names,
                                                                        strict=True)]  # fmt: skip
        r["names"] = names
        r["mistakes"] = [mistakes.get((r["record_id"], k)) for k in range(4)]
        if r.get("source_file"):
            ev.sources.add(str(r["source_file"]))
        if r.get("model_event_id"):
            ev.model_ids.add(str(r["model_event_id"]))
        ev.results.append(r)
    if leagues:
        events.update(league_events(data, set(events)))
    for ev in events.values():
        # where it was played, as its file says (PBN [Site], a `%HRTitleSite` line,
        # an XML or game file's club): the most common, when the organiser is not it
        sites = Counter(str(r.get("site") or "").strip() for r in ev.results)
        sites.pop("", None)
        scored = [r["scored"] for r in ev.results if r.get("scored")]
        place_event(ev, sites.most_common(1)[0][0] if sites else None, bool(scored),
                    any(s.get("ns_mp") is not None for s in scored))  # fmt: skip
        if split:
            score_event(ev)
    return list(events.values())


def league_events(data: SiteData, with_results: set[str],
                  named: tuple[set[str], set[str]] | None = None) -> dict[str, Event]:  # fmt: skip
    """Events published without table results (a teams league's file of match scores and its
    table): their ranking and matches are their pages. `with_results`: the events with results;
    `named`: the events the rankings or matches name, and those the matches name (else from
    `data.optional`'s rows)."""
    meta = {str(e.get("event_id")): e for e in data.optional.get("events", [])}
    if named is None:
        ranked = {str(r.get("event") or "") for r in data.optional.get("rankings", [])}
        leagues = {str(m.get("event") or "") for m in data.optional.get("team_matches", [])}
        ranked |= leagues
    else:
        ranked, leagues = named
    events = {}
    for eid, m in meta.items():
        if eid in with_results or eid not in ranked:
            continue
        date = str(m.get("date_start") or "")
        events[eid] = Event(event_id=eid, name=str(m.get("name") or eid),
                            year=int(date[:4]) if date[:4].isdigit() else 0, scoring="IMP",
                            date=date, organiser=str(m.get("organiser") or ""),
                            kind="TEAMS" if eid in leagues else str(m.get("scoring") or "")
                            .strip().upper(), model_ids={eid})  # fmt: skip
    return events


def new_event(eid: str, r: Row, meta: dict[str, Row]) -> Event:
    """The event `eid` named as its first result `r` and the event model's row (`meta`) say."""
    m = meta.get(eid) or meta.get(str(r.get("model_event_id") or ""), {})
    scoring = m.get("scoring") or r.get("scoring") or ""
    return Event(
        event_id=eid,
        name=str(m.get("name") or r.get("event") or "(unnamed event)"),
        year=int(r.get("year") or 0),
        scoring="MP" if is_mp(scoring) else "IMP",
        date=str(m.get("date_start") or r.get("date") or ""),
        organiser=str(m.get("organiser") or ""),
        kind=str(scoring).strip().upper(),
    )


def place_event(ev: Event, site: str | None, scored: bool, mp: bool) -> None:
    """Where it was played (`site`: the one its results name most, when not the organiser), and
    matchpoints or IMPs as the scoring stage scored it (`scored`, `mp`)."""
    if site:
        ev.site = "" if site.casefold() == ev.organiser.strip().casefold() else site
    if scored and ev.kind not in TEAM_SCORINGS:  # matchpoints where scoring gave them
        ev.scoring = "MP" if mp else "IMP"


def listed_event(row: Row, meta: dict[str, Row]) -> Event:
    """An event as the site lists it before its rows are read: from `site_event_list`'s row."""
    first = {"event": row["event"], "year": row["year"], "scoring": row["scoring"],
             "date": row["date"], "model_event_id": row["event_id"]}  # fmt: skip
    ev = new_event(row["label"], first, meta)
    ev.counts = {k: row[k] for k in ("results", "deals", "players", "scored", "lines")}
    ev.sources = set(row["sources"] or [])
    ev.model_ids = set(row["model_ids"] or [])
    place_event(ev, row["site"], bool(row["scored"]), bool(row["any_mp"]))
    return ev


def date_order(events: Iterable[Event]) -> list[Event]:
    """The latest event first (by date, else year), then by name; undated events last."""
    by_name = sorted(events, key=lambda e: e.name.casefold())
    return sorted(by_name, key=lambda e: e.date or (str(e.year) if e.year else ""), reverse=True)


def boards_of(ev: Event) -> list[tuple[str, str, list[Row]]]:
    """(board label, deal_id, results) in the event's order: a board is one deal of the event."""
    groups: dict[tuple[Any, str], list[Row]] = {}
    order: list[tuple[Any, str]] = []
    for r in ev.results:
        # a scoring-only result (no hand record) has no deal: its board number keys it
        deal = r.get("deal_id") or f"board-{r.get('board_no') or '?'}"
        key = (f"{r.get('session') or ''}|{r.get('section') or ''}", deal)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    out = []
    for key in order:
        rows = groups[key]
        label = str(rows[0].get("board_no") or "?")
        out.append((label, key[1], rows))
    return out


def score_event(ev: Event) -> None:
    """The bid/play split of an IMP event's results (Cammarata 2015: analysis, not a score).

    Scores are never computed here: every page prints what the scoring stage stored
    (`scored_results`, on each result as `r["scored"]`) and what the file printed."""
    if ev.scoring == "MP":
        return
    for _label, _deal, rows in boards_of(ev):
        tables = []
        for r in rows:
            made = table_result(r) if r.get("ns_points") is not None else None
            if made is not None:
                tables.append((r, made))
        if len(tables) >= 2:
            from ddrank.split import split_board  # numpy: only for IMP events

            split = split_board([t for _, t in tables]).per_table()
            for (r, _), s in zip(tables, split, strict=True):
                r["split"] = s


def table_result(r: Row) -> TableResult | None:
    """The result as the split needs it; pairs are labelled with the names shown."""
    names = tuple(p or "" for p in r["labels"])
    made = make_result(
        board=str(r["deal_id"]), deal=str(r["deal_id"]), table=str(r["record_id"]),
        names=names, contract_text=r.get("contract"), declarer_text=r.get("declarer"),
        tricks=r.get("result") if r.get("contract") != "P" else 0,
        ns_vulnerable=r.get("ns_vulnerable"), ew_vulnerable=r.get("ew_vulnerable"),
        year=int(r.get("year") or 0),
    )  # fmt: skip
    return made if isinstance(made, TableResult) else None


def pair_split(ev: Event) -> list[Row]:
    """Per pair: boards, Butler = bid + play + defence + luck (IMPs per board), best first."""
    from ddrank.split import aggregate_splits

    splits = [r["split"] for r in ev.results if r.get("split") is not None]
    pairs, _players = aggregate_splits(splits)
    return sorted(pairs, key=lambda p: (-float(p["butler"]), str(p["players"])))


def fmt_short(value: Any) -> str:
    """A score as a traveller prints it: '7', '-7', '2.5', '0.19' ('' for missing or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (int, float)):
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)

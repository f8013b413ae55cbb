"""What a rebuild must render: each event's and each player's pages' fingerprint of their inputs.

An event's fingerprint is taken without reading its rows: the store's hashes of the rows its pages
are made of (`stages.site_reader.SiteReader.content`: its results, scores, seats, DD tables, DD-best
cards, players' own results, costs), the event as listed, the rows of the optional tables that
name it (rankings, standings, matches, scoring errors, the event model), its players' names, and
the player pages its names link to (`players.by_label`: the names its pages show, kept in the
build record, since a name's page depends on every player who bears it). The analysis is derived
from those inputs by the site's code, whose version the build record holds too. So a rebuild
reads, analyses and renders only the events whose fingerprint changed.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ddrank.site.data import Event, Row
from ddrank.site.fingerprint import fingerprint

#: The optional tables whose rows name an event (by `event`, `event_id`, or its name).
EVENT_TABLES = ("rankings", "published_standings", "team_matches", "scoring_errors", "events")


def event_rows(optional: dict[str, list[Row]]) -> dict[str, list[str]]:
    """event key (an `event` or `event_id` value) -> the rows of `EVENT_TABLES` naming it."""
    out: dict[str, list[str]] = defaultdict(list)
    for table in EVENT_TABLES:
        for row in optional.get(table, []):
            text = f"{table}:{row!r}"
            for key in {str(row.get("event") or ""), str(row.get("event_id") or "")} - {""}:
                out[key].append(text)
    return out


def event_labels(ev: Event, rankings: Any, cards: Any, matches: Row) -> list[str]:
    """The names an event's pages link to a player's page by (`Players.linked`): ranking lines
    and rosters, scorecards, the cumulative standings, the seats' names (the split's pairs)."""
    lines = [text for rk in rankings for ln in rk.lines for text in (ln.players, ln.roster)]
    lines += [c.line.players for c in cards]
    lines += [ln.players for ln in (matches.get("cumulative") or ("", []))[1]]
    labels = {part.strip() for text in lines for part in str(text or "").split(" - ")}
    labels |= {lb for r in ev.results for lb in r["labels"] if lb}
    return sorted(labels)


def event_fingerprint(ev: Event, content: list[str] | None, rows: dict[str, list[str]],
                      people: list[tuple[str, str]], labels: list[str],
                      by_label: dict[str, str]) -> str:  # fmt: skip
    """Everything an event's pages show, from their inputs (see the module's docstring): `ev` as
    listed, `content` its rows' hashes, `rows` `event_rows`, `people` its players and their
    names, `labels` the names its pages link by."""
    keys = sorted({ev.event_id, ev.name, *ev.model_ids} - {""})
    named = sorted({text for k in keys for text in rows.get(k, [])})
    return fingerprint(
        ev.event_id, ev.name, ev.year, ev.scoring, ev.kind, ev.date, ev.organiser, ev.site,
        sorted(ev.sources), sorted(ev.model_ids), ev.hands, ev.counts, content, named, people,
        [(t, by_label.get(t)) for t in labels],
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

"""The site's reads by the event (sql/queries/site_events.sql): the event list with its counts and
each player's events and partners come from SQL; each batch of events' rows is read when the site
renders it, so Python holds one batch (`ddrank.site.render.BATCH_RESULTS` results, or one larger event), never
the archive.

The reader is made on the run's open store after `site_who` (stages/seats.py) and lives as long as
the site is rendered (`stages.site.build_site` renders inside the store's `with`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ddrank.scoring.arithmetic.duplicate import duplicate_score
from ddrank.scoring.intake.records import event_label
from ddrank.site.handrecord import dd_cells
from ddrank.types import Contract, DomainError, Seat
from store import Store

Row = dict[str, Any]
#: Optional tables whose rows name an event (by `event`, or `event_id`): read with each batch of
#: events (`SiteReader.event_tables`), never whole (`stages.site.read_optional`).
BY_EVENT = ("rankings", "published_standings", "team_matches", "scoring_errors")


class SiteReader:
    """Named queries over one store: `events()` the list, `load(evs)` a batch's rows."""

    def __init__(self, store: Store, tables: set[str]) -> None:
        self.store, self.tables = store, tables
        keys = store.tuples("site_event_keys")
        ids: dict[str, int] = {}
        evs = [ids.setdefault(event_label({"event_id": k[0], "event": k[1], "date": k[2],
                                           "year": k[3]}), len(ids)) for k in keys]  # fmt: skip
        self.labels = list(ids)  # ev -> the event's label (`event_label`)
        store.run("make_site_event_of", event_ids=[k[0] for k in keys],
                  events=[k[1] for k in keys], dates=[k[2] for k in keys],
                  years=[k[3] for k in keys], evs=evs)  # fmt: skip
        store.run("make_site_result_rows")

    def events(self) -> list[Row]:
        """One row per event with results (`site_event_list`), `label` its id on the site."""
        rows = self.store.rows("site_event_list")
        for r in rows:
            r["label"] = self.labels[r["ev"]]
        return rows

    def player_events(self) -> list[tuple[str, int, int]]:
        """(player, ev, boards) for every player and event they played in."""
        return self.store.tuples("site_player_events")

    def partners(self, order: list[int]) -> dict[str, list[tuple[str, int]]]:
        """player -> their 15 most frequent partners and boards together, most first; ties in the
        order of `order` (the events as the site lists them), then the booklet's."""
        self.store.run("make_site_event_rank", evs=order, ranks=list(range(len(order))))
        out: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for player, partner, boards in self.store.tuples("site_player_partners"):
            out[player].append((partner, int(boards)))
        return out

    def content(self) -> dict[str, list[str]]:
        """label -> its rows' content hashes (sql/queries/site_events.sql, `site_hash_*`): one
        per table its pages are made of, so a rebuild tells a changed event without reading it."""
        parts = ["results", "scored", "seats", "dd_tables"]
        parts += [name for name, table in (("published_dd", "published_dd"),
                                           ("card_alternatives", "dd_card_alternatives"),
                                           ("player_results", "player_results"),
                                           ("mistake_costs", "mistake_costs"))
                  if table in self.tables]  # fmt: skip
        out: dict[str, list[str]] = {label: [] for label in self.labels}
        for part in parts:
            got = dict(self.store.tuples(f"site_hash_{part}"))
            for ev, label in enumerate(self.labels):
                out[label].append(f"{part}:{got.get(ev, '')}")
        return out

    def events_of(self, records: list[str]) -> dict[str, str]:
        """record_id -> the label of its event, for the results `records`."""
        return {str(rid): self.labels[ev]
                for rid, ev in self.store.tuples("site_record_events", records=records)}  # fmt: skip

    def any_dd(self) -> bool:
        """Whether any deal has a DD table, solved or published."""
        if self.store.scalar("site_any_dd_tables"):
            return True
        return "published_dd" in self.tables and bool(self.store.scalar("site_any_published_dd"))

    def event_tables(self, keys: list[str]) -> dict[str, list[Row]]:
        """The rows of the tables that name an event (`BY_EVENT`: rankings, standings, matches,
        scoring errors) naming any of `keys` (events' ids, names, model ids) by `event` or
        `event_id`, in each table's order: a batch of events' rows, not the tables."""
        return {name: self.store.rows(f"site_batch_{name}", keys=sorted(set(keys)))
                for name in BY_EVENT if name in self.tables}  # fmt: skip

    def league_names(self) -> tuple[set[str], set[str]]:
        """The events the rankings or team matches name, and those the team matches name
        (`ddrank.site.data.league_events`)."""
        ranked = ({e for (e,) in self.store.tuples("site_league_names_rankings")}
                  if "rankings" in self.tables else set())  # fmt: skip
        leagues = ({e for (e,) in self.store.tuples("site_league_names_matches")}
                   if "team_matches" in self.tables else set())  # fmt: skip
        return ranked | leagues, leagues

    def load(self, evs: list[int], keys: list[str] | None = None) -> Row:
        """The rows of the events `evs`: results (in the booklet's order), scores, seats, DD
        tables, published DD, DD-best cards, table costs and players' own results; with `keys`
        (the events' ids, names and model ids), the rows of `BY_EVENT` naming them
        (`"tables"`)."""
        store, tables = self.store, self.tables
        scored = {r["record_id"]: r for r in store.rows("site_batch_scored", evs=evs)}
        deals = [d for (d,) in store.tuples("site_batch_deals", evs=evs)]
        dd: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
        for deal_id, strain, declarer, tricks in store.tuples("site_batch_dd_tables", deals=deals):
            dd[deal_id][(strain, declarer)] = tricks
        published = {}
        if "published_dd" in tables:
            for deal_id, digits in store.tuples("site_batch_published_dd", deals=deals):
                if cells := dd_cells(digits):
                    published[deal_id] = cells
        best, values = {}, {}
        if "dd_card_alternatives" in tables:
            for r in store.rows("site_batch_card_alternatives", evs=evs):
                key = (r["record_id"], int(r["card_index"]))
                best[key] = r["best_cards"]
                if r.get("card_values"):
                    values[key] = r["card_values"]
        results = store.rows("site_batch_results", evs=evs)
        for row in results:
            row["model_event_id"] = row.get("event_id")  # the event model's id (events, standings)
            row["event_id"] = event_label(row)  # as the scoring stage names the event
            row["ns_points"] = ns_points(row)
            row["scored"] = scored.get(row["record_id"], {})
        return {
            "results": results,
            "scored": scored,
            "seats": store.rows("site_batch_seats", evs=evs),
            "dd_tables": dict(dd),
            "published_dd": published,
            "alternatives": best,
            "card_values": values,
            "table_costs": (
                store.rows("site_batch_table_costs", evs=evs) if "mistake_costs" in tables else []
            ),  # fmt: skip
            "player_results": (
                store.rows("site_batch_player_results", evs=evs)
                if "player_results" in tables
                else None
            ),  # fmt: skip
            "tables": self.event_tables(keys) if keys is not None else {},
        }

    def hand_dd(self, deals: list[str]) -> tuple[dict, set[str]]:
        """For hand-record deals: the DD tables their files published, and which of them a
        result was played on (a hand record beside its results is that event's). Their solved
        DD tables are never needed: a solved deal is a played one."""
        published = {}
        if "published_dd" in self.tables:
            for deal_id, digits in self.store.tuples("site_batch_published_dd", deals=deals):
                if cells := dd_cells(digits):
                    published[deal_id] = cells
        played = {d for (d,) in self.store.tuples("site_played_deals", deals=deals)}
        return published, played


def ns_points(row: Row) -> int | None:
    """North-South's score of a result (None when the contract or tricks are unknown)."""
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("result")
    if contract == "P":
        return 0
    if not contract:
        return _plain_score(row)
    if not declarer or tricks is None:
        return None
    try:
        seat = Seat.parse(declarer)
        c = Contract.parse(contract, declarer=seat)
        vul = row["ns_vulnerable"] if seat.is_ns else row["ew_vulnerable"]
        points = duplicate_score(c, int(tricks), bool(vul), int(row.get("year") or 0))
    except DomainError:
        return None
    return points if seat.is_ns else -points


def _plain_score(row: Row) -> int | None:
    """The score a score-only line records (no contract: a game file, an XML file without contracts),
    North-South's; None for an adjusted or unplayed line."""
    if row.get("adjusted"):
        return None
    try:
        return int(float(str(row.get("ns_score")).strip()))
    except (TypeError, ValueError):
        return None

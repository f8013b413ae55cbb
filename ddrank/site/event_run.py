"""The events' part of a site build: which events to read (`unread`), each read batch's analysis
and pages (`read_events`, `event_done`), and what the build record keeps of each (`finish_event`).

A batch of events is read by the caller (the store is the run's, in its process) and can be
analysed and rendered in another process: `event_done` renders from the batch alone and reports
what the main process needs back (fingerprint, pages, names linked, the costliest mistakes'
links, the index's rankings of a front event), plain data that crosses a process boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from ddrank.site.costly import table_costs
from ddrank.site.data import Event, SiteData, build_events, score_event
from ddrank.site.handrecord import fill_from_published
from ddrank.site.pages import analyse_tables, board_pages, event_pages
from ddrank.site.rebuild import event_fingerprint, event_labels, event_rows

Job = tuple[list[str], dict[str, Any]]  # (event ids, their rows as `SiteReader.load` gives them)
#: `mapper(fn, jobs)`: `fn` over `jobs`, results in order (the caller's processes, or `map`)
Mapper = Callable[[Callable[[Job], Any], Iterable[Job]], Iterator[Any]]
#: Events whose named rows a rebuild reads at once to tell which are unchanged (`unread`).
UNREAD_CHUNK = 50


class EventRun:
    """Mixed into `ddrank.site.render.SitePages` (its `data`, `events`, `evs`, `players`,
    `previous`, `built`, `content`, `people`, `cost_rows`, `front_events`, `batch_results`).

    The tables whose rows name an event (rankings, standings, matches, scoring errors) are read
    with each batch of events (`keys`, `SiteData.reader`), never whole."""

    def _fingerprint(self, ev: Event, labels: list[str], named: dict[str, list[str]]) -> str:
        """`named`: `event_rows` of (at least) the rows naming `ev`."""
        return event_fingerprint(ev, self.content.get(ev.event_id), named,
                                 self.people.get(ev.event_id, []), labels,
                                 self.players.by_label)  # fmt: skip

    def keys(self, ids: list[str]) -> list[str]:
        """What the events `ids` are named by in the optional tables: ids, names, model ids."""
        return sorted({k for eid in ids for ev in (self.event_of[eid],)
                       for k in (ev.event_id, ev.name, *ev.model_ids)})  # fmt: skip

    def unread_tables(self, eid: str) -> SiteData:
        """The site's data with the rows naming the event `eid`, one with no results to read (a
        hand record, a league): no player's own results either."""
        tables = self.data.reader.event_tables(self.keys([eid]))
        if "player_results" in self.data.optional:
            tables["player_results"] = []
        return replace(self.data, optional={**self.data.optional, **tables})

    def unread(self) -> dict[str, dict[str, Any]]:
        """The events with results a rebuild need not read: their fingerprint (taken with the
        names the last build's pages linked by) is the last build's, the build record holds the
        links into them that the player pages list, and the index does not show their rankings.
        event id -> the costliest mistakes' links into it (from the record)."""
        old_events = self.previous.get("events", {})
        front = {ev.event_id for ev in self.events[: self.front_events]}
        out = {}
        maybe = [ev for ev in self.events if ev.event_id in self.evs and ev.event_id not in front
                 and len(old_events.get(ev.event_id) or ()) >= 4]  # fmt: skip
        for at in range(0, len(maybe), UNREAD_CHUNK):  # the named rows a chunk at a time
            chunk = maybe[at : at + UNREAD_CHUNK]
            named = self.named([ev.event_id for ev in chunk])
            for ev in chunk:
                old = old_events[ev.event_id]
                if self._fingerprint(ev, old[2], named) != old[0]:
                    continue
                kept = self.players.links.restore(ev, old[3], self.cost_rows.get(ev.event_id, []))
                if kept is not None:
                    out[ev.event_id] = kept
        return out

    def named(self, ids: list[str]) -> dict[str, list[str]]:
        """`event_rows` of the rows naming the events `ids` (and the event model's rows)."""
        tables = self.data.reader.event_tables(self.keys(ids))
        return event_rows({"events": self.data.optional.get("events", []), **tables})

    def batches(self, unread: dict[str, Any]) -> list[list[str]]:
        """The events to read, `batch_results` results at a time (one event at least)."""
        out: list[list[str]] = [[]]
        size = 0
        for ev in self.events:
            if ev.event_id in unread or ev.event_id not in self.evs:
                continue
            if size >= self.batch_results:
                out.append([])
                size = 0
            out[-1].append(ev.event_id)
            size += int((ev.counts or {}).get("results") or 0)
        return [b for b in out if b]

    def load(self, ids: list[str]) -> Job:
        return ids, self.data.reader.load([self.evs[eid] for eid in ids], self.keys(ids))

    def read_events(self, job: Job) -> Iterator[tuple[Event, Event, list[Any], SiteData]]:
        """Each event of a read batch: (as listed, as read, its boards, the batch's data)."""
        ids, got = job
        data = self.data
        optional = {**data.optional, **got["tables"]}
        if got["player_results"] is not None:
            optional["player_results"] = got["player_results"]
        sub = replace(data, results=got["results"], seats=got["seats"],
                      dd_tables=got["dd_tables"], published_dd=got["published_dd"],
                      alternatives=got["alternatives"], card_values=got["card_values"],
                      table_costs=got["table_costs"], optional=optional, reader=None)  # fmt: skip
        fill_from_published(sub.results, sub.dd_tables, sub.published_dd)
        read = {ev.event_id: ev for ev in build_events(sub, split=False, leagues=False)}
        for eid in ids:
            ev = self.event_of[eid]
            full = read[eid]
            boards = board_pages(full, sub, sub.alternatives, analyse=False)
            table_costs(sub.table_costs, {eid: boards})
            yield ev, full, boards, sub

    def event_done(self, ev: Event, full: Event, boards: list[Any], sub: SiteData,
                   done: dict[str, Any]) -> Iterator[tuple[str, str | None]]:  # fmt: skip
        """An event read: its pages ((path, None) for a page kept as it is), then `done` filled
        with what `finish_event` takes."""
        players = self.players
        old = self.previous.get("events", {}).get(ev.event_id)
        rankings, cards, matches = self._parts(full, boards, sub)
        if ev.event_id in {e.event_id for e in self.events[: self.front_events]}:
            card_page = {(*c.ranking.key, c.line.pair): c.page for c in cards}
            done["front"] = (ev, rankings, matches, card_page)
        labels = event_labels(full, rankings, cards, matches)
        fp = self._fingerprint(ev, labels, event_rows(sub.optional))
        if old and old[0] == fp:  # nothing it shows changed: its pages as they are
            rels = old[1]
            for rel in rels:
                yield rel, None
            analyse_tables(boards, sub, sub.alternatives, players.needed)
        else:
            rels = []
            analyse_tables(boards, sub, sub.alternatives)
            score_event(full)  # the bid/play split its pages show
            for page in event_pages(full, sub, players, self.render, boards, rankings, cards,
                                    matches):  # fmt: skip
                rels.append(page[0])
                yield page
        done["record"] = [fp, rels, labels, players.links.add(ev, boards)]
        players.release(boards)

    def finish_event(self, eid: str, done: dict[str, Any], fronts: dict[str, Any]) -> None:
        """What the build keeps of an event read (here or in another process)."""
        ev = self.event_of[eid]
        record = done["record"]
        self.events_read += 1
        self.event_pages += len(record[1])
        self.players.links.restore(ev, record[3], self.cost_rows.get(eid, []))
        self.built["events"][eid] = record
        if "front" in done:
            fronts[eid] = done["front"]

    def event_pages_all(self, mapper: Mapper | None,
                        work: Callable[[Job], Any] | None) -> Iterator[tuple[str, str | None]]:  # fmt: skip
        """Every event's pages in this process, but those of read batches when `mapper` (with
        `work`, the caller's function that renders a job's pages elsewhere and returns
        [(event id, done)]) is given and there are two batches or more; then the index's front
        events (`self.fronts`)."""
        fronts: dict[str, Any] = {}
        unread = self.unread()
        for ev in self.events:
            old = self.previous.get("events", {}).get(ev.event_id)
            if ev.event_id in unread:  # not read: its pages as they are
                self.event_pages += len(old[1])
                self.built["events"][ev.event_id] = [*old[:3], unread[ev.event_id]]
                for rel in old[1]:
                    yield rel, None
            elif ev.event_id not in self.evs:  # a hand record or a league: no results to read
                sub = self.unread_tables(ev.event_id)
                boards = board_pages(ev, sub, {}, analyse=False)
                done: dict[str, Any] = {}
                yield from self.event_done(ev, ev, boards, sub, done)
                self.finish_event(ev.event_id, done, fronts)
        batches = self.batches(unread)
        jobs = (self.load(ids) for ids in batches)
        if mapper is None or work is None or len(batches) < 2:
            for job in jobs:
                for ev, full, boards, sub in self.read_events(job):
                    done = {}
                    yield from self.event_done(ev, full, boards, sub, done)
                    self.finish_event(ev.event_id, done, fronts)
        else:
            for result in mapper(work, jobs):
                for eid, done in result:
                    self.finish_event(eid, done, fronts)
        self.built["events"] = {e.event_id: self.built["events"][e.event_id] for e in self.events}
        self.fronts = [fronts[e.event_id] for e in self.events[: self.front_events]]

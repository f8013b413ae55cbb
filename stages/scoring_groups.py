"""Which groups of events changed since the last scoring, told without reading them (issue 37).

A group is the event names the store keys as one event (`stages.scoring_batches.event_groups`).
Its fingerprint covers every input scoring reads for it: DuckDB hashes the rows `scoring_boards`
gives each (order-free, every column, in SQL), and the facts, standings and name-matching
verdicts published for its events; with the model version, the scoring options and the store's
path (named in errors.csv). A run reads and scores only the groups whose fingerprint is not the
one `scoring_groups` keeps, so adding one event to an archive of a million results reads one
event; what the outputs need of the other groups (their events, the records they left out, their
IMP events, fouled boards, dates) is their stored state.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from ddrank.scoring.intake.records import event_label
from ddrank.scoring.intake.results import RecordError
from stages.run import give_back_memory
from stages.scoring import MODEL_VERSION, excluded_stream
from stages.scoring_batches import event_groups
from store import Store

SEP = "\x1f"


@dataclass
class Group:
    """One group of event names, its results and the fingerprint of its inputs."""

    names: list[str]
    results: int
    fingerprint: str

    @property
    def key(self) -> str:
        return SEP.join(self.names)


@dataclass
class GroupState:
    """What the outputs need of a group scored before: its events with results, the records it
    left out (in errors.csv's order), its IMP events, fouled boards and events' dates."""

    events: list[str] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    imp_events: list[str] = field(default_factory=list)
    fouled: int = 0
    dates: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"events": self.events, "errors": [asdict(e) for e in self.errors],
                           "imp_events": self.imp_events, "fouled": self.fouled,
                           "dates": self.dates})  # fmt: skip

    @staticmethod
    def from_json(text: str) -> GroupState:
        d = json.loads(text)
        return GroupState(d["events"], [RecordError(**e) for e in d["errors"]], d["imp_events"],
                          d["fouled"], d["dates"])  # fmt: skip


def _keyed(rows: list[tuple]) -> dict[str, list[int]]:
    """(event_id, event, hash) rows -> key (as scoring looks facts and standings up) -> hashes."""
    out: dict[str, list[int]] = defaultdict(list)
    for event_id, event, h in rows:
        for key in {str(event_id or event or ""), str(event_id or "").strip() or
                    str(event or "").strip()}:  # fmt: skip
            out[key].append(int(h))
    return out


def scoring_groups(store: Store, options: str) -> list[Group]:
    """Every group of the store's events, in scoring order, with its fingerprint (aggregates of
    the boards a part at a time, and the facts', standings' and matches' hashes)."""
    inputs = event_inputs(store)
    facts = _keyed(store.tuples("event_fact_fingerprints"))
    standings = _keyed(store.tuples("standing_fingerprints"))
    matched = dict(store.tuples("matched_player_fingerprints"))
    of_name: dict[str, list[tuple]] = defaultdict(list)
    for row in inputs:
        of_name[row[0] or ""].append(row)
    head = f"{MODEL_VERSION}|{options}|{store.path}"
    out = []
    for names, n in event_groups(inputs):
        h = hashlib.sha1(head.encode())
        for name in names:
            for ev, event_id, day, year, count, fp in sorted(of_name[name], key=repr):
                label = event_label({"event": ev, "event_id": event_id, "date": day,
                                     "year": year})  # fmt: skip
                context = f"{(ev or '').strip()}|{year or 0}"
                h.update(repr((ev, event_id, day, year, count, fp, sorted(facts.get(label, [])),
                               sorted(standings.get(label, [])),
                               matched.get(context))).encode())  # fmt: skip
        out.append(Group(names, n, h.hexdigest()))
    return out


#: Boards (by row id) hashed per query (`event_inputs`): at 1M results one query over every board
#: held a hash table of every raw record, +280 MB; a part of 100,000 holds +79 (issue 37).
INPUT_ROWS = 100_000


def event_inputs(store: Store, rows: int | None = None) -> list[tuple]:
    """Each event name's (event, event_id, date, year, results, fingerprint): the query
    `scoring_event_inputs`, run over `rows` boards at a time (by row id) and added up (counts
    summed, fingerprints XORed: the same values), DuckDB's cache given back after each part.
    Scoring writes no boards meanwhile, so their row ids stay; should the parts not add up to
    every board, the one query answers."""
    rows = rows or INPUT_ROWS
    out: dict[tuple, list[int]] = {}
    # what the log holds written first: DuckDB 2's checkpoint compacts row groups (moving row
    # ids) and runs only on a write, none of which comes before the last part
    store.checkpoint()
    last, boards = store.tuples("boards_row_ids")[0]
    for lo in range(0, -1 if last is None else last + 1, rows):
        for ev, event_id, day, year, n, fp in store.tuples("scoring_event_inputs_part", lo=lo,
                                                           hi=lo + rows):  # fmt: skip
            acc = out.setdefault((ev, event_id, day, year), [0, 0])
            acc[0] += n
            acc[1] ^= fp
        store.release_cache()
    parts = [(*key, n, fp) for key, (n, fp) in out.items()]
    if sum(r[4] for r in parts) != boards:  # never seen: the row ids moved between the parts
        parts = store.tuples("scoring_event_inputs")
    # by name: a group's names come in this order (`event_groups`), whatever the parts' order
    return sorted(parts, key=repr)


def changed_groups(store: Store, groups: list[Group]) -> list[Group]:
    """The groups whose inputs are not those of the last scoring (new, or changed)."""
    stored = dict(store.tuples("stored_scoring_groups"))
    return [g for g in groups if stored.get(g.key) != g.fingerprint]


def stored_states(store: Store, groups: list[Group], errors: bool = True
                  ) -> dict[str, GroupState]:  # fmt: skip
    """The kept state of the given groups (scored before, unchanged since), read
    STATES_PER_READ groups at a time; without `errors`, the records they left out are not kept
    (`StoredErrors` reads them again where errors.csv is written: issue 37)."""
    out: dict[str, GroupState] = {}
    keys = [g.key for g in groups]
    for i in range(0, len(keys), STATES_PER_READ):
        for k, text in store.tuples("scoring_group_states", keys=keys[i : i + STATES_PER_READ]):
            state = GroupState.from_json(text)
            if not errors:
                state.errors = []
            out[k] = state
    return out


#: Groups whose kept state is read per query (`stored_states`, `StoredErrors`).
STATES_PER_READ = 200


class StoredErrors:
    """errors.csv's records as the store keeps them, in its order: the records cleaning left
    out (`excluded_stream`), then each group's (its kept state), the groups in scoring order.
    Read from the store again each time it is iterated, a batch at a time, so that an archive's
    tens of thousands of errors are never all in memory (issue 37)."""

    def __init__(self, store: Store, groups: list[Group]) -> None:
        self.store, self.keys = store, [g.key for g in groups]

    def __iter__(self) -> Iterator[RecordError]:
        yield from excluded_stream(self.store)
        # what DuckDB cached of the raw records for them (90 MB at 1M results) is not kept
        give_back_memory(self.store)
        for i in range(0, len(self.keys), STATES_PER_READ):
            keys = self.keys[i : i + STATES_PER_READ]
            states = dict(self.store.tuples("scoring_group_states", keys=keys))
            for k in keys:
                if k in states:
                    yield from GroupState.from_json(states.pop(k)).errors
        give_back_memory(self.store)


def keep_states(store: Store, scored: list[tuple[Group, GroupState]]) -> None:
    """Keep the state and fingerprint of the groups just scored."""
    import polars as pl

    if not scored:
        return
    store.run("delete_scoring_groups", keys=[g.key for g, _ in scored])
    store.insert_frame("scoring_groups", pl.DataFrame(
        {"group_key": [g.key for g, _ in scored], "fingerprint": [g.fingerprint for g, _ in scored],
         "state": [s.to_json() for _, s in scored]}, schema={"group_key": pl.String,
         "fingerprint": pl.String, "state": pl.String}))  # fmt: skip


def forget_others(store: Store, groups: list[Group]) -> None:
    """Drop the kept state of groups the store no longer holds."""
    store.run("delete_other_scoring_groups", keys=[g.key for g in groups])


def as_state(events: Any, errors: list[RecordError], imp_events: list[str], fouled: int,
             dates: dict[str, str]) -> GroupState:  # fmt: skip
    return GroupState(sorted(events), list(errors), sorted(imp_events), fouled, dict(dates))
